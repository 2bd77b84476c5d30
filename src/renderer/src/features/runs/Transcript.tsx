// A run's transcript at any length: past a few dozen rows a virtualized list (only the rows in
// view plus overscan are in the page, each measured once rendered), following the newest line
// while the reader is at the bottom with a "Jump to latest" once they scroll up; a search that
// keeps the matching messages, marks the match and counts them; long tool output cut to its first
// lines until "Show all"; a line saying the sandbox refused a host offers to allow it.
import { useVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Message } from '../../../../shared/contract';
import { denialFromText } from '../sandbox/sandbox';
import { AllowHost } from '../sandbox/AllowHost';
import { firstLine, roleNames, toBlocks } from './Turns';
import { TimesInText } from '../../ui/TimesInText';

type Block = ReturnType<typeof toBlocks>[number];

const previewLines = 6;
/** Below this many rows the plain list is cheap, and simpler for assistive tech and tests. */
const virtualFrom = 60;
/** How close to the bottom still counts as "at the bottom", in pixels. */
const bottomSlack = 40;

const keyOf = (block: Block) => (block.kind === 'tools' ? block.messages[0].seq : block.message.seq);

/** `text` with each case-insensitive occurrence of `query` marked. */
export function Highlighted({ text, query }: { text: string; query: string }) {
  if (!query) return <>{text}</>;
  const parts: ReactNode[] = [];
  const lower = text.toLowerCase();
  const needle = query.toLowerCase();
  let from = 0;
  for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, from)) {
    parts.push(text.slice(from, at), <mark key={at}>{text.slice(at, at + needle.length)}</mark>);
    from = at + needle.length;
  }
  parts.push(text.slice(from));
  return <>{parts}</>;
}

/** The blocks whose messages contain `query` (a tool block keeps only its matching steps), and how many messages matched. */
export function searchBlocks(blocks: Block[], query: string): { blocks: Block[]; matches: number } {
  const needle = query.trim().toLowerCase();
  if (!needle) return { blocks, matches: 0 };
  const kept: Block[] = [];
  let matches = 0;
  for (const block of blocks) {
    if (block.kind === 'message') {
      if (block.message.content.toLowerCase().includes(needle)) {
        kept.push(block);
        matches++;
      }
      continue;
    }
    const hits = block.messages.filter((message) => message.content.toLowerCase().includes(needle));
    if (hits.length > 0) kept.push({ kind: 'tools', messages: hits });
    matches += hits.length;
  }
  return { blocks: kept, matches };
}

function ToolOutput({ message, query, showAll, onShowAll }: { message: Message; query: string; showAll: boolean; onShowAll: () => void }) {
  const lines = message.content.split('\n');
  const cut = !showAll && !query && lines.length > previewLines;
  return (
    <>
      <pre><Highlighted text={cut ? lines.slice(0, previewLines).join('\n') : message.content} query={query} /></pre>
      {cut && <button className="link" onClick={onShowAll}>Show all {lines.length} lines</button>}
    </>
  );
}

interface RowProps {
  block: Block;
  query: string;
  roleName: Record<Message['role'], string>;
  opened: Set<string>;
  toggle: (key: string, open: boolean) => void;
  /** The run's instance: where an "Allow <host>" adds the host. */
  instanceId: string | undefined;
}

function Row({ block, query, roleName, opened, toggle, instanceId }: RowProps) {
  if (block.kind === 'message') {
    const { message } = block;
    return (
      <div className={`message ${message.role}`} data-role={message.role}>
        <span className="role">{roleName[message.role]} · <time dateTime={message.createdAt}>{new Date(message.createdAt).toLocaleTimeString()}</time></span>
        <span className="content">{message.role === 'system' && !query ? <TimesInText text={message.content} /> : <Highlighted text={message.content} query={query} />}</span>
        {message.role === 'system' && instanceId && <AllowHost instanceId={instanceId} denial={denialFromText(message.content)} />}
      </div>
    );
  }
  const key = `tools:${keyOf(block)}`;
  const open = Boolean(query) || opened.has(key);
  const count = block.messages.length;
  return (
    <details className="tools" open={open} onToggle={(event) => event.currentTarget.open !== open && toggle(key, event.currentTarget.open)}>
      <summary>
        {count} tool {count === 1 ? 'step' : 'steps'}: <span className="mono">{firstLine(block.messages[0].content)}</span>
      </summary>
      {open && block.messages.map((message) => <ToolOutput key={message.seq} message={message} query={query} showAll={opened.has(`all:${message.seq}`)} onShowAll={() => toggle(`all:${message.seq}`, true)} />)}
    </details>
  );
}

/** Whether the reader moved the view themselves lately: only their scrolling stops the follow. */
function useUserScrolling() {
  const last = useRef(0);
  const mark = useCallback(() => void (last.current = Date.now()), []);
  return { mark, recent: () => Date.now() - last.current < 1000 };
}

export function Transcript({ messages, label = 'Transcript', userName, instanceId, searchLabel = 'Search this run' }: { messages: Message[]; label?: string; userName?: string; instanceId?: string; searchLabel?: string }) {
  const roleName = useMemo(() => ({ ...roleNames, ...(userName ? { user: userName } : {}) }), [userName]);
  const [query, setQuery] = useState('');
  const [opened, setOpened] = useState<Set<string>>(() => new Set());
  const [following, setFollowing] = useState(true);
  const scroller = useRef<HTMLDivElement>(null);
  const user = useUserScrolling();
  const all = useMemo(() => toBlocks(messages), [messages]);
  const found = useMemo(() => searchBlocks(all, query), [all, query]);
  const rows = found.blocks;
  const virtual = rows.length > virtualFrom;
  const toggle = useCallback((key: string, open: boolean) => setOpened((now) => {
    const next = new Set(now);
    if (open) next.add(key);
    else next.delete(key);
    return next;
  }), []);

  const virtualizer = useVirtualizer({
    count: virtual ? rows.length : 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => 56,
    overscan: 8,
    getItemKey: (index) => keyOf(rows[index]),
  });

  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    const atBottom = element.scrollHeight - element.scrollTop - element.clientHeight < bottomSlack;
    // Measuring rows moves the view too: only the reader's own scrolling up stops the follow.
    if (atBottom) setFollowing(true);
    else if (user.recent()) setFollowing(false);
  };

  const jump = useCallback(() => {
    if (virtual) virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
    else if (scroller.current) scroller.current.scrollTop = scroller.current.scrollHeight;
  }, [virtual, virtualizer, rows.length]);

  useLayoutEffect(() => {
    if (following && rows.length > 0) jump();
  }, [following, rows.length, jump]);

  // A search starts from the top of what it found; clearing it goes back to the newest line.
  useEffect(() => setFollowing(!query), [query]);

  const renderRow = (block: Block) => <Row block={block} query={query.trim()} roleName={roleName} opened={opened} toggle={toggle} instanceId={instanceId} />;

  return (
    <div className="transcript">
      <div className="bar transcript-search">
        <input type="search" aria-label={searchLabel} placeholder={searchLabel} value={query} onChange={(event) => setQuery(event.target.value)} />
        {query.trim() && <span className="hint" role="status">{found.matches} {found.matches === 1 ? 'matching message' : 'matching messages'}</span>}
      </div>
      <div ref={scroller} className="turns transcript-scroll" role="log" aria-label={label} onScroll={onScroll} onWheel={user.mark} onTouchMove={user.mark} onKeyDown={user.mark} onPointerDown={user.mark} tabIndex={0}>
        {virtual ? (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((item) => (
              <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} className="transcript-row" style={{ transform: `translateY(${item.start}px)` }}>
                {renderRow(rows[item.index])}
              </div>
            ))}
          </div>
        ) : (
          rows.map((block) => <div key={keyOf(block)}>{renderRow(block)}</div>)
        )}
      </div>
      {!following && rows.length > 0 && !query && (
        <button className="jump-latest" onClick={() => setFollowing(true)}>Jump to latest</button>
      )}
    </div>
  );
}

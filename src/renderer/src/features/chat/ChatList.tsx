// An instance's chats (first prompt, last activity; "New chat") and the instance picker. Beside the
// conversation on a wide screen; on a narrow one a panel opened by the "Chats" button, closed by
// Escape, its Close button or picking a chat, focus going back to that button.
import { useEffect, useRef } from 'react';
import type { Instance } from '../../../../shared/contract';
import { Time, useEscape } from '../../ui/widgets';
import { useApp } from '../../lib/app-context';
import { instanceLabel } from '../instances/instance-label';

const ellipsis = (text: string, max = 60) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export const chatListId = 'chat-list';

/** `open`: shown as a panel on a narrow screen (a wide one always shows it); `onClose`: the panel is done with. */
export function ChatList({ instance, threadId, open, onClose }: { instance: Instance; threadId: string | undefined; open: boolean; onClose: () => void }) {
  const { instances, chats, loadChats, navigate } = useApp();
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    void loadChats(instance.id).catch(() => undefined);
  }, [instance.id, loadChats]);
  useEscape(open, onClose);
  useEffect(() => {
    // Opened: focus goes to the chat shown, else to "New chat", so the keyboard starts in the list.
    if (open) (panel.current?.querySelector<HTMLElement>('a[aria-current="page"]') ?? panel.current?.querySelector<HTMLElement>('button.primary'))?.focus();
  }, [open]);
  const list = chats[instance.id];
  return (
    <aside ref={panel} id={chatListId} className={open ? 'chat-list open' : 'chat-list'} aria-label="Chats">
      <div className="bar chat-list-head">
        <strong>Chats</strong>
        <span className="spacer" />
        <button type="button" onClick={onClose}>Close</button>
      </div>
      <div className="field">
        <label htmlFor="chat-instance">Instance</label>
        <select id="chat-instance" value={instance.id} onChange={(event) => navigate(`/chat/${event.target.value}`)}>
          {instances.map((each) => <option key={each.id} value={each.id}>{instanceLabel(each)}</option>)}
        </select>
      </div>
      <button className="primary" onClick={() => { navigate(`/chat/${instance.id}`); onClose(); }}>New chat</button>
      <nav aria-label={`Chats with ${instance.name}`}>
        {list === undefined && <div className="hint">Loading…</div>}
        {list?.length === 0 && <div className="hint">No chats yet.</div>}
        {list?.map((chat) => (
          <a key={chat.id} href={`#/chat/${instance.id}/${chat.id}`} aria-current={chat.id === threadId ? 'page' : undefined} onClick={onClose} title={chat.firstPrompt ?? undefined}>
            <span>{ellipsis(chat.firstPrompt ?? 'New chat')}</span>
            <span className="hint"><Time iso={chat.lastActivityAt} /></span>
          </a>
        ))}
      </nav>
    </aside>
  );
}

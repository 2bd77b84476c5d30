// An ACP agent's session/update notifications as the run's events: its message chunks joined into
// one assistant message (ended by anything else it does, or by the end of the turn), its thoughts
// as one "Thinking" line, each tool call once when it starts and its result once when it completes
// or fails (with the diffs it made), its plan as a line.
import type { SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk';
import type { AgentEvent } from './events';

const maxDiffLines = 80;

type ToolCallUpdate = Extract<SessionUpdate, { sessionUpdate: 'tool_call_update' }>;

interface ToolCallSeen {
  content: ToolCallContent[];
  ended: boolean;
}

/** A tool call's content as text: its text blocks, and its diffs as `--- path` then the lines removed and added. */
export function toolContentText(content: ToolCallContent[]): string {
  return content
    .map((item) => {
      if (item.type === 'content') return item.content.type === 'text' ? item.content.text : `[${item.content.type}]`;
      if (item.type === 'terminal') return `[terminal ${item.terminalId}]`;
      const removed = (item.oldText ?? '').split('\n').filter((line, index, all) => line !== '' || index < all.length - 1).map((line) => `- ${line}`);
      const added = item.newText.split('\n').filter((line, index, all) => line !== '' || index < all.length - 1).map((line) => `+ ${line}`);
      const lines = [...(item.oldText == null ? [] : removed), ...added];
      const shown = lines.length > maxDiffLines ? [...lines.slice(0, maxDiffLines), `… ${lines.length - maxDiffLines} more lines`] : lines;
      return [`--- ${item.path}${item.oldText == null ? ' (new file)' : ''}`, ...shown].join('\n');
    })
    .filter((text) => text !== '')
    .join('\n');
}

export function createUpdateMapper(emit: (event: AgentEvent) => void) {
  let message = '';
  let thought = '';
  const calls = new Map<string, ToolCallSeen>();

  /** What was still arriving is whole: the message, or the thought, becomes its event. */
  function flush(): void {
    if (message.trim() !== '') emit({ type: 'assistant', text: message.trim(), raw: { sessionUpdate: 'agent_message_chunk', text: message } });
    if (thought.trim() !== '') emit({ type: 'system', text: `Thinking: ${thought.trim()}`, raw: { sessionUpdate: 'agent_thought_chunk', text: thought } });
    message = '';
    thought = '';
  }

  function toolEnded(id: string, update: Pick<ToolCallUpdate, 'status' | 'rawOutput'>, raw: unknown): void {
    const seen = calls.get(id);
    if (!seen || seen.ended || (update.status !== 'completed' && update.status !== 'failed')) return;
    seen.ended = true;
    const text = toolContentText(seen.content) || (update.rawOutput === undefined ? '' : JSON.stringify(update.rawOutput));
    emit({ type: 'tool_result', output: text || update.status, isError: update.status === 'failed', raw });
  }

  return {
    update(update: SessionUpdate): void {
      switch (update.sessionUpdate) {
        case 'agent_message_chunk':
          if (thought !== '') flush();
          if (update.content.type === 'text') message += update.content.text;
          return;
        case 'agent_thought_chunk':
          if (message !== '') flush();
          if (update.content.type === 'text') thought += update.content.text;
          return;
        case 'tool_call': {
          flush();
          calls.set(update.toolCallId, { content: update.content ?? [], ended: false });
          const input = update.rawInput ?? { ...(update.kind ? { kind: update.kind } : {}), ...(update.locations?.length ? { paths: update.locations.map((where) => where.path) } : {}) };
          emit({ type: 'tool_call', name: update.title, input, raw: update });
          toolEnded(update.toolCallId, update, update);
          return;
        }
        case 'tool_call_update': {
          flush();
          let seen = calls.get(update.toolCallId);
          // An update for a call never announced: announce it now, under the title it has.
          if (!seen) {
            seen = { content: [], ended: false };
            calls.set(update.toolCallId, seen);
            emit({ type: 'tool_call', name: update.title ?? update.toolCallId, input: update.rawInput ?? {}, raw: update });
          }
          if (update.content) seen.content = update.content;
          toolEnded(update.toolCallId, update, update);
          return;
        }
        case 'plan':
          flush();
          emit({ type: 'system', text: `Plan: ${update.entries.map((entry) => `${entry.status === 'completed' ? '[x]' : entry.status === 'in_progress' ? '[~]' : '[ ]'} ${entry.content}`).join('; ')}`, raw: update });
          return;
        default:
          // Commands, modes, usage, a replayed user message: nothing the run's record needs.
          return;
      }
    },
    /** The turn ended. */
    end: flush,
  };
}

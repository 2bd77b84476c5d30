// A conversation as turns: the user's prompts and the agent's replies as bubbles, tool calls and
// their results collapsed into one "N tool steps" line between them, system lines small. The run
// page, the chat and the onboarding card show messages this way.
import type { Message } from '../../../../shared/contract';

type Block = { kind: 'message'; message: Message } | { kind: 'tools'; messages: Message[] };

/** Consecutive tool messages become one block. */
export function toBlocks(messages: Message[]): Block[] {
  const blocks: Block[] = [];
  for (const message of messages) {
    const last = blocks.at(-1);
    if (message.role !== 'tool') blocks.push({ kind: 'message', message });
    else if (last?.kind === 'tools') last.messages.push(message);
    else blocks.push({ kind: 'tools', messages: [message] });
  }
  return blocks;
}

export const firstLine = (text: string, max = 80) => {
  const line = text.split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

export const roleNames = { user: 'Prompt', assistant: 'Agent', system: 'Steward', tool: 'Tool' } as const;

/** `userName`: what the prompts are called ("You" in a chat; a webhook's prompt is no one's words). */
export function Turns({ messages, label = 'Transcript', userName }: { messages: Message[]; label?: string; userName?: string }) {
  const roleName = { ...roleNames, ...(userName ? { user: userName } : {}) };
  return (
    <div className="turns" role="log" aria-label={label} aria-live="polite">
      {toBlocks(messages).map((block) =>
        block.kind === 'tools' ? (
          <details key={block.messages[0].seq} className="tools">
            <summary>
              {block.messages.length} tool {block.messages.length === 1 ? 'step' : 'steps'}: <span className="mono">{firstLine(block.messages[0].content)}</span>
            </summary>
            {block.messages.map((message) => <pre key={message.seq}>{message.content}</pre>)}
          </details>
        ) : (
          <div key={block.message.seq} className={`message ${block.message.role}`} data-role={block.message.role}>
            <span className="role">{roleName[block.message.role]} · <time dateTime={block.message.createdAt}>{new Date(block.message.createdAt).toLocaleTimeString()}</time></span>
            {block.message.content}
          </div>
        ),
      )}
    </div>
  );
}

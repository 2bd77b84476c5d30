// goose: `goose run --output-format stream-json --no-session -i -`, the prompt on stdin, one JSON
// event per line — message (a goose Message: role and content items text, toolRequest with
// toolCall {status, value {name, arguments}}, toolResponse with toolResult {status, value}),
// notification (an extension's log or progress), model_change, error and complete (total_tokens).
// GOOSE_MODE=auto approves every tool call. Streamed text arrives as several messages with one id.
import { hintOf } from '../error-class';
import type { AgentEvent } from '../events';
import { type Preset, type StreamParser, asRecord, blocks, contentText, describeUsage, finished, text, textJoiner } from './common';

function toolResult(item: Record<string, unknown>, raw: unknown): AgentEvent {
  const result = asRecord(item.toolResult);
  if (result.status === 'error') return { type: 'tool_result', output: text(result.error) || 'the tool failed', isError: true, raw };
  // Older goose: value is the content list; newer: a CallToolResult {content, isError}.
  const value = Array.isArray(result.value) ? { content: result.value } : asRecord(result.value);
  return { type: 'tool_result', output: contentText(value.content), isError: value.isError === true, raw };
}

function parser(): StreamParser {
  const joiner = textJoiner();
  let textId: unknown;
  return {
    line(raw) {
      if (raw.type === 'message') {
        const message = asRecord(raw.message);
        const events: AgentEvent[] = [];
        for (const item of blocks(message.content)) {
          if (item.type === 'text' && message.role === 'assistant') {
            if (message.id !== textId) events.push(...joiner.flush());
            textId = message.id;
            joiner.add(text(item.text), raw);
            continue;
          }
          if (item.type === 'toolRequest') {
            const call = asRecord(item.toolCall);
            const value = asRecord(call.value ?? call);
            events.push(...joiner.flush(), { type: 'tool_call', name: text(value.name), input: value.arguments, raw });
          } else if (item.type === 'toolResponse') {
            events.push(...joiner.flush(), toolResult(item, raw));
          }
        }
        return events;
      }
      const before = joiner.flush();
      switch (raw.type) {
        case 'notification': {
          const message = text(raw.message) || text(asRecord(raw.log).message);
          return message ? [...before, { type: 'system', text: `${text(raw.extension_id) || 'goose'}: ${message}`, raw }] : before;
        }
        case 'model_change':
          return [...before, { type: 'system', text: `goose switched to ${text(raw.model)}`, raw }];
        case 'error':
          return [...before, { type: 'system', text: `goose error: ${text(raw.error)}`, raw, ...hintOf(text(raw.error)) }];
        case 'complete':
          return [...before, { type: 'system', text: finished('goose', describeUsage({ totalTokens: raw.total_tokens })), raw }];
        default:
          return before;
      }
    },
    end: () => joiner.flush(),
  };
}

export const goose: Preset = {
  command: 'goose',
  args: ['run', '--output-format', 'stream-json', '--no-session', '-i', '-'],
  env: { GOOSE_MODE: 'auto' },
  parser,
};

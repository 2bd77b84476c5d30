// Claude Code: `claude -p --output-format stream-json --verbose`, one JSON object per line —
// system (init), assistant (text and tool_use blocks), user (tool_result blocks) and a final
// result with cost and token counts. Permissions are bypassed: a run never waits for a human.
import type { AgentEvent } from '../events';
import { type Preset, asRecord, blocks, contentText, describeUsage, finished, stateless, text } from './common';

function parse(raw: Record<string, unknown>): AgentEvent[] {
  switch (raw.type) {
    case 'system':
      return raw.subtype === 'init' ? [{ type: 'system', text: `Claude Code started (${text(raw.model) || 'model unknown'})`, raw }] : [];
    case 'assistant':
      return blocks(asRecord(raw.message).content).flatMap((block): AgentEvent[] => {
        if (block.type === 'text' && text(block.text)) return [{ type: 'assistant', text: text(block.text), raw }];
        if (block.type === 'tool_use') return [{ type: 'tool_call', name: text(block.name), input: block.input, raw }];
        return [];
      });
    case 'user':
      return blocks(asRecord(raw.message).content)
        .filter((block) => block.type === 'tool_result')
        .map((block): AgentEvent => ({ type: 'tool_result', output: contentText(block.content), isError: block.is_error === true, raw }));
    case 'result': {
      const usage = asRecord(raw.usage);
      const figures = describeUsage({ costUsd: raw.total_cost_usd, inputTokens: usage.input_tokens, outputTokens: usage.output_tokens, turns: raw.num_turns });
      const failed = raw.is_error === true || (typeof raw.subtype === 'string' && raw.subtype !== 'success');
      if (failed) return [{ type: 'system', text: `Claude Code failed (${text(raw.subtype) || 'error'}): ${text(raw.result)}${figures ? ` — ${figures}` : ''}`, raw }];
      return [{ type: 'system', text: finished('Claude Code', figures), raw }];
    }
    default:
      return [];
  }
}

export const claudeCode: Preset = {
  command: 'claude',
  args: ['-p', '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions'],
  parser: stateless(parse),
};

// OpenCode: `opencode run --format json`, the prompt on stdin, one JSON event per line —
// step_start, text (part.text, once the text part is complete), tool_use (part.tool with
// part.state {status, input, output, error}), step_finish (part.tokens and part.cost) and error.
// Every permission is granted through OPENCODE_PERMISSION, so a run never stops to ask.
import type { AgentEvent } from '../events';
import { type Preset, type StreamParser, asRecord, describeUsage, finished, text } from './common';

function parser(): StreamParser {
  // Each step (one model call) reports its own tokens and cost; the run's figures are their sum.
  const total = { input: 0, output: 0, cost: 0 };
  const add = (tokens: Record<string, unknown>, cost: unknown) => {
    if (typeof tokens.input === 'number') total.input += tokens.input;
    if (typeof tokens.output === 'number') total.output += tokens.output;
    if (typeof cost === 'number') total.cost += cost;
  };
  return { line: (raw) => parse(raw, add, total), end: () => [] };
}

function parse(raw: Record<string, unknown>, add: (tokens: Record<string, unknown>, cost: unknown) => void, total: { input: number; output: number; cost: number }): AgentEvent[] {
  const part = asRecord(raw.part);
  switch (raw.type) {
    case 'text':
      return text(part.text).trim() ? [{ type: 'assistant', text: text(part.text), raw }] : [];
    case 'tool_use': {
      const state = asRecord(part.state);
      const failed = state.status === 'error';
      return [
        { type: 'tool_call', name: text(part.tool), input: state.input, raw },
        { type: 'tool_result', output: failed ? text(state.error) : text(state.output), isError: failed, raw },
      ];
    }
    case 'step_finish': {
      add(asRecord(part.tokens), part.cost);
      // Steps that end in tool calls lead to another step; the last one ends the run.
      if (part.reason === 'tool-calls') return [];
      return [{ type: 'system', text: finished('OpenCode', describeUsage({ inputTokens: total.input, outputTokens: total.output, costUsd: total.cost })), raw }];
    }
    case 'error': {
      const error = asRecord(raw.error);
      return [{ type: 'system', text: `OpenCode error: ${text(asRecord(error.data).message) || text(error.message) || text(error.name)}`, raw }];
    }
    default:
      return [];
  }
}

export const opencode: Preset = {
  command: 'opencode',
  args: ['run', '--format', 'json'],
  env: { OPENCODE_PERMISSION: JSON.stringify({ edit: 'allow', bash: 'allow', webfetch: 'allow', external_directory: 'allow' }) },
  parser,
};

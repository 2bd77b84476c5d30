// Gemini CLI: `gemini --output-format stream-json --yolo`, the prompt on stdin, one JSON event per
// line — init (session, model), message (user or assistant; assistant text may come as deltas),
// tool_use (tool_name, tool_id, parameters), tool_result (tool_id, status, output or error),
// error (severity, message) and a final result (status, stats with token counts). --yolo approves
// every tool call; the workspace is trusted for the run so that Gemini does not fall back to asking.
import type { AgentEvent } from '../events';
import { type Preset, type StreamParser, asRecord, describeUsage, finished, text, textJoiner } from './common';

function parser(): StreamParser {
  const joiner = textJoiner();
  const line = (raw: Record<string, unknown>): AgentEvent[] => {
    switch (raw.type) {
      case 'init':
        return [{ type: 'system', text: `Gemini started (${text(raw.model) || 'model unknown'})`, raw }];
      case 'message':
        // The prompt comes back as a user message: the thread has it already.
        if (raw.role === 'assistant') joiner.add(text(raw.content), raw);
        return [];
      case 'tool_use':
        return [{ type: 'tool_call', name: text(raw.tool_name), input: raw.parameters, raw }];
      case 'tool_result': {
        const failed = raw.status === 'error';
        const output = failed ? text(asRecord(raw.error).message) || text(raw.output) : text(raw.output);
        return [{ type: 'tool_result', output, isError: failed, raw }];
      }
      case 'error':
        return [{ type: 'system', text: `Gemini ${text(raw.severity) || 'error'}: ${text(raw.message)}`, raw }];
      case 'result': {
        const stats = asRecord(raw.stats);
        const figures = describeUsage({ inputTokens: stats.input_tokens, outputTokens: stats.output_tokens, totalTokens: stats.total_tokens });
        if (raw.status === 'error') return [{ type: 'system', text: `Gemini failed: ${text(asRecord(raw.error).message) || 'unknown error'}`, raw }];
        return [{ type: 'system', text: finished('Gemini', figures), raw }];
      }
      default:
        return [];
    }
  };
  return {
    line: (raw) => (raw.type === 'message' && raw.role === 'assistant' ? line(raw) : [...joiner.flush(), ...line(raw)]),
    end: () => joiner.flush(),
  };
}

export const gemini: Preset = {
  command: 'gemini',
  args: ['--output-format', 'stream-json', '--yolo'],
  env: { GEMINI_CLI_TRUST_WORKSPACE: 'true' },
  parser,
};

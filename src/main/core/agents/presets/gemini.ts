// Gemini CLI: `gemini --output-format stream-json --yolo`, the prompt on stdin, one JSON event per
// line — init (session_id, the model asked for), message (user or assistant; assistant text comes
// as deltas), tool_use (tool_name, tool_id, parameters), tool_result (tool_id, status, output or
// error), error (severity warning or error; non-fatal) and a final result (status, stats with
// token counts per model). --yolo approves every tool call; the workspace is trusted for the run
// so that Gemini does not fall back to asking. `--resume <session_id>` continues a session.
import { hintOf } from '../error-class';
import type { AgentEvent } from '../events';
import { addStewardToInstanceSettings, geminiHomeWithSteward } from './gemini-home';
import { type Preset, type StreamParser, asRecord, describeUsage, text, textJoiner, usageEvent } from './common';

/** `auto`, `auto-gemini-3`, ...: the router picks the model per request, so the start says nothing yet. */
const routingAlias = /^auto(-|$)/;

/** The models that did the work, busiest first: the result names them by the version that answered. */
function modelsUsed(stats: Record<string, unknown>): string[] {
  return Object.entries(asRecord(stats.models))
    .map(([name, figures]) => ({ name, tokens: asRecord(figures).total_tokens }))
    .filter((model): model is { name: string; tokens: number } => typeof model.tokens === 'number' && model.tokens > 0)
    .sort((a, b) => b.tokens - a.tokens)
    .map((model) => model.name);
}

/** "[API Error: {"error":{"code":400,"message":"…","status":"…"}}]" as "API error 400 (INVALID_ARGUMENT): …". */
function readableFailure(message: string): string {
  const wrapped = /^\[API Error: ([\s\S]*)\]([\s\S]*)$/.exec(message);
  if (!wrapped) return message;
  const [, inner = '', after = ''] = wrapped;
  try {
    const error = asRecord(asRecord(JSON.parse(inner)).error);
    if (text(error.message)) {
      const code = typeof error.code === 'number' ? ` ${error.code}` : '';
      const status = text(error.status) ? ` (${text(error.status)})` : '';
      return `API error${code}${status}: ${text(error.message)}${after}`;
    }
  } catch {
    // not JSON: the message as it is
  }
  return `API error: ${inner}${after}`;
}

function parser(): StreamParser {
  const joiner = textJoiner();
  const toolNames = new Map<string, string>();
  // A failed result does not always say why (an invalid stream): the error event before it did.
  let lastError = '';
  const line = (raw: Record<string, unknown>): AgentEvent[] => {
    switch (raw.type) {
      case 'init': {
        const model = text(raw.model);
        const started: AgentEvent = { type: 'system', text: model && !routingAlias.test(model) ? `Gemini started (${model})` : 'Gemini started', raw };
        return text(raw.session_id) ? [{ type: 'session', id: text(raw.session_id), raw }, started] : [started];
      }
      case 'message':
        // The prompt comes back as a user message: the thread has it already.
        if (raw.role === 'assistant') joiner.add(text(raw.content), raw);
        return [];
      case 'tool_use':
        toolNames.set(text(raw.tool_id), text(raw.tool_name));
        return [{ type: 'tool_call', name: text(raw.tool_name), input: raw.parameters, raw }];
      case 'tool_result': {
        const name = toolNames.get(text(raw.tool_id)) || 'tool';
        const failed = raw.status === 'error';
        // write_file and replace report a diff for the screen and no output text.
        const output = failed ? text(asRecord(raw.error).message) || text(raw.output) || `${name} failed` : text(raw.output) || `${name} succeeded (no output)`;
        return [{ type: 'tool_result', output, isError: failed, raw }];
      }
      case 'error': {
        const warning = raw.severity === 'warning';
        if (!warning) lastError = text(raw.message);
        return [{ type: 'system', text: `Gemini ${warning ? 'warning' : 'error'}: ${text(raw.message)}`, raw }];
      }
      case 'result': {
        const stats = asRecord(raw.stats);
        const usage = usageEvent({ inputTokens: stats.input_tokens, outputTokens: stats.output_tokens }, raw);
        if (raw.status === 'error') {
          const why = readableFailure(text(asRecord(raw.error).message)) || lastError || 'unknown error';
          return [...usage, { type: 'system', text: `Gemini failed: ${why}`, raw, failed: true, ...hintOf(why) }];
        }
        const models = modelsUsed(stats);
        const figures = describeUsage({ inputTokens: stats.input_tokens, outputTokens: stats.output_tokens, totalTokens: stats.total_tokens });
        return [...usage, { type: 'system', text: `Gemini finished${models.length ? ` (${models.join(', ')})` : ''}${figures ? ` — ${figures}` : ''}`, raw }];
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
  // Gemini 0.61 takes a session's UUID, "latest" or an index; the UUID is the one that cannot drift.
  resume: (args, sessionId) => [...args, '--resume', sessionId],
  // Steward's server added to the settings Gemini reads (gemini-home.ts): in a sandbox, the
  // instance's own, for the run; outside, in a home of the run's own beside the user's. `trust`
  // skips confirmations as --yolo does.
  withSteward(args, server, env, stateHome) {
    if (stateHome !== undefined) {
      addStewardToInstanceSettings(server, stateHome);
      return { args, env: {} };
    }
    const home = geminiHomeWithSteward(server, env);
    const given: Record<string, string> = home === undefined ? {} : { GEMINI_CLI_HOME: home };
    return { args, env: given };
  },
};

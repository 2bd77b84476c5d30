// OpenCode: `opencode run --format json`, the prompt on stdin, one JSON event per line, each with
// the session's `sessionID`: step_start; text and, with --thinking, reasoning (once the part is
// complete); tool_use (part.tool, part.state {status, input, output, error}; 1.18 prints it only
// once the tool has completed or failed); step_finish (part.reason, part.tokens, part.cost: one
// model call each); error ({error: {name, data: {message}}}, and the CLI exits 1).
// `--auto` approves whatever would ask: unapproved, `run` rejects the tool call and stops the
// session, yet exits 0. `--session <id>` continues a session.
import { hintOf } from '../error-class';
import { bearer, stewardServerName } from '../steward-server';
import type { AgentEvent } from '../events';
import { type Preset, type StreamParser, asRecord, describeUsage, finished, parseObject, text, usageEvent } from './common';

/** Why a step ended, when the reason means the reply was cut short. */
const cutShort: Record<string, string> = {
  length: "the model's reply hit its output token limit",
  'content-filter': "the provider's content filter stopped the reply",
};

function parser(): StreamParser {
  const total = { input: 0, output: 0, cost: 0, steps: 0 };
  const called = new Set<string>();
  let session: string | undefined;
  let ended = false;

  const figures = () => describeUsage({ inputTokens: total.input, outputTokens: total.output, costUsd: total.cost > 0 ? total.cost : undefined });
  const withFigures = (line: string) => (total.steps > 0 ? `${line} — ${figures()}` : line);

  function tool(part: Record<string, unknown>, raw: Record<string, unknown>): AgentEvent[] {
    const state = asRecord(part.state);
    const id = text(part.callID) || text(part.id);
    const events: AgentEvent[] = [];
    // A tool shows when it starts if the stream says so, and its result follows without repeating it.
    if (!called.has(id)) events.push({ type: 'tool_call', name: text(part.tool), input: state.input, raw });
    called.add(id);
    // bash completes whatever its command's exit code; a non-zero one is an error all the same.
    const exit = asRecord(state.metadata).exit;
    if (state.status === 'completed') events.push({ type: 'tool_result', output: text(state.output), isError: typeof exit === 'number' && exit !== 0, raw });
    if (state.status === 'error') events.push({ type: 'tool_result', output: text(state.error), isError: true, raw });
    return events;
  }

  function stepFinished(part: Record<string, unknown>, raw: Record<string, unknown>): AgentEvent[] {
    const tokens = asRecord(part.tokens);
    if (typeof tokens.input === 'number') total.input += tokens.input;
    if (typeof tokens.output === 'number') total.output += tokens.output;
    if (typeof part.cost === 'number') total.cost += part.cost;
    total.steps += 1;
    const usage = usageEvent({ inputTokens: total.input, outputTokens: total.output, costUsd: total.cost > 0 ? total.cost : undefined }, raw);
    // A step that ends in tool calls leads to another; any other reason ends the run.
    if (part.reason === 'tool-calls') return usage;
    ended = true;
    const reason = cutShort[text(part.reason)];
    return [...usage, { type: 'system', text: reason ? withFigures(`OpenCode stopped: ${reason}`) : finished('OpenCode', figures()), raw }];
  }

  function line(raw: Record<string, unknown>): AgentEvent[] {
    const events: AgentEvent[] = [];
    if (session === undefined && text(raw.sessionID)) {
      session = text(raw.sessionID);
      events.push({ type: 'session', id: session, raw });
    }
    const part = asRecord(raw.part);
    switch (raw.type) {
      case 'text':
        if (text(part.text).trim()) events.push({ type: 'assistant', text: text(part.text), raw });
        break;
      case 'reasoning':
        if (text(part.text).trim()) events.push({ type: 'system', text: `OpenCode reasoning: ${text(part.text)}`, raw });
        break;
      case 'tool_use':
        events.push(...tool(part, raw));
        break;
      case 'step_finish':
        events.push(...stepFinished(part, raw));
        break;
      case 'error': {
        ended = true;
        const why = errorMessage(asRecord(raw.error));
        events.push({ type: 'system', text: withFigures(`OpenCode failed: ${why}`), raw, failed: true, ...hintOf(why) });
        break;
      }
    }
    return events;
  }

  return {
    line,
    // Cancelled, killed, or stopped by a rejected tool call: no last step, so the figures are told here.
    end: () => (ended || total.steps === 0 ? [] : [{ type: 'system', text: `OpenCode stopped before the model finished — ${figures()}`, raw: { total } }]),
  };
}

/** "scripted 400 (APIError, HTTP 400)" from OpenCode's named errors. */
function errorMessage(error: Record<string, unknown>): string {
  const data = asRecord(error.data);
  const message = text(data.message) || text(error.message) || JSON.stringify(error);
  const details = [text(error.name), typeof data.statusCode === 'number' ? `HTTP ${data.statusCode}` : ''].filter(Boolean);
  return details.length > 0 ? `${message} (${details.join(', ')})` : message;
}

export const opencode: Preset = {
  command: 'opencode',
  // --title without a value names the session after the prompt, which spares a model call to
  // write a title; a flag follows it, so that it never takes the config's first argument as value.
  args: ['run', '--format', 'json', '--title', '--auto'],
  // For releases without --auto: edits, shell, web fetches and folders outside the workspace allowed.
  env: { OPENCODE_PERMISSION: JSON.stringify({ edit: 'allow', bash: 'allow', webfetch: 'allow', external_directory: 'allow' }) },
  parser,
  resume: (args, sessionId) => [...args, '--session', sessionId],
  // OPENCODE_CONFIG_CONTENT is merged over the user's and the project's config files; one the user
  // set already keeps its content, with the server added.
  withSteward(args, server, env) {
    const own = parseObject(env.OPENCODE_CONFIG_CONTENT);
    const mcp = { ...asRecord(own.mcp), [stewardServerName]: { type: 'remote', url: server.url, headers: bearer(server), enabled: true } };
    return { args, env: { OPENCODE_CONFIG_CONTENT: JSON.stringify({ ...own, mcp }) } };
  },
};

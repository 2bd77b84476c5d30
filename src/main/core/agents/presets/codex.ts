// Codex: `codex exec --json`, one JSON event per line — thread.started (the session), turn.started,
// turn.completed (token usage), turn.failed, error, and item.started/updated/completed for the items
// agent_message, reasoning, command_execution, file_change, mcp_tool_call, collab_tool_call,
// web_search, todo_list, plan and error (a non-fatal warning). Approvals and the sandbox are off
// (full tool access, unattended); the workspace need not be a git repository. A later run of the
// thread resumes the session: `codex exec [flags] resume <thread_id> -`.
import { hintOf } from '../error-class';
import { stewardServerName } from '../steward-server';
import type { AgentEvent } from '../events';
import { type Preset, type StreamParser, asRecord, blocks, contentText, describeUsage, finished, text, usageEvent } from './common';

type Raw = Record<string, unknown>;

/** Codex quotes a provider's refusal as its JSON body; the message inside reads better. */
function readable(message: unknown): string {
  const said = text(message);
  try {
    const inner = text(asRecord(asRecord(JSON.parse(said)).error).message);
    return inner || said;
  } catch {
    return said;
  }
}

const system = (line: string, raw: unknown): AgentEvent => ({ type: 'system', text: line, raw });
/** A failure, with the class its message names ("429 Too Many Requests", "You’ve hit your usage limit … try again at …"). */
const failure = (line: string, raw: unknown): AgentEvent => ({ type: 'system', text: line, raw, failed: true, ...hintOf(line) });

/** The call of an item that is a tool call: shown when it starts, so a long one shows while it runs. */
function callOf(item: Raw, raw: Raw): AgentEvent | undefined {
  switch (item.type) {
    case 'command_execution':
      return { type: 'tool_call', name: 'shell', input: { command: item.command }, raw };
    case 'file_change':
      return { type: 'tool_call', name: 'apply_patch', input: { changes: item.changes }, raw };
    case 'mcp_tool_call':
      return { type: 'tool_call', name: `${text(item.server)}.${text(item.tool)}`, input: item.arguments, raw };
    case 'collab_tool_call':
      return { type: 'tool_call', name: `agents.${text(item.tool)}`, input: { prompt: item.prompt, agents: item.receiver_thread_ids }, raw };
    case 'web_search':
      return text(item.query) ? { type: 'tool_call', name: 'web_search', input: { query: item.query }, raw } : undefined;
    default:
      return undefined;
  }
}

/** What a finished tool item gave back, if anything. */
function resultOf(item: Raw, raw: Raw): AgentEvent | undefined {
  const failed = item.status === 'failed' || item.status === 'declined';
  switch (item.type) {
    case 'command_execution':
      return { type: 'tool_result', output: text(item.aggregated_output), isError: failed || (typeof item.exit_code === 'number' && item.exit_code !== 0), raw };
    case 'file_change': {
      const changes = blocks(item.changes).map((change) => `${text(change.kind)} ${text(change.path)}`);
      return { type: 'tool_result', output: `${failed ? 'patch failed: ' : ''}${changes.join('\n')}`, isError: failed, raw };
    }
    case 'mcp_tool_call': {
      const error = text(asRecord(item.error).message);
      const result = asRecord(item.result);
      const output = error || contentText(result.content) || (result.structured_content == null ? '' : JSON.stringify(result.structured_content));
      return { type: 'tool_result', output, isError: failed || error !== '', raw };
    }
    case 'collab_tool_call': {
      const states = Object.entries(asRecord(item.agents_states)).map(([id, state]) => `${id}: ${text(asRecord(state).status)} ${text(asRecord(state).message)}`.trim());
      return { type: 'tool_result', output: states.join('\n') || text(item.status), isError: failed, raw };
    }
    default:
      return undefined;
  }
}

/** "Codex plan:" and the to-do list, one step a line. */
const planOf = (item: Raw): string =>
  ['Codex plan:', ...blocks(item.items).map((step) => `[${step.completed === true ? 'x' : ' '}] ${text(step.text)}`)].join('\n');

function questionsOf(raw: Raw): string {
  return blocks(raw.questions)
    .map((question) => text(question.question) || text(question.header))
    .filter(Boolean)
    .join(' / ');
}

function parser(): StreamParser {
  /** Items whose call was shown at item.started: their completion gives only the result. */
  const started = new Set<string>();
  let shownPlan = '';
  const spent = { inputTokens: 0, outputTokens: 0 };
  /**
   * A top-level `error` is fatal when turn.failed follows it, and a notice the run survives
   * otherwise; which one it was shows only with the next line, so it waits for that line.
   */
  let heldError: { message: string; raw: Raw } | undefined;

  function plan(item: Raw, raw: Raw): AgentEvent[] {
    const now = planOf(item);
    if (now === shownPlan) return [];
    shownPlan = now;
    return [system(now, raw)];
  }

  function itemStarted(item: Raw, raw: Raw): AgentEvent[] {
    if (item.type === 'todo_list') return plan(item, raw);
    const call = callOf(item, raw);
    if (!call) return [];
    started.add(text(item.id));
    return [call];
  }

  function itemCompleted(item: Raw, raw: Raw): AgentEvent[] {
    switch (item.type) {
      case 'agent_message':
      case 'plan':
        return text(item.text).trim() ? [{ type: 'assistant', text: text(item.text), raw }] : [];
      case 'reasoning':
        return text(item.text).trim() ? [system(`Codex reasoning: ${text(item.text)}`, raw)] : [];
      case 'todo_list':
        return plan(item, raw);
      case 'error':
        return [system(`Codex warning: ${readable(item.message)}`, raw)];
    }
    const call = started.delete(text(item.id)) ? undefined : callOf(item, raw);
    const result = resultOf(item, raw);
    return [call, result].filter((event): event is AgentEvent => event !== undefined);
  }

  function parse(raw: Raw): AgentEvent[] {
    switch (raw.type) {
      case 'thread.started':
        return [{ type: 'session', id: text(raw.thread_id), raw }, system(`Codex started (thread ${text(raw.thread_id)})`, raw)];
      case 'item.started':
        return itemStarted(asRecord(raw.item), raw);
      case 'item.updated':
        return asRecord(raw.item).type === 'todo_list' ? plan(asRecord(raw.item), raw) : [];
      case 'item.completed':
        return itemCompleted(asRecord(raw.item), raw);
      case 'request_user_input':
        return [system(`Codex asked, and no one can answer in a run: ${questionsOf(raw)}`, raw)];
      case 'turn.completed': {
        const usage = asRecord(raw.usage);
        // Each turn's usage is its own: the run's totals add them up.
        if (typeof usage.input_tokens === 'number') spent.inputTokens += usage.input_tokens;
        if (typeof usage.output_tokens === 'number') spent.outputTokens += usage.output_tokens;
        return [...usageEvent(spent, raw), system(finished('Codex', describeUsage({ inputTokens: usage.input_tokens, outputTokens: usage.output_tokens })), raw)];
      }
      case 'turn.failed':
        return [failure(`Codex failed: ${readable(asRecord(raw.error).message)}`, raw)];
      default:
        return [];
    }
  }

  /** What the held error turned out to be, now that `next` shows it (undefined: the stream ended). */
  function settle(next: Raw | undefined): AgentEvent[] {
    if (!heldError) return [];
    const { message, raw } = heldError;
    heldError = undefined;
    if (next === undefined) return [failure(`Codex failed: ${message}`, raw)];
    if (next.type !== 'turn.failed') return [system(`Codex warning: ${message}`, raw)];
    return readable(asRecord(next.error).message) === message ? [] : [system(`Codex error: ${message}`, raw)];
  }

  return {
    line(raw) {
      const before = settle(raw);
      if (raw.type !== 'error') return [...before, ...parse(raw)];
      const message = readable(raw.message);
      // Retries announce themselves ("Reconnecting... 1/5 (…)"): a notice, shown at once.
      if (/^Reconnecting\b/.test(message)) return [...before, system(`Codex warning: ${message}`, raw)];
      heldError = { message, raw };
      return before;
    },
    end: () => settle(undefined),
  };
}

export const codex: Preset = {
  command: 'codex',
  args: ['exec', '--json', '--dangerously-bypass-approvals-and-sandbox', '--skip-git-repo-check', '-'],
  parser,
  // `resume` is a subcommand of exec: the flags (the preset's and the config's) stay before it, and
  // the prompt (`-`: stdin) moves after the session id.
  resume(args, sessionId) {
    const prompt = args.indexOf('-');
    return [...args.filter((_, index) => index !== prompt), 'resume', sessionId, '-'];
  },
  // Config overrides (-c) of exec, nothing written to CODEX_HOME; Codex takes the bearer token only
  // from an environment variable, STEWARD_API_KEY (set for every run with Steward's tools).
  withSteward(args, server) {
    const table = `mcp_servers.${stewardServerName}`;
    const overrides = ['-c', `${table}.url=${JSON.stringify(server.url)}`, '-c', `${table}.bearer_token_env_var="STEWARD_API_KEY"`];
    return { args: [args[0], ...overrides, ...args.slice(1)], env: {} };
  },
};

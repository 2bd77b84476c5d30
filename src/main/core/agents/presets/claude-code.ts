// Claude Code: `claude -p --output-format stream-json --verbose`, one JSON object per line —
// system lines (init names the session; api_retry, compaction, fallbacks, background tasks, ...),
// assistant (thinking, text and tool_use blocks, one block a line; a failed API call comes as a
// synthetic assistant message with `error`), user (tool_result blocks) and a result per turn with
// cost and token counts. Permissions are bypassed: a run never waits for a human. A thread goes on
// in the same session with `--resume <session_id>`. Checked against the real CLI 2.1.330
// (test/agents/claude-code.test.ts).
import { type ErrorHint, classOfStatus, hintOf } from '../error-class';
import type { AgentEvent } from '../events';
import { bearer, stewardServerName, writePrivateFile } from '../steward-server';
import { type Preset, type StreamParser, asRecord, blocks, contentText, describeUsage, finished, text, usageEvent } from './common';

const name = 'Claude Code';

const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const count = (value: number) => value.toLocaleString('en-US');

/** api_retry's error categories, in words. */
const retryReasons: Record<string, string> = {
  overloaded: 'the API is overloaded',
  rate_limit: 'rate limited',
  server_error: 'server error',
  authentication_failed: 'authentication failed',
};

/** "Claude Code is retrying (attempt 1/10 in 0.6 s): the API is overloaded (HTTP 529)". */
function retryLine(raw: Record<string, unknown>): string {
  const status = num(raw.error_status);
  const noResponse = asRecord(raw.no_response);
  const category = text(raw.error);
  const waited = num(noResponse.waited_ms);
  const reason =
    waited !== undefined
      ? `no response within ${waited / 1000} s`
      : status === undefined && (category === '' || category === 'unknown')
        ? 'could not connect'
        : (retryReasons[category] ?? (category.replaceAll('_', ' ') || 'API error'));
  const delay = num(raw.retry_delay_ms);
  const attempt = [num(raw.attempt), num(raw.max_retries)].filter((part) => part !== undefined).join('/');
  const when = [attempt && `attempt ${attempt}`, delay ? `in ${(delay / 1000).toFixed(1)} s` : ''].filter(Boolean).join(' ');
  return `${name} is retrying${when ? ` (${when})` : ''}: ${reason}${status === undefined ? '' : ` (HTTP ${status})`}`;
}

const resetOf = (info: Record<string, unknown>): string | undefined => {
  const resets = num(info.resetsAt);
  return resets === undefined ? undefined : new Date(resets * 1000).toISOString();
};

/**
 * Why an API call failed, from what Claude Code puts on api_retry lines and on its synthetic
 * error message: the HTTP status, its own category, a usage limit with its reset time.
 */
function apiErrorHint(raw: Record<string, unknown>): ErrorHint | undefined {
  const limit = asRecord(asRecord(raw.api_error_params).rate_limit_info);
  if (raw.api_error === 'usage_limit_reached' || limit.status === 'rejected') return { errorClass: 'usage_limit', resetsAt: resetOf(limit) };
  const byStatus = classOfStatus(num(raw.api_error_status) ?? num(raw.error_status));
  if (byStatus) return { errorClass: byStatus };
  if (raw.error === 'authentication_failed') return { errorClass: 'auth' };
  if (raw.no_response !== undefined) return { errorClass: 'timeout' };
  if (raw.api_error === 'connection_failed' || raw.error === 'unknown') return { errorClass: 'network' };
  return undefined;
}

function compactLine(raw: Record<string, unknown>): string {
  const metadata = asRecord(raw.compact_metadata);
  const before = num(metadata.pre_tokens);
  const after = num(metadata.post_tokens);
  const sizes = before === undefined ? '' : after === undefined ? `, ${count(before)} tokens before` : `, ${count(before)} → ${count(after)} tokens`;
  return `${name} compacted the conversation (${text(metadata.trigger) || 'auto'}${sizes})`;
}

function rateLimitLine(raw: Record<string, unknown>): string | undefined {
  const info = asRecord(raw.rate_limit_info);
  const window = text(info.rateLimitType).replaceAll('_', ' ');
  const resets = resetOf(info);
  const until = resets === undefined ? '' : ` until ${resets}`;
  const used = num(info.utilization);
  if (info.status === 'rejected') return `${name} hit its usage limit${window ? ` (${window})` : ''}${until}`;
  if (info.status === 'allowed_warning') return `${name} is near its usage limit${window ? ` (${window})` : ''}${used === undefined ? '' : `: ${Math.round(used * 100)}% used`}`;
  return undefined;
}

/** The cost of this run alone: on a resumed session `total_cost_usd` counts the whole session so far. */
function runCost(raw: Record<string, unknown>): unknown {
  const sinceLast = raw.model_usage_since_last_result;
  if (sinceLast === undefined || sinceLast === null) return raw.total_cost_usd;
  return Object.values(asRecord(sinceLast)).reduce<number>((sum, model) => sum + (num(asRecord(model).costUSD) ?? 0), 0);
}

/** What one result line counts: this run's cost, and all the input the model read (the API counts cached input apart). */
function usageOf(raw: Record<string, unknown>): { costUsd: unknown; inputTokens: number | undefined; outputTokens: number | undefined } {
  const usage = asRecord(raw.usage);
  const input = num(usage.input_tokens);
  const inputTokens = input === undefined ? undefined : input + (num(usage.cache_creation_input_tokens) ?? 0) + (num(usage.cache_read_input_tokens) ?? 0);
  return { costUsd: runCost(raw), inputTokens, outputTokens: num(usage.output_tokens) };
}

const figuresOf = (raw: Record<string, unknown>): string => describeUsage({ ...usageOf(raw), turns: raw.num_turns });

function parser(): StreamParser {
  let session: string | undefined;
  let started = false;
  /** The API error last shown, so that the result that repeats it does not say it twice. */
  let shownError: string | undefined;
  /** The run's totals over its result lines (a background task's notice starts another turn, with a result of its own). */
  const spent = { costUsd: undefined as number | undefined, inputTokens: undefined as number | undefined, outputTokens: undefined as number | undefined };
  const tasks = new Map<string, { description: string; background: boolean }>();
  const system = (line: string | undefined, raw: unknown, hint?: ErrorHint): AgentEvent[] => (line ? [{ type: 'system', text: line, raw, ...hint }] : []);

  function systemLine(raw: Record<string, unknown>): AgentEvent[] {
    switch (raw.subtype) {
      case 'init': {
        // A process says init again after a compaction or a background task's notice: same session.
        const id = text(raw.session_id);
        const events: AgentEvent[] = id && id !== session ? [{ type: 'session', id, raw }] : [];
        session = id || session;
        if (!started) events.push({ type: 'system', text: `${name} started (${text(raw.model) || 'model unknown'})`, raw });
        started = true;
        return events;
      }
      case 'api_retry':
        return system(retryLine(raw), raw, apiErrorHint(raw));
      case 'compact_boundary':
        return system(compactLine(raw), raw);
      case 'status':
        if (raw.status === 'compacting') return system(`${name} is compacting the conversation`, raw);
        return system(raw.compact_result === 'failed' ? `${name} could not compact the conversation: ${text(raw.compact_error) || 'no reason given'}` : undefined, raw);
      case 'model_fallback':
        return system(`${name} switched from ${text(raw.original_model)} to ${text(raw.fallback_model)} (${text(raw.trigger).replaceAll('_', ' ')})`, raw);
      case 'model_refusal_no_fallback':
      case 'local_command_output':
        return system(text(raw.content) && `${name}: ${text(raw.content)}`, raw);
      case 'notification':
        return system(text(raw.text) && `${name}: ${text(raw.text)}`, raw);
      case 'informational':
        return system(raw.level === 'warning' && text(raw.content) ? `${name} warning: ${text(raw.content)}` : undefined, raw);
      case 'permission_denied':
        return system(`${name} was not allowed to use ${text(raw.tool_name) || 'a tool'}`, raw);
      case 'session_writes_lost':
        return system(`${name} could not save its session (${text(raw.error_code) || 'write failed'}): a later run of this thread may miss part of it`, raw);
      default:
        return taskLine(raw);
    }
  }

  /** Background work (a command or an agent left running) is news; a foreground task is its tool call. */
  function taskLine(raw: Record<string, unknown>): AgentEvent[] {
    const id = text(raw.task_id);
    const task = tasks.get(id);
    switch (raw.subtype) {
      case 'task_started':
        tasks.set(id, { description: text(raw.description), background: raw.is_backgrounded === true });
        return system(raw.is_backgrounded === true ? `${name} started a background task: ${text(raw.description)}` : undefined, raw);
      case 'task_updated':
        if (asRecord(raw.patch).is_backgrounded !== true || !task || task.background) return [];
        task.background = true;
        return system(`${name} moved a task to the background: ${task.description}`, raw);
      case 'task_notification':
        if (!task?.background) return [];
        return system(`${name} background task ${text(raw.status)}: ${text(raw.summary) || task.description}`, raw);
      default:
        return [];
    }
  }

  function assistant(raw: Record<string, unknown>): AgentEvent[] {
    const content = blocks(asRecord(raw.message).content);
    if (raw.error !== undefined || raw.is_api_error_message === true) {
      // A failed API call, written by the CLI as the model's answer: it is no answer.
      shownError = content.map((block) => text(block.text)).join('\n') || text(raw.error);
      return system(`${name}: ${shownError}`, raw, apiErrorHint(raw) ?? hintOf(shownError));
    }
    return content.flatMap((block): AgentEvent[] => {
      if (block.type === 'thinking' && text(block.thinking).trim()) return [{ type: 'system', text: `${name} thinking: ${text(block.thinking)}`, raw }];
      if (block.type === 'text' && text(block.text)) return [{ type: 'assistant', text: text(block.text), raw }];
      if (block.type === 'tool_use') return [{ type: 'tool_call', name: text(block.name), input: block.input, raw }];
      return [];
    });
  }

  /** The run's totals with this result's figures added: a usage event. */
  function usage(raw: Record<string, unknown>): AgentEvent[] {
    const add = (sum: number | undefined, value: unknown) => (num(value) === undefined ? sum : (sum ?? 0) + num(value)!);
    const figures = usageOf(raw);
    // Without model_usage_since_last_result, total_cost_usd already counts the earlier results.
    const sinceLast = raw.model_usage_since_last_result !== undefined && raw.model_usage_since_last_result !== null;
    spent.costUsd = sinceLast ? add(spent.costUsd, figures.costUsd) : (num(figures.costUsd) ?? spent.costUsd);
    spent.inputTokens = add(spent.inputTokens, figures.inputTokens);
    spent.outputTokens = add(spent.outputTokens, figures.outputTokens);
    return usageEvent(spent, raw);
  }

  function result(raw: Record<string, unknown>): AgentEvent[] {
    return [...usage(raw), ...resultLine(raw)];
  }

  function resultLine(raw: Record<string, unknown>): AgentEvent[] {
    const figures = figuresOf(raw);
    const failed = raw.is_error === true || (typeof raw.subtype === 'string' && raw.subtype !== 'success');
    if (!failed) return system(finished(name, figures), raw);
    const errors = Array.isArray(raw.errors) ? raw.errors.filter((error): error is string => typeof error === 'string') : [];
    const reason = errors.join('; ') || text(raw.result) || text(raw.subtype);
    const said = reason && reason !== shownError ? `: ${reason}` : '';
    return system(`${name} failed${said}${figures ? ` — ${figures}` : ''}`, raw, said ? hintOf(reason) : undefined);
  }

  return {
    line(raw) {
      switch (raw.type) {
        case 'system':
          return systemLine(raw);
        case 'rate_limit_event': {
          const info = asRecord(raw.rate_limit_info);
          return system(rateLimitLine(raw), raw, info.status === 'rejected' ? { errorClass: 'usage_limit', resetsAt: resetOf(info) } : undefined);
        }
        case 'assistant':
          return assistant(raw);
        case 'user':
          return blocks(asRecord(raw.message).content)
            .filter((block) => block.type === 'tool_result')
            .map((block): AgentEvent => ({ type: 'tool_result', output: contentText(block.content), isError: block.is_error === true, raw }));
        case 'result':
          return result(raw);
        default:
          return [];
      }
    },
    end: () => [],
  };
}

export const claudeCode: Preset = {
  command: 'claude',
  args: ['-p', '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions'],
  parser,
  // The session is stored under the config folder by the workspace's path: the same instance resumes it.
  resume: (args, sessionId) => [...args, '--resume', sessionId],
  // The CLI stops itself once past it, with a result of subtype error_max_budget_usd (print mode only, which a run is).
  withBudget: (args, usd) => [...args, '--max-budget-usd', String(usd)],
  // Its own allow rules still apply first; what they do not allow is asked through Steward's tool.
  asking: (args) => [...args.filter((arg) => arg !== '--dangerously-skip-permissions'), '--permission-prompt-tool', `mcp__${stewardServerName}__approval_prompt`],
  // --mcp-config takes several files: it goes right after -p, so that a flag ends its list. The
  // user's own MCP servers stay (no --strict-mcp-config); Steward's tools are mcp__steward__*.
  withSteward(args, server) {
    const config = { mcpServers: { [stewardServerName]: { type: 'http', url: server.url, headers: bearer(server) } } };
    const file = writePrivateFile(server, 'claude-mcp.json', JSON.stringify(config));
    return { args: [args[0], '--mcp-config', file, ...args.slice(1)], env: {} };
  },
};

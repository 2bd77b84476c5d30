// What an agent says and does, as the runner records it: each event becomes a thread message and
// an activity line. Providers translate their own output into these.
import type { ErrorClass } from '../../../shared/contract';
import type { SandboxRun } from '../sandbox/sandbox-run';
import type { ErrorHint } from './error-class';
import type { StewardServer } from './steward-server';

export type AgentEvent =
  /** `streamed`: its activity lines were written as it arrived (assistant_chunk); only the message is left. */
  | { type: 'assistant'; text: string; raw: unknown; streamed?: boolean }
  /** Text still arriving: an activity line now, the whole message later. */
  | { type: 'assistant_chunk'; text: string; raw: unknown }
  | { type: 'tool_call'; name: string; input: unknown; raw: unknown }
  | { type: 'tool_result'; output: string; isError: boolean; raw: unknown }
  /**
   * `failed`: the CLI's stream says the run failed, whatever its exit code (some exit 0 anyway).
   * `errorClass` (and `resetsAt`, ISO 8601): why, where the stream says it; should the run fail,
   * the last of these hints is its error class.
   */
  | { type: 'system'; text: string; raw: unknown; failed?: boolean; errorClass?: ErrorClass | undefined; resetsAt?: string | undefined }
  /** The CLI's own session id (Claude Code `session_id`, Codex `thread_id`, ...): a later run of the thread resumes it. */
  | { type: 'session'; id: string; raw: unknown }
  /** What the run has used so far, as its stream reports it (totals, not increments): no line of its own. */
  | { type: 'usage'; costUsd?: number; inputTokens?: number; outputTokens?: number; raw: unknown };

export interface AgentExit {
  /** null when the process was ended by a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The last of what it wrote to stderr. */
  stderr: string;
  /** The question it was stopped on, when it waited for an answer no one can give. */
  waitedForInput?: string | undefined;
  /** Why it failed, in its own words (the built-in agent). */
  failure?: string | undefined;
  /** The part of `failure` its stream already showed as a line of the run: the run's last line need not say it again. */
  failureShown?: string | undefined;
  /** Why it failed, where its stream or its own error said so (the last hint its stream gave). */
  hint?: ErrorHint | undefined;
}

export interface AgentProcess {
  exited: Promise<AgentExit>;
  /** Ends the agent and everything it started. */
  kill(): void;
}

/** What an agent asks leave to do (an ACP agent's session/request_permission), as a person would be shown it. */
export interface PermissionRequest {
  title: string;
  /** read, edit, delete, move, search, execute, think, fetch, other */
  kind: string;
  /** The command, the files and their diffs, the input. */
  detail: string;
  /** `kind`: allow_once, allow_always, reject_once, reject_always. */
  options: { id: string; name: string; kind: string }[];
}

/**
 * What the runner still has to commit of what agents said. While it is full a provider stops
 * reading its agent's output (the agent then blocks on its pipe) and reads on once there is room:
 * an agent goes no faster than Steward durably records it.
 */
export interface Backlog {
  full(): boolean;
  /** Resolves once there is room again. */
  room(): Promise<void>;
}

export type PermissionAnswer = { optionId: string } | { cancelled: true };

export interface AgentLaunch {
  prompt: string;
  workspaceDir: string;
  env: Record<string, string>;
  /** Names of Steward's own variables the instance passes on to its agent (`sandbox.envAllow`); none when absent. */
  envAllow?: readonly string[] | undefined;
  /** The agent's session to resume (a CLI's own session id), when the run continues a conversation. */
  resumeSession?: string | undefined;
  /** The thread's earlier turns, for an agent that has no sessions of its own (the built-in agent), oldest first. */
  history?: { role: 'user' | 'assistant'; content: string }[];
  /** Steward's MCP server for this run, when the agent gets Steward's tools (CLI agents). */
  steward?: StewardServer | undefined;
  /** The run's sandbox: every process of the run starts inside it. Absent: they run as the user. */
  sandbox?: SandboxRun | undefined;
  /** The run's budget in US dollars, for a CLI that can cap its own spend (Claude Code's --max-budget-usd). */
  maxBudgetUsd?: number | undefined;
  /** ask: the agent asks Steward before it acts (each agent through its own mechanism); bypass or absent: it acts. */
  permissions?: 'ask' | 'bypass';
  /** How long output may hang on a question before the agent is stopped (default 10 s). */
  inputWaitMs?: number;
  /**
   * Asks whoever decides for the run (a person, through an approval); aborted when the run ends.
   * Absent: the agent's request is allowed at once (allow_once before allow_always), and a run never waits.
   */
  requestPermission?: ((request: PermissionRequest, signal: AbortSignal) => Promise<PermissionAnswer>) | undefined;
  onEvent(event: AgentEvent): void;
  /** Absent: the output is read as fast as it comes. */
  backlog?: Backlog | undefined;
}

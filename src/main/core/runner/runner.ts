// The runner: takes queued runs from SQLite and runs each on its instance's agent. At most one
// run per instance and `maxRunning` in all; a timeout per run; cancel ends the agent's whole
// process tree. What the agent says is recorded as thread messages and activity lines; runs found
// running at start were interrupted (and an automation's is queued once more). What a run holds is
// released, in reverse, before its end is written (run-scope.ts): a run seen ended holds nothing.
import fs from 'node:fs';
import path from 'node:path';
import type { Instance, Message, Run, RunStatus } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import { oneLine } from '../../../shared/format';
import { AgentUnavailable, startCommandAgent } from '../agents/command-agent';
import { startOpenAiAgent } from '../agents/openai-agent';
import { startAcpAgent } from '../agents/acp-agent';
import { sweepMarked } from '../agents/process-tree';
import { classifyFailure } from '../agents/error-class';
import { afterRun } from '../services/after-run';
import { createConversations, sessionKindOf } from './conversations';
import { labelOf } from '../services/run-label';
import { createRunSandboxes, denialLine } from '../sandbox/run-sandbox';
import { type RunRefusals, createRefusalNotices } from './refusal-notices';
import { footprintName } from '../sandbox/agent-footprint';
import { type RunKeys, createStewardGrants } from './steward-grants';
import type { SandboxRun } from '../sandbox/sandbox-run';
import type { Caller } from '../caller';
import { type RunScope, createRunScope } from './run-scope';
import { type RunTimeout, createRunTimeout } from './run-timeout';
import type { Dispatch } from '../dispatch';
import type { AgentEvent, AgentExit, AgentProcess, PermissionAnswer, PermissionRequest } from '../agents/events';
import type { Ask } from '../services/approvals';
import type { ApprovalRecord } from '../store/repositories/approvals';
import type { Logger } from '../logger';
import type { Clock } from '../scheduler/clock';
import { createCommitBatcher } from '../services/commit-batcher';
import { readSettings } from '../settings';
import { overRunLimit, perRunLimit } from '../services/budgets';
import { enqueueRun } from '../services/run-queue';
import type { Store } from '../store';
import type { StoreChange } from '../store/commit-hooks';
import type { RunUsage } from '../store/repositories/runs';
import type { ActivityKind } from '../../../shared/contract';

type MessageRole = Message['role'];

/** A run's timeout when its agent sets none. */
const defaultTimeoutSeconds = 30 * 60;


/** Why a run did not succeed, or null when it did. */
function failureOf(ending: RunStatus | undefined, exit: AgentExit | { error: string }, overBudget: string | undefined): string | null {
  if ('error' in exit) return exit.error;
  if (ending === 'timed_out') return 'The agent ran past its timeout and was stopped.';
  if (ending === 'cancelled') return overBudget ?? 'Cancelled.';
  if (exit.failure !== undefined) return exit.failure;
  if (exit.waitedForInput !== undefined) {
    return `The agent asked for input ("${oneLine(exit.waitedForInput, 120)}") and a run cannot answer; give it its non-interactive or permission flags.`;
  }
  if (exit.code === 0) return null;
  return `The agent exited with ${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`}.`;
}

interface Active {
  run: Run;
  agent: AgentProcess | undefined;
  /** How it is being ended (cancel, timeout, over budget); undefined while it runs on, or as Steward stops. */
  ending: 'cancelled' | 'timed_out' | undefined;
  /** What it holds, released before its end is written. */
  scope: RunScope;
  /** Aborted as it is ended or Steward stops: what its agent still waits on from Steward answers at once. */
  abort: AbortController;
  /** Armed once its agent starts. */
  timeout: RunTimeout | undefined;
  /** Settles once the run has released everything and its end is written. */
  done: Promise<void>;
  /** The agent named its session during this run. */
  sessionNamed: boolean;
  /** The preset whose sessions this run's agent keeps, as it was when the run started (the instance's agent may change meanwhile). */
  sessionKind: string | undefined;
  sandbox: SandboxRun | undefined;
  /** What its sandbox refused, said or counted. */
  refusals: RunRefusals | undefined;
  /** The usdPerRun it is held to, once started. */
  limit: { usd: number; of: string } | null;
  /** What its agent reported it used so far, and whether writing it is already under way. */
  usage: RunUsage;
  usageQueued: boolean;
  /** Why it was cancelled when it went past usdPerRun. */
  overBudget: string | undefined;
}

/** What a run's agent may wait for a person on. */
export interface PersonAsker {
  /** Asks on a run's behalf (an agent's permission request under permissions: ask); resolves with the decision. */
  ask(runId: string, ask: Ask): Promise<Pick<ApprovalRecord, 'status' | 'note'>>;
  /** The run is being ended: what it waits for expires now, so that its agent can stop. */
  expireForRun(runId: string): void;
}

export interface RunnerDeps {
  approvals?: PersonAsker;
  store: Store;
  clock: Clock;
  logger: Logger;
  /** A stored secret's value (an openai agent's API key). */
  revealSecret: (name: string) => string | undefined;
  /** Keys of runs whose CLI agents get Steward's MCP server. */
  runKeys: RunKeys;
  /** The HTTP API's base URL (the MCP server is its /mcp). */
  apiUrl: () => string;
  /** Steward's data folder: no sandboxed run sees it. */
  dataDir: string;
  /** Steward's public URL while the tunnel is up: no sandboxed run reaches it. */
  publicUrl: () => string | null;
}

export function createRunner(deps: RunnerDeps) {
  const { store, clock, logger } = deps;
  // The built-in agent's steward tools call operations: given at start, by the core above.
  let dispatch: Dispatch = () => Promise.reject(new Error('Steward is not running.'));
  let unsubscribe: (() => void) | undefined;
  const maxRunning = () => readSettings(store).runner.maxRunning;
  const active = new Map<string, Active>();
  let running = false;
  let pumping = false;
  let nudged = false;
  /** The timer that wakes the runner when the earliest waiting retry may start, and for when. */
  let wake: { timer: unknown; at: string } | undefined;
  // An agent may print thousands of lines: they are committed in groups, not an fsync each, in
  // turns short enough (2 ms of writes, then the commit) for the API to answer between them; its
  // output is read no faster than they commit (`backlog` below).
  const batcher = createCommitBatcher(store, { budgetMs: 2 });
  const conversations = createConversations(store);
  // The runs' private folders live in the data folder, out of every sandbox's sight.
  const runsDir = path.join(deps.dataDir, 'runs');
  const grants = createStewardGrants(deps.runKeys, deps.apiUrl, logger, runsDir);
  const sandboxes = createRunSandboxes({ store, dataDir: deps.dataDir, runsDir, publicUrl: deps.publicUrl, apiUrl: deps.apiUrl });
  const notices = createRefusalNotices(clock);

  function line(run: Run, kind: ActivityKind, text: string, raw: Record<string, unknown>): void {
    store.activity.append({ instanceId: run.instanceId, runId: run.id, kind, label: labelOf(run), displayText: oneLine(text), raw: JSON.stringify(raw), timestamp: clock.now().toISOString() });
  }

  /** An event as a thread message (role and text) and/or an activity line (kind and text). */
  function recordOf(event: Exclude<AgentEvent, { type: 'session' | 'usage' }>): { role?: MessageRole; kind?: ActivityKind; text: string } {
    switch (event.type) {
      case 'assistant':
        return { role: 'assistant', kind: event.streamed ? undefined : 'assistant', text: event.text };
      case 'assistant_chunk':
        return { kind: 'assistant', text: event.text };
      case 'tool_call':
        return { role: 'tool', kind: 'tool', text: `${event.name} ${JSON.stringify(event.input)}` };
      case 'tool_result':
        return { role: 'tool', kind: 'tool', text: event.output };
      case 'system':
        return { role: 'system', kind: 'system', text: event.text };
    }
  }

  /** The run's totals so far, written once per batch however many reports arrive; past usdPerRun it is cancelled. */
  function recordUsage(run: Run, event: Extract<AgentEvent, { type: 'usage' }>): void {
    const entry = active.get(run.id);
    if (!entry) return;
    const { usage } = entry;
    usage.costUsd = event.costUsd ?? usage.costUsd;
    usage.inputTokens = event.inputTokens ?? usage.inputTokens;
    usage.outputTokens = event.outputTokens ?? usage.outputTokens;
    if (entry.limit && usage.costUsd !== null && usage.costUsd > entry.limit.usd && entry.ending === undefined) {
      entry.overBudget = overRunLimit(usage.costUsd, entry.limit);
      end(entry, 'cancelled');
    }
    if (entry.usageQueued) return;
    entry.usageQueued = true;
    void batcher
      .write(() => {
        entry.usageQueued = false;
        if (store.instances.get(run.instanceId)) store.runs.setUsage(run.id, entry.usage);
      })
      .catch((error: unknown) => logger.error({ err: error, runId: run.id }, 'could not record what a run used'));
  }

  function record(run: Run, event: AgentEvent): void {
    if (event.type === 'usage') return recordUsage(run, event);
    const at = clock.now().toISOString();
    if (event.type === 'session') {
      const entry = active.get(run.id);
      const kind = entry?.sessionKind;
      if (!entry || !kind) return;
      entry.sessionNamed = true;
      void batcher
        .write(() => {
          if (!store.instances.get(run.instanceId)) return;
          conversations.keep(run, kind, event.id, at);
        })
        .catch((error: unknown) => logger.error({ err: error, runId: run.id }, 'could not keep the agent session'));
      return;
    }
    const { role, kind, text } = recordOf(event);
    void batcher
      .write(() => {
        if (!store.instances.exists(run.instanceId)) return; // deleted with ?force while it ran
        if (role) store.threads.addMessage({ threadId: run.threadId, runId: run.id, role, content: text, createdAt: at });
        if (kind) line(run, kind, text, { type: event.type, runId: run.id, event: event.raw });
      })
      .catch((error: unknown) => logger.error({ err: error, runId: run.id }, 'could not record an agent event'));
  }

  /** Ends a run that is under way: its agent stops, and what it waits for a person on expires now. */
  function end(entry: Active, how: 'cancelled' | 'timed_out'): void {
    entry.ending ??= how;
    entry.abort.abort();
    entry.agent?.kill();
    deps.approvals?.expireForRun(entry.run.id);
  }

  /** Releases what the run holds, then writes its end (not as Steward stops: the next start finds it interrupted). */
  async function finish(entry: Active, exit: AgentExit | { error: string }): Promise<void> {
    const { run } = entry;
    // Read before the sandbox closes: its cgroup goes with it.
    const limitReached = entry.sandbox?.limitReached();
    await entry.scope.close();
    if (!running) return;
    // Nothing the sandbox refuses from now on is said: the run's last line is on its way.
    const quiet = entry.refusals?.end();
    const failure = failureOf(entry.ending, exit, entry.overBudget);
    // A run that failed on one of its sandbox's limits says so rather than what its agent made of it (in its stderr still).
    const error = failure !== null && entry.ending === undefined && limitReached ? limitReached : failure;
    const status = entry.ending ?? (error === null ? 'succeeded' : 'failed');
    const stderr = 'error' in exit ? null : exit.stderr || null;
    const finishedAt = clock.now();
    // Through the same batcher as the agent's events, so the end is written after all of them.
    await batcher
      .write(() => {
        if (!store.instances.get(run.instanceId)) return;
        if (!store.runs.finish(run.id, status, finishedAt.toISOString(), error, stderr)) return;
        if (status === 'failed' || status === 'timed_out') {
          const { errorClass, resetsAt } = classifyFailure({ timedOut: status === 'timed_out', hint: 'error' in exit ? undefined : exit.hint, error, stderr });
          store.runs.setErrorClass(run.id, errorClass, resetsAt ?? null);
        }
        const seconds = ((finishedAt.getTime() - Date.parse(run.startedAt ?? run.createdAt)) / 1000).toFixed(1);
        // What the agent's stream already said is not said twice: the line keeps the rest (its exit code).
        const shown = 'failureShown' in exit ? exit.failureShown : undefined;
        const said = shown !== undefined && error?.endsWith(`: ${shown}`) ? error.slice(0, -shown.length - 2) : error;
        line(run, 'system', `Run ${status.replace('_', ' ')} after ${seconds} s${said ? `: ${said}` : ''}`, { type: 'run.finished', runId: run.id, status, error, ...(quiet ? { sandboxRefusedQuietly: quiet } : {}) });
        // A session the CLI could not resume (expired, deleted) would fail every later run of the thread too.
        if (status === 'failed' && run.resumedSessionId && !entry.sessionNamed) {
          conversations.forget(run);
          line(run, 'system', `The agent could not resume its session ${run.resumedSessionId}: the thread's next run starts a new conversation.`, { type: 'run.session_dropped', runId: run.id, sessionId: run.resumedSessionId });
        }
        // Last, so that what it sets going (a retry's "Retrying at …") reads after the run's end.
        afterRun(store, store.runs.get(run.id)!, finishedAt);
      })
      .catch((failure: unknown) => logger.error({ err: failure, runId: run.id }, 'could not record the end of a run'));
    logger.info({ runId: run.id, status, error, ...(quiet ? { sandboxRefusedQuietly: quiet } : {}) }, 'run finished');
  }

  function launch(run: Run): void {
    const scope = createRunScope((error) => logger.warn({ err: error, runId: run.id }, 'could not release what a run held'));
    const entry: Active = { run, agent: undefined, ending: undefined, scope, abort: new AbortController(), timeout: undefined, done: Promise.resolve(), sessionNamed: false, sessionKind: undefined, sandbox: undefined, refusals: undefined, limit: null, usage: { costUsd: null, inputTokens: null, outputTokens: null }, usageQueued: false, overBudget: undefined };
    active.set(run.id, entry);
    entry.done = (async () => {
      const instance = store.instances.get(run.instanceId);
      const exit = instance ? await start(entry, instance).catch((error: unknown) => ({ error: error instanceof AgentUnavailable ? error.message : `The agent could not start: ${(error as Error).message}` })) : { error: `The instance ${run.instanceId} no longer exists.` };
      await finish(entry, exit);
    })()
      .catch((error: unknown) => logger.error({ err: error, runId: run.id }, 'a run could not end cleanly'))
      .finally(() => {
        active.delete(run.id);
        pump();
      });
  }

  /** Opens the run's sandbox (when its instance has one), starts its agent inside, and waits for it to exit. */
  async function start(entry: Active, instance: Instance): Promise<AgentExit> {
    const { run, scope } = entry;
    const { agent } = instance;
    entry.sessionKind = sessionKindOf(agent);
    fs.mkdirSync(instance.workspaceDir, { recursive: true });
    const steward = grants.grant(run, agent);
    scope.hold(() => grants.end(run.id));
    // The CLI's own telemetry is counted; anything else is said once a day per instance and host.
    entry.refusals = notices.open(instance.id, footprintName(agent));
    const { refusals } = entry;
    const sandbox = await sandboxes.open(run, instance, steward, (denial) => {
      if (refusals.refused(denial)) record(run, { type: 'system', text: denialLine(denial), raw: { type: 'sandbox.denied', ...denial } });
    });
    if (sandbox) scope.hold(() => sandbox.close());
    entry.sandbox = sandbox;
    // Cancelled, or Steward stopping, while the sandbox opened.
    if (entry.ending !== undefined || !running) return { code: null, signal: null, stderr: '' };
    entry.limit = perRunLimit(store, run);
    const launch = {
      prompt: run.prompt,
      resumeSession: run.resumedSessionId ?? undefined,
      history: conversations.history(run, agent),
      workspaceDir: instance.workspaceDir,
      env: { STEWARD_RUN_ID: run.id, STEWARD_INSTANCE_ID: instance.id },
      envAllow: instance.sandbox.envAllow,
      inputWaitMs: Number(store.settings.get('runner.inputWaitSeconds') ?? 10) * 1000,
      permissions: instance.permissions.mode,
      sandbox: entry.sandbox,
      maxBudgetUsd: entry.limit?.usd,
      requestPermission: instance.permissions.mode === 'ask' ? (request: PermissionRequest) => askPermission(run.id, request, instance.permissions.timeoutSeconds) : undefined,
      onEvent: (event: AgentEvent) => record(run, event),
      backlog: batcher,
    };
    if (agent.provider === 'command') {
      entry.agent = startCommandAgent(agent, { ...launch, steward });
    } else if (agent.provider === 'acp') {
      entry.agent = startAcpAgent(agent, { ...launch, steward });
    } else {
      const apiKey = agent.apiKeyRef === undefined ? undefined : deps.revealSecret(agent.apiKeyRef);
      if (agent.apiKeyRef !== undefined && apiKey === undefined) {
        throw new AgentUnavailable(`No secret named ${agent.apiKeyRef} is stored; add it (PUT /api/secrets/${agent.apiKeyRef}) or change apiKeyRef.`);
      }
      // Its steward tools call as this run, as a CLI agent's key does: its own instance's, and what they start is the run's child.
      const caller: Caller = { scope: 'runs', runId: run.id, instanceId: instance.id };
      const ended = new Promise<never>((_, reject) => entry.abort.signal.addEventListener('abort', () => reject(new AppError('expired', 'The run is ending.')), { once: true }));
      ended.catch(() => undefined);
      // A call still waiting (a permission put to a person) ends with the run, whoever answers it.
      const asRun: Dispatch = (name, raw) => Promise.race([dispatch(name, raw, caller), ended]);
      entry.agent = startOpenAiAgent(agent, { ...launch, apiKey, dispatch: asRun, caller, mcpServers: readSettings(store).mcpServers, revealSecret: deps.revealSecret });
    }
    const timeout = createRunTimeout(clock, (agent.timeoutSeconds ?? defaultTimeoutSeconds) * 1000, () => end(entry, 'timed_out'));
    entry.timeout = timeout;
    scope.hold(() => timeout.clear());
    timeout.resume();
    return entry.agent.exited;
  }

  /** An agent's own permission request (ACP), put to a person: their decision as the option it names. */
  async function askPermission(runId: string, request: PermissionRequest, timeoutSeconds: number): Promise<PermissionAnswer> {
    if (!deps.approvals) return { cancelled: true };
    const decided = await deps.approvals.ask(runId, { kind: 'tool', title: `The agent asks to ${request.title}`, detail: { text: request.detail, tool: request.kind }, timeoutSeconds });
    const wanted = decided.status === 'allowed' ? ['allow_once', 'allow_always'] : ['reject_once', 'reject_always'];
    const option = wanted.map((kind) => request.options.find((each) => each.kind === kind)).find((each) => each !== undefined);
    return option ? { optionId: option.id } : { cancelled: true };
  }

  /** Starts queued runs while there is room. */
  function pump(): void {
    if (!running || pumping) return;
    pumping = true;
    try {
      while (active.size < maxRunning()) {
        const busy = new Set([...active.values()].map((entry) => entry.run.instanceId));
        const next = store.runs.claimable(clock.now().toISOString(), maxRunning() * 4).find((run) => !busy.has(run.instanceId));
        if (!next) break;
        const startedAt = clock.now().toISOString();
        const resumed = conversations.sessionToResume(next);
        const claimed = store.transaction(() => {
          if (!store.runs.claim(next.id, startedAt, resumed)) return false;
          // The prompt is the run's first message, and its first activity line.
          store.threads.addMessage({ threadId: next.threadId, runId: next.id, role: 'user', content: next.prompt, createdAt: startedAt });
          line(next, 'user', next.prompt, { type: 'run.started', runId: next.id, source: next.source, sourceId: next.sourceId, prompt: next.prompt, resumedSessionId: resumed });
          if (resumed !== null) line(next, 'system', `Continuing the agent's session ${resumed}`, { type: 'run.resumed', runId: next.id, sessionId: resumed });
          return true;
        });
        if (claimed) launch({ ...next, status: 'running', startedAt, resumedSessionId: resumed });
      }
    } finally {
      pumping = false;
    }
    armWake();
  }

  /** One timer, for the earliest queued run that waits for its time (a retry's backoff): the pump runs then. */
  function armWake(): void {
    const at = running ? store.runs.nextStartAfter(clock.now().toISOString()) : null;
    if (wake?.at === at) return;
    if (wake) clock.clearTimer(wake.timer);
    wake = undefined;
    if (at === null) return;
    const timer = clock.setTimer(() => {
      if (wake?.timer === timer) wake = undefined;
      pump();
    }, Date.parse(at) - clock.now().getTime());
    wake = { timer, at };
  }

  /** What moves runs tells the runner: a run queued starts if there is room, one waiting for a person stops its timeout. */
  function heard(change: StoreChange): void {
    if (change.type === 'instance') return nudge();
    if (change.type !== 'run' || change.status === undefined) return;
    if (change.status === 'queued') return nudge();
    const entry = active.get(change.runId);
    if (change.status === 'waiting') entry?.timeout?.pause();
    else if (change.status === 'running' && entry?.ending === undefined) entry?.timeout?.resume();
  }

  /** Something may start: once per turn of the event loop, however many asked. */
  function nudge(): void {
    if (nudged) return;
    nudged = true;
    setImmediate(() => {
      nudged = false;
      pump();
    });
  }

  return {
    /** Deals with runs a previous process left running, then starts queued ones; `calls` is what the built-in agent's steward tools call. */
    start(calls: Dispatch): void {
      dispatch = calls;
      running = true;
      unsubscribe = store.subscribe(heard);
      const interrupted = [...store.runs.running(), ...store.runs.waitingStarted()].map((run) => run.id);
      // What their agents left running (a killed Steward's orphans) ends before they are marked.
      const swept = sweepMarked(interrupted.map((id) => `STEWARD_RUN_ID=${id}`));
      if (swept > 0) logger.warn({ processes: swept }, 'ended what interrupted runs left running');
      grants.endAll(interrupted);
      const now = clock.now();
      store.transaction(() => {
        // A run that waited for a person when Steward stopped lost its agent with it.
        for (const run of [...store.runs.running(), ...store.runs.waitingStarted()]) {
          store.runs.finish(run.id, 'interrupted', now.toISOString(), 'Steward stopped while this run was running.', null);
          line(run, 'system', 'Run interrupted: Steward stopped while it was running.', { type: 'run.interrupted', runId: run.id });
          // An automation's run is tried once more; a webhook's is not repeated behind its sender's back.
          if (run.source === 'automation' && store.runs.attempt(run.id) === 1) {
            const again = enqueueRun(store, { instanceId: run.instanceId, threadId: run.threadId, source: run.source, sourceId: run.sourceId, prompt: run.prompt, scheduledFor: run.scheduledFor ? new Date(run.scheduledFor) : null }, now);
            store.runs.setAttempt(again.id, 2);
          }
        }
      });
      pump();
    },

    nudge,

    /** Ends a run in whatever state it is: one under way once its agent has stopped and released what it held (see `done`). */
    cancel(id: string): Run {
      const entry = active.get(id);
      if (entry) {
        end(entry, 'cancelled');
        return { ...entry.run, status: 'running' };
      }
      const run = store.runs.get(id);
      if (!run) throw new AppError('not_found', `No run ${id}.`);
      if (run.status === 'queued' || run.status === 'waiting') {
        store.transaction(() => {
          if (store.runs.finish(id, 'cancelled', clock.now().toISOString(), 'Cancelled before it started.', null)) {
            line(run, 'system', 'Run cancelled before it started.', { type: 'run.cancelled', runId: id });
          }
        });
      }
      return store.runs.get(id)!;
    },

    /** The writes of what agents said still to commit, and the most that ever waited at once (bounded: see commit-batcher.ts). */
    queuedWrites: () => batcher.queued(),

    /** Settles once the run under way has ended and released everything (at once for one that is not). */
    done: (id: string): Promise<void> => active.get(id)?.done ?? Promise.resolve(),

    /**
     * Stops taking runs and ends the ones under way, waiting for each to release what it holds
     * (sandboxes still opening included); they stay "running" in SQLite and are found interrupted
     * at the next start.
     */
    async stop(): Promise<void> {
      running = false;
      unsubscribe?.();
      unsubscribe = undefined;
      armWake();
      for (const entry of active.values()) {
        entry.abort.abort();
        entry.agent?.kill();
      }
      await Promise.all([...active.values()].map((entry) => entry.done));
      // Writes are committed in order: once this one is, every event recorded before it is too.
      await batcher.write(() => undefined);
    },
  };
}

export type Runner = ReturnType<typeof createRunner>;

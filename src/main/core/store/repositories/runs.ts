// runs table <-> Run.
import type Database from 'better-sqlite3';
import type { CommitHooks } from '../commit-hooks';
import { type ErrorClass, type Outcome, type Run, type RunSource, type RunStatus, endedRunStatuses } from '../../../../shared/contract';
import { canMove, movesInto } from '../../../../shared/run-states';

export type EndedStatus = (typeof endedRunStatuses)[number];
/** Where `move` takes a run: between waiting, queued and running (an end goes through `finish`). */
type MovingStatus = 'queued' | 'waiting' | 'running';

interface RunRow {
  id: string;
  instance_id: string;
  thread_id: string;
  source: RunSource;
  source_id: string | null;
  status: RunStatus;
  prompt: string;
  scheduled_for: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
  stderr: string | null;
  session_id: string | null;
  resumed_session_id: string | null;
  replay_of: string | null;
  parent_run_id: string | null;
  depth: number;
  error_class: ErrorClass | null;
  retry_of: string | null;
  start_after: string | null;
  outcome: Outcome | null;
  summary: string | null;
  cost_usd: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
}

/** What an agent reported a run used, so far. */
export interface RunUsage {
  costUsd: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
}

function toRun(row: RunRow): Run {
  return {
    id: row.id,
    instanceId: row.instance_id,
    threadId: row.thread_id,
    source: row.source,
    sourceId: row.source_id,
    status: row.status,
    prompt: row.prompt,
    scheduledFor: row.scheduled_for,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    error: row.error,
    stderr: row.stderr,
    sessionId: row.session_id,
    resumedSessionId: row.resumed_session_id,
    replayOf: row.replay_of,
    parentRunId: row.parent_run_id,
    depth: row.depth,
    errorClass: row.error_class,
    retryOf: row.retry_of,
    startAfter: row.start_after,
    outcome: row.outcome,
    summary: row.summary,
    costUsd: row.cost_usd,
    inputTokens: row.input_tokens,
    outputTokens: row.output_tokens,
  };
}

export interface RunFilter {
  source?: RunSource | undefined;
  sourceId?: string | undefined;
  status?: RunStatus | undefined;
  instanceId?: string | undefined;
  /** Only runs older than this run id (ids sort by creation). */
  before?: string | undefined;
  limit: number;
}

const columns = 'id, instance_id, thread_id, source, source_id, status, prompt, scheduled_for, created_at, started_at, finished_at, error, stderr, session_id, resumed_session_id, replay_of, parent_run_id, depth, error_class, retry_of, start_after, outcome, summary, cost_usd, input_tokens, output_tokens';

/** What ended a run for the failures in a row: cancelled says nothing either way. */
const endingStatuses = "'succeeded', 'failed', 'timed_out', 'interrupted'";
const failedStatuses = "'failed', 'timed_out', 'interrupted'";

/** How many finished runs, newest first, failed before the first that succeeded. */
const failuresInARowOf = (endings: readonly RunStatus[]): number => {
  const firstSuccess = endings.indexOf('succeeded');
  return firstSuccess === -1 ? endings.length : firstSuccess;
};

/** An automation's newest run and its failures in a row. */
export interface LatestRuns {
  latest: { id: string; createdAt: string; status: RunStatus } | undefined;
  failuresInARow: number;
}

export function createRunsRepository(db: Database.Database, hooks: CommitHooks) {
  const changed = (runId: string, status?: RunStatus) => {
    if (hooks.wanted) hooks.announce(status === undefined ? { type: 'run', runId } : { type: 'run', runId, status });
  };
  const insert = db.prepare<[string, string, string, string, string | null, string, string, string | null, string | null, string, string | null, string | null, number, string | null, string | null]>(
    `INSERT INTO runs (id, instance_id, thread_id, source, source_id, status, prompt, scheduled_for, idempotency_key, created_at, replay_of, parent_run_id, depth, retry_of, start_after)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const setErrorClass = db.prepare<[string | null, string | null, string]>('UPDATE runs SET error_class = ?, resets_at = ? WHERE id = ?');
  const resetsAt = db.prepare<[string], { resets_at: string | null }>('SELECT resets_at FROM runs WHERE id = ?');
  const retried = db.prepare<[string], { one: number }>('SELECT 1 AS one FROM runs WHERE retry_of = ? LIMIT 1');
  // Named, because without statistics SQLite would rather walk every queued run by status.
  const nextStartAfter = db.prepare<[string], { at: string | null }>("SELECT min(start_after) AS at FROM runs INDEXED BY runs_queued_start_after WHERE status = 'queued' AND start_after > ?");
  const setUsage = db.prepare<[number | null, number | null, number | null, string]>('UPDATE runs SET cost_usd = ?, input_tokens = ?, output_tokens = ? WHERE id = ?');
  const setOutcome = db.prepare<[string, string | null, string]>('UPDATE runs SET outcome = ?, summary = ? WHERE id = ?');
  const setStatus = db.prepare<[string, string, string]>('UPDATE runs SET status = ? WHERE id = ? AND status = ?');
  // Per way of ending, from the statuses the table lets end that way: an ended run stays ended.
  const finishAs = new Map(
    endedRunStatuses.map((to) => {
      const from = movesInto(to);
      return [to, db.prepare<[string, string | null, string | null, string]>(`UPDATE runs SET status = '${to}', finished_at = ?, error = ?, stderr = ? WHERE id = ? AND status IN (${from.map((each) => `'${each}'`).join(', ')})`)];
    }),
  );
  const waitingStarted = db.prepare<[], RunRow>(`SELECT ${columns} FROM runs WHERE status = 'waiting' AND started_at IS NOT NULL`);
  const open = db.prepare<[string], { one: number }>("SELECT 1 AS one FROM runs WHERE source_id = ? AND status IN ('queued', 'running', 'waiting') LIMIT 1");
  const get = db.prepare<[string], RunRow>(`SELECT ${columns} FROM runs WHERE id = ?`);
  const list = db.prepare<{ source: string | null; sourceId: string | null; status: string | null; instanceId: string | null; before: string | null; limit: number }, RunRow>(
    `SELECT ${columns} FROM runs
     WHERE (@source IS NULL OR source = @source) AND (@sourceId IS NULL OR source_id = @sourceId) AND (@status IS NULL OR status = @status)
       AND (@instanceId IS NULL OR instance_id = @instanceId) AND (@before IS NULL OR id < @before)
     ORDER BY id DESC LIMIT @limit`,
  );
  const latest = db.prepare<[string], { id: string; created_at: string; status: RunStatus }>(
    'SELECT id, created_at, status FROM runs WHERE source_id = ? ORDER BY created_at DESC, id DESC LIMIT 1',
  );
  const averageCosts = db.prepare<[string], { source_id: string; average: number }>(
    "SELECT source_id, avg(cost_usd) AS average FROM runs WHERE source = 'automation' AND created_at >= ? AND cost_usd IS NOT NULL GROUP BY source_id",
  );
  // Its newest finished runs, for the failures in a row; cancelled ones say nothing either way.
  // A failure that was retried is not counted: its last attempt is.
  const recentEndings = db.prepare<[string, number], { status: RunStatus }>(
    `SELECT status FROM runs r WHERE source_id = ? AND status IN ('succeeded', 'failed', 'timed_out', 'interrupted')
       AND NOT EXISTS (SELECT 1 FROM runs a WHERE a.retry_of = r.id)
     ORDER BY created_at DESC, id DESC LIMIT ?`,
  );

  // Named: SQLite would rather walk the source's runs of the last day by time (every GitHub delivery asks this).
  const byIdempotencyKey = db.prepare<[string, string, string], RunRow>(
    `SELECT ${columns} FROM runs INDEXED BY runs_by_idempotency_key WHERE source_id = ? AND idempotency_key = ? AND created_at >= ? ORDER BY created_at LIMIT 1`,
  );

  // Instances that are ready (or broken: their runs fail, saying why) and have nothing running, then
  // each one's oldest queued run that may start now (a retry waiting for its time does not hold up
  // the others): two lookups on indexes per instance, whatever waits in the queue. (One query with a
  // correlated subquery cost SQLite 50-150 µs even for a stopped instance, on every pump.)
  const freeInstances = db.prepare<[], { id: string }>(
    "SELECT i.id FROM instances i WHERE i.status IN ('running', 'error') AND NOT EXISTS (SELECT 1 FROM runs o WHERE o.instance_id = i.id AND o.status = 'running')",
  );
  const oldestQueued = db.prepare<[string, string], RunRow>(
    `SELECT ${columns} FROM runs WHERE instance_id = ? AND status = 'queued' AND (start_after IS NULL OR start_after <= ?) ORDER BY created_at, id LIMIT 1`,
  );
  const claim = db.prepare<[string, string | null, string]>(
    "UPDATE runs SET status = 'running', started_at = ?, resumed_session_id = ? WHERE id = ? AND status = 'queued'",
  );
  const setSession = db.prepare<[string, string]>('UPDATE runs SET session_id = ? WHERE id = ?');
  const countByStatus = db.prepare<[string, number], { n: number }>('SELECT count(*) AS n FROM (SELECT 1 FROM runs WHERE status = ? LIMIT ?)');
  const running = db.prepare<[], RunRow>(`SELECT ${columns} FROM runs WHERE status = 'running'`);
  // The queue's order is the claim's: oldest first, ties by id; a retry waiting for its time is not ahead.
  const queuedAhead = db.prepare<[string, string, string, string, string], { n: number }>(
    "SELECT count(*) AS n FROM runs WHERE instance_id = ? AND status = 'queued' AND (created_at < ? OR (created_at = ? AND id < ?)) AND (start_after IS NULL OR start_after <= ?)",
  );
  const attemptOf = db.prepare<[string], { attempt: number }>('SELECT attempt FROM runs WHERE id = ?');
  const setAttempt = db.prepare<[number, string]>('UPDATE runs SET attempt = ? WHERE id = ?');
  // Each given automation's (or webhook's) newest run, and, when its newest finished run failed, its
  // newest finished runs' statuses (as in recentEndings): one statement for any number of them, each
  // answered from runs_by_source in its own order, so the cost follows the automations, not their
  // history. Its newest run is most often its newest finished one too: then that is not looked up again.
  const latestEach = db.prepare<{ ids: string; cap: number }, { source_id: string; id: string | null; created_at: string | null; status: RunStatus | null; endings: string | null }>(
    `SELECT j.value AS source_id, l.id, l.created_at, l.status,
       CASE WHEN (CASE WHEN l.status IN (${endingStatuses}) AND NOT EXISTS (SELECT 1 FROM runs a WHERE a.retry_of = l.id) THEN l.status
                       ELSE (SELECT e.status FROM runs e WHERE e.source_id = j.value AND e.status IN (${endingStatuses}) AND NOT EXISTS (SELECT 1 FROM runs a WHERE a.retry_of = e.id)
                             ORDER BY e.created_at DESC, e.id DESC LIMIT 1) END) IN (${failedStatuses})
         THEN (SELECT group_concat(status, ',' ORDER BY created_at DESC, id DESC) FROM (
                 SELECT e.status, e.created_at, e.id FROM runs e WHERE e.source_id = j.value AND e.status IN (${endingStatuses}) AND NOT EXISTS (SELECT 1 FROM runs a WHERE a.retry_of = e.id)
                 ORDER BY e.created_at DESC, e.id DESC LIMIT @cap))
       END AS endings
     FROM json_each(@ids) j
     LEFT JOIN runs l ON l.id = (SELECT n.id FROM runs n WHERE n.source_id = j.value ORDER BY n.created_at DESC, n.id DESC LIMIT 1)`,
  );

  return {
    /** Queued runs that may start at `now` and whose instance is free (not stopped or still provisioning), oldest first. */
    claimable(now: string, limit: number): Run[] {
      const oldest = freeInstances.all().flatMap(({ id }) => oldestQueued.get(id, now) ?? []);
      return oldest
        .sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? -1 : 1) : a.created_at < b.created_at ? -1 : 1))
        .slice(0, limit)
        .map(toRun);
    },
    /** The earliest time after `now` that a queued run waits for (a retry's), if any waits. */
    nextStartAfter: (now: string): string | null => nextStartAfter.get(now)?.at ?? null,
    /** Marks a queued run running, resuming the agent session given; false when it was no longer queued (cancelled meanwhile). */
    claim(id: string, at: string, resumedSessionId: string | null = null): boolean {
      const claimed = claim.run(at, resumedSessionId, id).changes === 1;
      if (claimed) changed(id, 'running');
      return claimed;
    },
    /** Ends a run as `status`; false when it had ended already (its first end stands). */
    finish(id: string, status: EndedStatus, at: string, error: string | null, stderr: string | null): boolean {
      const ended = finishAs.get(status)!.run(at, error, stderr, id).changes === 1;
      if (ended) changed(id, status);
      return ended;
    },
    /** The agent named its session. */
    setSession(id: string, sessionId: string): void {
      setSession.run(sessionId, id);
      changed(id);
    },
    /** How many runs have this status, counting no further than `cap`. */
    count: (status: RunStatus, cap: number): number => countByStatus.get(status, cap)?.n ?? 0,
    running: (): Run[] => running.all().map(toRun),
    /** How many queued runs of its instance start before this one, as things stand at `now`. */
    queuedAhead: (run: Run, now: string): number => queuedAhead.get(run.instanceId, run.createdAt, run.createdAt, run.id, now)?.n ?? 0,
    attempt: (id: string): number => attemptOf.get(id)?.attempt ?? 1,
    setAttempt: (id: string, attempt: number): void => void setAttempt.run(attempt, id),

    insert(run: Run, idempotencyKey: string | null = null): void {
      if (run.status !== 'queued' && run.status !== 'waiting') throw new Error(`A run starts queued or waiting, not ${run.status}.`);
      insert.run(run.id, run.instanceId, run.threadId, run.source, run.sourceId, run.status, run.prompt, run.scheduledFor, idempotencyKey, run.createdAt, run.replayOf ?? null, run.parentRunId ?? null, run.depth ?? 0, run.retryOf ?? null, run.startAfter ?? null);
      changed(run.id, run.status);
    },
    /** Why the run failed, as read from its agent's stream and stderr; for a usage limit, when it resets (if the agent said). */
    setErrorClass(id: string, errorClass: ErrorClass | null, resetsAt: string | null = null): void {
      setErrorClass.run(errorClass, resetsAt, id);
      changed(id);
    },
    /** When the usage limit the run failed on resets, as its agent said; null when it said nothing. */
    resetsAt: (id: string): string | null => resetsAt.get(id)?.resets_at ?? null,
    /** True once a retry of this run was queued. */
    retried: (id: string): boolean => retried.get(id) !== undefined,
    /** What the agent reported the run used so far (each report replaces the last). */
    setUsage(id: string, usage: RunUsage): void {
      setUsage.run(usage.costUsd, usage.inputTokens, usage.outputTokens, id);
      changed(id);
    },
    /** What the agent said came of the run. */
    setOutcome(id: string, outcome: Outcome, summary: string | null): void {
      setOutcome.run(outcome, summary, id);
      changed(id);
    },
    /** The run an earlier request with this Idempotency-Key started for the same source since `since`. */
    findByIdempotencyKey(sourceId: string, key: string, since: string): Run | undefined {
      const row = byIdempotencyKey.get(sourceId, key, since);
      return row && toRun(row);
    },
    get(id: string): Run | undefined {
      const row = get.get(id);
      return row && toRun(row);
    },
    list(filter: RunFilter): Run[] {
      return list
        .all({
          source: filter.source ?? null,
          sourceId: filter.sourceId ?? null,
          status: filter.status ?? null,
          instanceId: filter.instanceId ?? null,
          before: filter.before ?? null,
          limit: filter.limit,
        })
        .map(toRun);
    },
    /** True while a run of this automation or webhook is waiting, queued or running. */
    hasActive: (sourceId: string): boolean => open.get(sourceId) !== undefined,
    /** Moves a run from one status to another (waiting ⇄ queued or running); false when it was no longer `from`. */
    move(id: string, from: RunStatus, to: MovingStatus): boolean {
      if (!canMove(from, to)) throw new Error(`A run does not move from ${from} to ${to}.`);
      const moved = setStatus.run(to, id, from).changes === 1;
      if (moved) changed(id, to);
      return moved;
    },
    /** Runs that were waiting for a person in the middle of their agent's work. */
    waitingStarted: (): Run[] => waitingStarted.all().map(toRun),
    /** When the newest run of an automation or webhook was created, and how it stands. */
    latestFor(sourceId: string): { id: string; createdAt: string; status: RunStatus } | undefined {
      const row = latest.get(sourceId);
      return row && { id: row.id, createdAt: row.created_at, status: row.status };
    },
    /** Each automation's average reported cost per run, over its runs created since `since` that reported one. */
    averageCosts: (since: string): Map<string, number> => new Map(averageCosts.all(since).map((row) => [row.source_id, row.average])),
    /** How many of its newest finished runs failed in a row (counting no further than `cap`). */
    failuresInARow(sourceId: string, cap: number): number {
      return failuresInARowOf(recentEndings.all(sourceId, cap).map((row) => row.status));
    },
    /**
     * For each of these automations (or webhooks): its newest run (as latestFor) and how many of its
     * newest finished runs failed in a row (as failuresInARow, counting no further than `cap`).
     */
    latestEach(sourceIds: readonly string[], cap: number): Map<string, LatestRuns> {
      const found = new Map<string, LatestRuns>();
      for (const row of latestEach.all({ ids: JSON.stringify(sourceIds), cap })) {
        found.set(row.source_id, {
          latest: row.id === null ? undefined : { id: row.id, createdAt: row.created_at!, status: row.status! },
          failuresInARow: row.endings === null ? 0 : failuresInARowOf(row.endings.split(',') as RunStatus[]),
        });
      }
      return found;
    },
  };
}

export type RunsRepository = ReturnType<typeof createRunsRepository>;

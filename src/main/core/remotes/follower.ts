// Follows one remote Steward: checks it (contract, key), keeps its instances, and keeps a copy of
// their activity lines under the remote's own line numbers. It opens the remote's event stream
// first, then catches up with the remote's cursor protocol from what it already holds, so no line
// is lost between the two; a streamed line that would leave a gap is not kept but fetched in
// order by the next catch-up. On any failure it says why (its state), waits (doubling, capped) and
// starts over, resuming from the lines it holds.
//
// What it owns: each connection has its own signal, which its stream, its checks and its catch-ups
// use and which is aborted when the connection ends for any reason; the stream's body is cancelled
// with it; the wait between attempts does not hold the process open. Once stop() resolves nothing
// of it runs: no timer, no request, no socket.
import { type ActivityEvent, type Instance, type LiveEvent, type Run } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import type { Logger } from '../logger';
import type { Store } from '../store';
import { readEventStream } from './event-stream-reader';
import { type FailureKind, type RemoteClient, checkContract, failureKind } from './remote-client';
import type { RemoteTiming } from './timing';

export type { RemoteTiming } from './timing';

export type Connection =
  | { state: 'connecting'; since: string }
  | { state: 'connected'; since: string; version: string; latencyMs: number }
  | { state: FailureKind; since: string; error: string };

export interface FollowerDeps {
  remoteId: string;
  store: Store;
  logger: Logger;
  now: () => Date;
  timing: RemoteTiming;
  /** A client with the key as stored now (a secret given a new value is used at the next attempt); throws when there is none. */
  connect: () => RemoteClient;
  connection: (next: Connection) => void;
  /** A run, an instance or a changed resource the remote announced, to pass on as this Steward's own. */
  announce: (event: LiveEvent) => void;
  /** Its newest runs, read when it connects (what happened while it was not followed), told to no one. */
  runsSeen: (runs: Run[]) => void;
  /** Ids the remote owns (runs, threads, automations, webhooks), so calls naming them go there. */
  owns: (ids: Iterable<string>) => void;
}

const pageLimit = 1000;
const instancesPerRequest = 100;
const encodeCursors = (cursors: Record<string, number>) => Buffer.from(JSON.stringify(cursors)).toString('base64url');

export function createFollower(deps: FollowerDeps) {
  const { store, remoteId, timing } = deps;
  let client: RemoteClient;
  const stopper = new AbortController();
  let connected: { version: string; since: string } | undefined;
  let failedSince: { kind: FailureKind; since: string } | undefined;
  /** When the connection was last lost: runs that ended after it ended unseen. */
  let lostAt: string | undefined;
  let wake: (() => void) | undefined;

  // Its instances' ids, read again whenever they change here: every streamed line and run is checked against them.
  let knownIds: Set<string> | undefined;
  const known = () => (knownIds ??= new Set(store.remotes.instancesOf(remoteId).map((instance) => instance.id)));

  async function checkInstances(signal: AbortSignal): Promise<number> {
    const started = performance.now();
    const { instances } = await client.call<{ instances: Instance[] }>('GET', '/api/instances', { query: { location: 'local' }, signal });
    const latencyMs = Math.round(performance.now() - started);
    const ours = instances.filter((instance) => (instance.location ?? 'local') === 'local');
    const at = deps.now().toISOString();
    store.transaction(() => {
      for (const instance of ours) {
        const here = store.instances.get(instance.id) ?? store.remotes.instance(instance.id);
        if (here && !('remoteId' in here && here.remoteId === remoteId)) {
          throw new AppError('remote_incompatible', `${client.label} has instance ${instance.id}, which is already here: it is this Steward itself, or one already added as another remote.`);
        }
        store.remotes.putInstance(remoteId, instance, at);
      }
      const still = new Set(ours.map((instance) => instance.id));
      for (const id of known()) if (!still.has(id)) store.remotes.deleteInstance(id);
      knownIds = still;
    });
    return latencyMs;
  }

  // --- the lines ---------------------------------------------------------------------------------

  const toLine = (event: ActivityEvent) => ({
    instanceId: event.instanceId,
    line: event.line,
    runId: event.runId,
    kind: event.kind,
    label: event.label,
    displayText: event.displayText,
    raw: event.raw,
    timestamp: event.timestamp,
  });

  /** Fetches every line after the ones held, page by page, in each instance's order. */
  async function catchUp(signal: AbortSignal): Promise<void> {
    const ids = known();
    // A hundred instances a request keeps the query's cursors far below any server's header limit.
    const all = [...ids];
    for (let start = 0; start < all.length; start += instancesPerRequest) {
      const chunk = all.slice(start, start + instancesPerRequest);
      let cursors: Record<string, number> = Object.fromEntries(chunk.map((id) => [id, store.activity.head(id).lastLine]));
      for (;;) {
        const page = await client.call<{ events: ActivityEvent[]; cursors: Record<string, number>; hasMore: boolean }>('GET', '/api/activity', {
          query: { cursors: encodeCursors(cursors), instanceIds: chunk.join(','), limit: pageLimit, location: 'local' },
          signal,
        });
        store.transaction(() => {
          for (const event of page.events) if (ids.has(event.instanceId)) store.activity.mirror(toLine(event), true);
        });
        deps.owns(page.events.flatMap((event) => (event.runId ? [event.runId] : [])));
        if (!page.hasMore) break;
        cursors = page.cursors;
      }
    }
  }

  // Streamed lines are kept in batches (one transaction per tick); a gap asks for a catch-up.
  let pending: ActivityEvent[] = [];
  let catching: Promise<void> | undefined;
  let catchAgain = false;
  /** The connection now: what its catch-ups use, and how they end it when they fail. */
  let current: { signal: AbortSignal; fail: (error: unknown) => void } | undefined;

  function requestCatchUp(): void {
    const connection = current;
    if (!connection || connection.signal.aborted) return;
    if (catching) {
      catchAgain = true;
      return;
    }
    catching = (async () => {
      do {
        catchAgain = false;
        await catchUp(connection.signal);
      } while (catchAgain && !connection.signal.aborted);
    })()
      .catch((error: unknown) => connection.fail(error))
      .finally(() => (catching = undefined));
  }

  function flush(): void {
    const batch = pending;
    pending = [];
    const ids = known();
    let gap = false;
    store.transaction(() => {
      for (const event of batch) if (ids.has(event.instanceId) && store.activity.mirror(toLine(event), false) === 'gap') gap = true;
    });
    if (gap) requestCatchUp();
  }

  function streamed(name: string, data: string): void {
    if (name === 'activity') {
      const event = JSON.parse(data) as ActivityEvent;
      if (pending.length === 0) setImmediate(flush);
      pending.push(event);
      if (event.runId) deps.owns([event.runId]);
    } else if (name === 'run') {
      const run = JSON.parse(data) as Run;
      if (!known().has(run.instanceId)) return;
      deps.owns([run.id, run.threadId, ...(run.sourceId ? [run.sourceId] : [])]);
      deps.announce({ type: 'run', run });
    } else if (name === 'instance') {
      const instance = JSON.parse(data) as Instance;
      if ((instance.location ?? 'local') !== 'local') return;
      store.transaction(() => store.remotes.putInstance(remoteId, instance, deps.now().toISOString()));
      knownIds?.add(instance.id);
    } else if (name === 'changed') {
      const change = JSON.parse(data) as { resource: 'automation' | 'webhook' | 'approval' | 'remote' | 'delivery'; id: string; location?: string };
      // Its own remotes, and what changed on them, are its business: no chains, and no change
      // passed back and forth between two Stewards that follow each other.
      if (change.resource === 'remote' || change.location !== undefined) return;
      deps.owns([change.id]);
      deps.announce({ type: 'changed', resource: change.resource, id: change.id, location: remoteId });
    } else if (name === 'reset') {
      requestCatchUp();
    }
  }

  /**
   * One connection, from its first check to its end: connected until the stream ends, stalls or
   * fails, or a check fails. It always ends by throwing why; `connected` says whether it got as far.
   */
  async function connection(attempt: { connected: boolean }): Promise<never> {
    const session = new AbortController();
    const signal = AbortSignal.any([session.signal, stopper.signal]);
    let failure: unknown;
    const fail = (error: unknown) => {
      failure ??= error;
      session.abort(error);
    };
    let checks: ReturnType<typeof setInterval> | undefined;
    let body: ReadableStream<Uint8Array> | undefined;
    try {
      client = deps.connect();
      const version = await checkContract(client, { signal });
      const latencyMs = await checkInstances(signal);
      attempt.connected = true;
      body = await client.stream('/api/events', signal, 10_000);
      const since = deps.now().toISOString();
      connected = { version, since };
      failedSince = undefined;
      deps.connection({ state: 'connected', since, version, latencyMs });
      current = { signal, fail };
      requestCatchUp();
      const away = lostAt;
      lostAt = undefined;
      client.call<{ runs: Run[] }>('GET', '/api/runs', { query: { limit: 50 }, signal }).then(({ runs }) => {
        if (signal.aborted) return;
        const ours = runs.filter((run) => known().has(run.instanceId));
        deps.runsSeen(ours);
        // What ended while it could not be followed is told now, oldest first, as if it had been seen.
        const missed = away === undefined ? [] : ours.filter((run) => run.finishedAt !== null && run.finishedAt > away);
        for (const run of missed.reverse()) deps.announce({ type: 'run', run });
      }, () => {});
      let lastByte = Date.now();
      let checking = false;
      const check = () => {
        if (Date.now() - lastByte > timing.stallMs) return fail(new AppError('remote_unreachable', `${client.label} is unreachable: its event stream stalled.`));
        // One check at a time: on a busy machine a slow one is not joined by more.
        if (checking) return;
        checking = true;
        try {
          // With the key as stored now: a key revoked there, or replaced here by a wrong one, is
          // refused at this check, whatever the stream opened with the old key still does.
          client = deps.connect();
        } catch (error) {
          return fail(error);
        }
        checkInstances(signal).then(
          (latency) => !signal.aborted && connected && deps.connection({ state: 'connected', since: connected.since, version, latencyMs: latency }),
          (error: unknown) => fail(error),
        ).finally(() => (checking = false));
      };
      checks = setInterval(check, Math.min(timing.checkEveryMs, timing.stallMs));
      checks.unref();
      await readEventStream(
        body,
        (event) => {
          lastByte = Date.now();
          try {
            streamed(event.event, event.data);
          } catch (error) {
            deps.logger.warn({ remoteId, event: event.event, err: error }, 'could not use an event a remote sent');
          }
        },
        signal,
      );
      failure ??= new AppError('remote_unreachable', `${client.label} is unreachable: its event stream ended.`);
    } catch (error) {
      failure ??= error;
    } finally {
      current = undefined;
      clearInterval(checks);
      session.abort();
      // A body never handed to the reader (it cancels its own) is let go here.
      await body?.cancel().catch(() => {});
      await catching?.catch(() => {});
      if (pending.length > 0) flush();
    }
    throw failure instanceof Error ? failure : new Error(String(failure));
  }

  function failed(error: unknown): void {
    const kind = failureKind(error);
    const message = error instanceof Error ? error.message : String(error);
    if (failedSince?.kind !== kind) failedSince = { kind, since: deps.now().toISOString() };
    if (connected) lostAt = deps.now().toISOString();
    connected = undefined;
    deps.connection({ state: kind, since: failedSince.since, error: message });
  }

  async function run(): Promise<void> {
    deps.connection({ state: 'connecting', since: deps.now().toISOString() });
    let backoff = timing.minBackoffMs;
    while (!stopper.signal.aborted) {
      const attempt = { connected: false };
      try {
        await connection(attempt);
      } catch (error) {
        if (stopper.signal.aborted) return;
        failed(error);
        deps.logger.warn({ remoteId, state: failedSince?.kind }, 'remote not followed');
      }
      if (attempt.connected) backoff = timing.minBackoffMs;
      const wait = Math.round(backoff * (1 + Math.random() * 0.2));
      backoff = Math.min(backoff * 2, timing.maxBackoffMs);
      await new Promise<void>((resolve) => {
        // The wait keeps nothing alive: a process with nothing else to do may exit during it.
        const timer = setTimeout(resolve, wait).unref();
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  }

  let running: Promise<void> | undefined;
  return {
    start(): void {
      running ??= run();
    },
    /** Tries again now instead of after the wait. */
    retry(): void {
      wake?.();
    },
    async stop(): Promise<void> {
      stopper.abort();
      wake?.();
      await running;
    },
  };
}

export type Follower = ReturnType<typeof createFollower>;

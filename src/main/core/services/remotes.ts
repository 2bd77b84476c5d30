// Remote Stewards: the ones this Steward follows (stored with the name of the secret holding
// their key), each connection's state as its follower last found it, their instances shown as
// instances here, and the calls forwarded to them. The key is read from the secret box only to
// make a request: it is never returned, logged or put in a message.
//
// Each remote has at most one follower, and only the remotes stored have one: every change of which
// follower a remote should have (added, updated, removed, the service started or stopped) is one
// step in that remote's own queue, which stops (and awaits) the follower it has before it starts
// the one the stored remote names now. So no interleaving of calls leaves two, or one nothing stops.
import { runProgress } from '../../../shared/run-progress';
import { type Instance, type LiveEvent, type Operation, type Remote, type RemoteCheck, type Run } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import { fillPath } from '../../../shared/operation-path';
import type { RawInput } from '../operation-call';
import { newId } from '../ids';
import type { Connection, Follower } from '../remotes/follower';
import { hostOf } from '../remotes/host';
import type { RemoteClient } from '../remotes/remote-client';
import type { RemoteTiming } from '../remotes/timing';

type ClientCode = typeof import('../remotes/remote-client');
let clientCode: Promise<ClientCode> | undefined;
/** The code that calls and follows remotes loads once one is checked, called or followed: a Steward that follows none never loads it. */
const loadClient = (): Promise<ClientCode> => (clientCode ??= import('../remotes/remote-client'));
import type { RemoteRecord } from '../store/repositories/remotes';
import { type ServiceContext, isoNow } from './context';

export interface RemotesDeps {
  reveal: (secretName: string) => string | undefined;
  /** Stores a pasted key under its secret name: only once the remote it is for is accepted. */
  storeSecret: (secretName: string, value: string) => void;
  /** Passes an event on as this Steward's own (the live stream, the desktop, notifications). */
  announce: (event: LiveEvent) => void;
  timing: RemoteTiming;
}

/** Runs remembered per remote for the tray (it shows the newest and counts those of the last day). */
const recentKept = 200;
/** Resource ids remembered per remote: enough for every run a busy day shows, bounded. */
const ownersKept = 50_000;
const idPattern = /^(run|thr|aut|whk|dlv|apr)_[0-9A-HJKMNP-TV-Z]{26}$/;

/** Every id of a resource Steward makes, anywhere in an answer. */
function idsIn(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') {
    if (idPattern.test(value)) into.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) idsIn(item, into);
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) idsIn(item, into);
  }
  return into;
}

export function createRemotesService(context: ServiceContext, deps: RemotesDeps) {
  const { store } = context;
  const connections = new Map<string, Connection>();
  const followers = new Map<string, Follower>();
  /** Per remote, the last step of its queue: the next waits for it. */
  const queues = new Map<string, Promise<void>>();
  const owners = new Map<string, string>();
  const lastConnected = new Map<string, string>();
  // The newest runs of each remote, as its events and its run list said: for the tray.
  const recent = new Map<string, Map<string, Run>>();
  let shown: { writes: number; instances: Instance[] } | undefined;
  let started = false;

  function find(id: string): RemoteRecord {
    const record = store.remotes.get(id);
    if (!record) throw new AppError('not_found', `No remote ${id}.`);
    return record;
  }

  function clientOf({ createRemoteClient }: ClientCode, record: Pick<RemoteRecord, 'name' | 'url' | 'apiKeyRef'>): RemoteClient {
    const key = deps.reveal(record.apiKeyRef);
    if (key === undefined) {
      throw new AppError('remote_unauthorized', `Remote “${record.name}” has no key: no secret named ${record.apiKeyRef} is stored. Store its API key with PUT /api/secrets/${record.apiKeyRef}.`);
    }
    return createRemoteClient({ name: record.name, url: record.url, key });
  }

  const connectionOf = (id: string): Connection => connections.get(id) ?? { state: 'connecting', since: isoNow(context) };

  function present(record: RemoteRecord): Remote {
    const connection = connectionOf(record.id);
    return {
      ...record,
      host: hostOf(record.url),
      state: connection.state,
      version: connection.state === 'connected' ? connection.version : null,
      latencyMs: connection.state === 'connected' ? connection.latencyMs : null,
      error: 'error' in connection ? connection.error : null,
      since: connection.since,
      lastConnectedAt: lastConnected.get(record.id) ?? null,
      instanceCount: store.remotes.instancesOf(record.id).length,
    };
  }
  /** Why its instances cannot be reached, or undefined while they can. */
  function problemOf(remoteId: string): string | undefined {
    const connection = connectionOf(remoteId);
    if (connection.state === 'connected') return undefined;
    const name = store.remotes.get(remoteId)?.name ?? remoteId;
    if (connection.state === 'connecting') return `Connecting to remote “${name}”.`;
    return connection.error;
  }

  function presentInstance(remoteId: string, instance: Instance, url = store.remotes.get(remoteId)?.url): Instance {
    const problem = problemOf(remoteId);
    return {
      ...instance,
      location: remoteId,
      fqdn: url ? hostOf(url) : instance.fqdn,
      isDefault: false,
      // Its own Steward's default, which that Steward will not delete: the UI offers no Delete.
      ...(instance.isDefault || instance.remoteDefault ? { remoteDefault: true } : {}),
      ...(problem ? { status: 'error' as const, statusReason: problem } : {}),
    };
  }

  function setConnection(remoteId: string, next: Connection): void {
    const before = connections.get(remoteId);
    connections.set(remoteId, next);
    if (next.state === 'connected') lastConnected.set(remoteId, next.since);
    const said = (connection: Connection | undefined) => (connection && 'error' in connection ? connection.error : undefined);
    // Its instances are shown with the connection's state and error.
    if (before?.state !== next.state || said(before) !== said(next)) shown = undefined;
    // A new latency alone is not news: it shows when the remote is next read.
    if (before?.state !== next.state || said(before) !== said(next)) {
      deps.announce({ type: 'changed', resource: 'remote', id: remoteId });
    }
    // Its instances' status follows the connection: say so for each when it changes.
    if (before?.state !== next.state && (before?.state === 'connected' || next.state === 'connected' || before === undefined)) {
      for (const instance of store.remotes.instancesOf(remoteId)) deps.announce({ type: 'instance', instance: presentInstance(remoteId, instance) });
    }
  }

  function own(remoteId: string, ids: Iterable<string>): void {
    for (const id of ids) {
      owners.delete(id);
      owners.set(id, remoteId);
    }
    while (owners.size > ownersKept) owners.delete(owners.keys().next().value!);
  }

  function remember(remoteId: string, runs: Run[]): void {
    const kept = recent.get(remoteId) ?? new Map<string, Run>();
    recent.set(remoteId, kept);
    // An older word about a run never wins (run-progress.ts).
    const stage = (run: Run | undefined) => (run === undefined ? -1 : runProgress(run));
    for (const run of runs) if (stage(run) >= stage(kept.get(run.id))) kept.set(run.id, run);
    const ids = [...kept.keys()].sort();
    for (const id of ids.slice(0, Math.max(0, ids.length - recentKept))) kept.delete(id);
  }

  /** Runs a step after every earlier step for the same remote; a failing step does not stop the queue. */
  function queued(id: string, step: () => Promise<void> | void): Promise<void> {
    const next = (queues.get(id) ?? Promise.resolve()).then(step);
    const tail = next.catch((error: unknown) => context.logger.error({ remoteId: id, err: error }, 'remote follower change failed'));
    queues.set(id, tail);
    void tail.finally(() => queues.get(id) === tail && queues.delete(id));
    return next;
  }

  /** Stops the remote's follower, if it has one, and forgets its connection; resolves once it has stopped. */
  async function unfollow(id: string): Promise<void> {
    const follower = followers.get(id);
    followers.delete(id);
    connections.delete(id);
    shown = undefined;
    recent.delete(id);
    await follower?.stop();
  }

  /** The remote's follower made to match the stored remote: the old one stopped, a new one started while the service runs. */
  function refollow(id: string): Promise<void> {
    return queued(id, async () => {
      await unfollow(id);
      const record = store.remotes.get(id);
      if (!started || !record) return;
      const [code, { createFollower }] = await Promise.all([loadClient(), import('../remotes/follower')]);
      const follower = createFollower({
        remoteId: record.id,
        store,
        logger: context.logger,
        now: context.now,
        timing: deps.timing,
        connect: () => clientOf(code, record),
        // Said only while it is the remote's follower: nothing a stopped one still finishes is told.
        connection: (next) => followers.get(id) === follower && setConnection(record.id, next),
        announce: (event) => {
          if (followers.get(id) !== follower) return;
          if (event.type === 'run') remember(record.id, [event.run]);
          deps.announce(event);
        },
        runsSeen: (runs) => followers.get(id) === follower && remember(record.id, runs),
        owns: (ids) => followers.get(id) === follower && own(record.id, ids),
      });
      followers.set(id, follower);
      follower.start();
    });
  }

  /** What refuses an address whatever the key: this Steward itself, or one followed already. */
  function assertAddress(url: string, exceptId?: string): void {
    if (new URL(url).origin === new URL(context.baseUrl()).origin) {
      throw new AppError('invalid_field', 'That address is this Steward itself.', { field: 'url' });
    }
    const same = store.remotes.byUrl(url);
    if (same && same.id !== exceptId) throw new AppError('remote_exists', `${url} is already followed as “${same.name}” (${same.id}).`, { field: 'url' });
  }

  function assertUsable(input: { url: string; apiKeyRef: string; apiKey?: string | undefined }, exceptId?: string): void {
    if (input.apiKey === undefined && store.secrets.get(input.apiKeyRef) === undefined) {
      throw new AppError('invalid_field', `No secret named ${input.apiKeyRef} is stored: store the remote's API key first (PUT /api/secrets/${input.apiKeyRef}), or give it as apiKey.`, { field: 'apiKeyRef' });
    }
    assertAddress(input.url, exceptId);
  }

  /** A connection tested before it is added: with a stored secret, or a pasted key used for this check only. */
  async function check(input: { url: string; apiKeyRef?: string | undefined; apiKey?: string | undefined; name?: string }): Promise<RemoteCheck> {
    // Said as Add would say it: a test never calls "connected" what Add then refuses. A remote
    // followed already is checked with its own key as it is (steward remotes add/list do).
    const followed = store.remotes.byUrl(input.url);
    assertAddress(input.url, followed && followed.apiKeyRef === input.apiKeyRef ? followed.id : undefined);
    const code = await loadClient();
    const { checkContract, createRemoteClient, failureKind } = code;
    const failed = (error: unknown): RemoteCheck => ({
      state: failureKind(error),
      version: null,
      latencyMs: null,
      error: error instanceof Error ? error.message : String(error),
      instanceCount: 0,
    });
    try {
      const name = input.name ?? hostOf(input.url);
      const client = input.apiKey !== undefined ? createRemoteClient({ name, url: input.url, key: input.apiKey }) : clientOf(code, { name, url: input.url, apiKeyRef: input.apiKeyRef ?? '' });
      const version = await checkContract(client, { timeoutMs: 10_000 });
      const started = performance.now();
      const { instances } = await client.call<{ instances: Instance[] }>('GET', '/api/instances', { query: { location: 'local' }, timeoutMs: 10_000 });
      return { state: 'connected', version, latencyMs: Math.round(performance.now() - started), error: null, instanceCount: instances.length };
    } catch (error) {
      return failed(error);
    }
  }

  return {
    list: (): Remote[] => store.remotes.list().map(present),
    get: (id: string): Remote => present(find(id)),

    create(input: { name: string; url: string; apiKeyRef: string; apiKey?: string | undefined }): Remote {
      assertUsable(input);
      if (input.apiKey !== undefined) deps.storeSecret(input.apiKeyRef, input.apiKey);
      const at = isoNow(context);
      const record: RemoteRecord = { id: newId('rem'), name: input.name, url: input.url, apiKeyRef: input.apiKeyRef, createdAt: at, updatedAt: at };
      store.transaction(() => store.remotes.insert(record));
      // Its failure is logged by its queue.
      refollow(record.id).catch(() => {});
      return present(record);
    },

    async update(id: string, patch: { name?: string | undefined; url?: string | undefined; apiKeyRef?: string | undefined }): Promise<Remote> {
      const current = find(id);
      const next: RemoteRecord = { ...current, name: patch.name ?? current.name, url: patch.url ?? current.url, apiKeyRef: patch.apiKeyRef ?? current.apiKeyRef };
      if (next.name === current.name && next.url === current.url && next.apiKeyRef === current.apiKeyRef) return present(current);
      assertUsable(next, id);
      next.updatedAt = isoNow(context);
      store.transaction(() => store.remotes.update(next));
      // Another address or key is another connection; a new name shows in its messages.
      await refollow(id);
      deps.announce({ type: 'changed', resource: 'remote', id });
      return present(next);
    },

    async delete(id: string): Promise<void> {
      find(id);
      // In the remote's queue: its follower stopped first, so none writes for a remote that is gone.
      await queued(id, async () => {
        await unfollow(id);
        if (store.remotes.get(id)) store.transaction(() => store.remotes.delete(id));
      });
      for (const [resource, owner] of owners) if (owner === id) owners.delete(resource);
      deps.announce({ type: 'changed', resource: 'remote', id });
    },

    check,

    /** Every remote instance, as shown here (made again only when they or a connection changed: every feed poll asks). */
    instances(): Instance[] {
      if (shown?.writes === store.remotes.writes()) return shown.instances;
      const urls = new Map(store.remotes.list().map((remote) => [remote.id, remote.url]));
      const instances = store.remotes.instances().map(({ remoteId, instance }) => presentInstance(remoteId, instance, urls.get(remoteId)));
      shown = { writes: store.remotes.writes(), instances };
      return instances;
    },
    instance(id: string): Instance | undefined {
      const found = store.remotes.instance(id);
      return found && presentInstance(found.remoteId, found.instance);
    },
    /** The newest runs of the remotes connected now, newest first: what the tray shows beside this Steward's. */
    recentRuns(): Run[] {
      const runs = [...recent].flatMap(([remoteId, kept]) => (connectionOf(remoteId).state === 'connected' ? [...kept.values()] : []));
      return runs.sort((a, b) => (a.id < b.id ? 1 : -1));
    },
    /** The remote an instance runs on, if it is a remote one. */
    locationOf: (instanceId: string): string | undefined => store.remotes.instance(instanceId)?.remoteId,
    /** The remote known to own a run, thread, automation, webhook, delivery or approval. */
    ownerOf: (id: string): string | undefined => owners.get(id),
    /** The remotes calls may go to now (connected, or still connecting). */
    reachable: (): string[] => store.remotes.list().flatMap((remote) => (['connected', 'connecting'].includes(connectionOf(remote.id).state) ? [remote.id] : [])),

    /** Calls an operation on a remote with the caller's input as given; its answer, or its error naming it. */
    async forward(remoteId: string, operation: Operation, raw: RawInput, timeoutMs?: number): Promise<unknown> {
      const record = find(remoteId);
      const connection = connectionOf(remoteId);
      if (connection.state !== 'connected' && connection.state !== 'connecting') {
        const code = connection.state === 'unauthorized' ? 'remote_unauthorized' : connection.state === 'incompatible' ? 'remote_incompatible' : 'remote_unreachable';
        throw new AppError(code, `${connection.error} (since ${connection.since})`);
      }
      const path = fillPath(operation, raw.params as Record<string, unknown> | undefined);
      const output = await clientOf(await loadClient(), record).call(operation.method, path, { query: raw.query as Record<string, unknown>, body: raw.body, ...(timeoutMs ? { timeoutMs } : {}) });
      own(remoteId, idsIn(output));
      // An instance it answers with is shown as one here, and kept as it now is.
      const answer = output as { instance?: Instance } | undefined;
      if (answer?.instance) {
        store.transaction(() => store.remotes.putInstance(remoteId, answer.instance!, isoNow(context)));
        return { ...answer, instance: presentInstance(remoteId, answer.instance, record.url) };
      }
      return output;
    },

    /** Forgets a remote instance deleted there. */
    forget(instanceId: string): void {
      store.transaction(() => store.remotes.deleteInstance(instanceId));
    },

    start(): void {
      started = true;
      for (const record of store.remotes.list()) refollow(record.id).catch(() => {});
    },
    /** Resolves once every follower has stopped, those a change still in a queue would start included. */
    async stop(): Promise<void> {
      started = false;
      const ids = new Set([...followers.keys(), ...queues.keys(), ...store.remotes.list().map((remote) => remote.id)]);
      await Promise.all([...ids].map((id) => queued(id, () => unfollow(id))));
    },
  };
}

export type RemotesService = ReturnType<typeof createRemotesService>;

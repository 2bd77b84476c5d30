// Which operations reach a remote Steward, and how: one table. An operation naming a remote
// instance (in its path, body or query) goes to that remote; one naming a run, thread, automation,
// webhook, delivery or approval is answered here when it is this Steward's, else by the remote
// that owns it; lists of those are merged. Everything else (keys, secrets, settings, remotes
// themselves, the feed, which is kept here) is only ever this Steward's.
import { type Operation, type OperationName, operations } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import type { Caller } from '../caller';
import type { RawInput } from '../dispatch';
import type { MappedName } from '../handlers';
import type { RemotesService } from '../services/remotes';

type Route =
  /** The instance named by the path's id. */
  | { by: 'instance' }
  /** The instance named by body.instanceId. */
  | { by: 'bodyInstance' }
  /** A resource named by the path's id: here first, else its owner; `collection` is where a remote is asked whether it has it. */
  | { by: 'resource'; collection: string }
  /** A list: of the instance named by query.instanceId, else this Steward's and every reachable remote's, merged. */
  | { by: 'list'; key: string; order: (a: Record<string, unknown>, b: Record<string, unknown>) => number; limit: boolean };

const newestId = (a: Record<string, unknown>, b: Record<string, unknown>) => (String(b.id) < String(a.id) ? -1 : String(b.id) > String(a.id) ? 1 : 0);
const text = (value: unknown) => (typeof value === 'string' ? value : '');
const newestActivity = (a: Record<string, unknown>, b: Record<string, unknown>) => text(b.lastActivityAt).localeCompare(text(a.lastActivityAt)) || newestId(a, b);
const oldestFirst = (a: Record<string, unknown>, b: Record<string, unknown>) => text(a.createdAt).localeCompare(text(b.createdAt)) || -newestId(a, b);

const resource = (collection: string): Route => ({ by: 'resource', collection });

export const routes: Partial<Record<MappedName, Route>> = {
  'instances.update': { by: 'instance' },
  'instances.delete': { by: 'instance' },
  'instances.start': { by: 'instance' },
  'instances.stop': { by: 'instance' },
  'instances.restart': { by: 'instance' },
  'automations.create': { by: 'bodyInstance' },
  'webhooks.create': { by: 'bodyInstance' },
  'runs.create': { by: 'bodyInstance' },
  'automations.list': { by: 'list', key: 'automations', order: oldestFirst, limit: false },
  'webhooks.list': { by: 'list', key: 'webhooks', order: oldestFirst, limit: false },
  'runs.list': { by: 'list', key: 'runs', order: newestId, limit: true },
  'threads.list': { by: 'list', key: 'threads', order: newestActivity, limit: true },
  'approvals.list': { by: 'list', key: 'approvals', order: newestId, limit: true },
  'automations.get': resource('automations'),
  'automations.update': resource('automations'),
  'automations.delete': resource('automations'),
  'automations.run': resource('automations'),
  'automations.fires': resource('automations'),
  'automations.spend': resource('automations'),
  'webhooks.get': resource('webhooks'),
  'webhooks.update': resource('webhooks'),
  'webhooks.test': resource('webhooks'),
  'webhooks.delete': resource('webhooks'),
  'deliveries.list': resource('webhooks'),
  'deliveries.get': resource('deliveries'),
  'deliveries.replay': resource('deliveries'),
  'runs.get': resource('runs'),
  'runs.messages': resource('runs'),
  'runs.cancel': resource('runs'),
  'threads.get': resource('threads'),
  'approvals.get': resource('approvals'),
  'approvals.decide': resource('approvals'),
};

/** How long a merged list waits for a remote before leaving it out. */
const listWaitMs = 5_000;

/** An agent's run (its key, or the built-in agent's Steward tools): it never reaches another Steward. */
const isAgent = (caller: Caller) => caller.runId !== undefined || caller.instanceId !== undefined;

export function createRemoteRouting(remotes: RemotesService) {
  /** Refused for an agent's run: what a stranger's webhook started stays on this machine. */
  function assertMayForward(caller: Caller, operation: Operation): void {
    if (isAgent(caller)) {
      throw new AppError('forbidden', `An agent's run cannot call ${operation.name} on another Steward's instances: only a person's key or the app can.`);
    }
  }

  async function ownerOf(id: string, collection: string): Promise<string | undefined> {
    const known = remotes.ownerOf(id);
    if (known) return known;
    // Not seen yet: ask every reachable remote whether it has it (ids are unique across Stewards).
    const probe = operations[`${collection}.get` as OperationName] as Operation;
    const answers = await Promise.allSettled(remotes.reachable().map(async (remoteId) => (await remotes.forward(remoteId, probe, { params: { id } }, listWaitMs), remoteId)));
    return answers.find((answer) => answer.status === 'fulfilled')?.value;
  }

  /** This Steward's list and every reachable remote's, in the list's order; a remote that fails or is slow is left out (its state says why). */
  async function merged(name: MappedName, route: Extract<Route, { by: 'list' }>, limit: number | undefined, raw: RawInput, local: () => Promise<unknown>): Promise<unknown> {
    type Answer = Record<string, Record<string, unknown>[]>;
    const [here, ...there] = await Promise.allSettled([local(), ...remotes.reachable().map((remoteId) => remotes.forward(remoteId, operations[name], raw, listWaitMs))]);
    if (here.status === 'rejected') throw here.reason;
    const items = [...(here.value as Answer)[route.key]];
    for (const answer of there) if (answer.status === 'fulfilled') items.push(...((answer.value as Answer)[route.key] ?? []));
    items.sort(route.order);
    return { ...(here.value as Answer), [route.key]: limit === undefined ? items : items.slice(0, limit) };
  }

  /** Answers an operation here (`local`) or on the remote it belongs to. */
  async function route(name: MappedName, input: { query?: unknown }, raw: RawInput, caller: Caller, local: () => Promise<unknown>): Promise<unknown> {
    const rule = routes[name];
    if (!rule) return local();
    const operation = operations[name] as Operation;
    const params = (raw.params ?? {}) as Record<string, unknown>;
    const body = (raw.body ?? {}) as Record<string, unknown>;
    const query = (raw.query ?? {}) as Record<string, unknown>;

    if (rule.by === 'instance' || rule.by === 'bodyInstance') {
      const instanceId = rule.by === 'instance' ? params.id : body.instanceId;
      const remoteId = typeof instanceId === 'string' ? remotes.locationOf(instanceId) : undefined;
      if (!remoteId) return local();
      assertMayForward(caller, operation);
      const output = await remotes.forward(remoteId, operation, raw);
      if (name === 'instances.delete') remotes.forget(instanceId as string);
      return output;
    }

    if (rule.by === 'list') {
      const instanceId = query.instanceId;
      const remoteId = typeof instanceId === 'string' ? remotes.locationOf(instanceId) : undefined;
      if (remoteId) {
        assertMayForward(caller, operation);
        return remotes.forward(remoteId, operation, raw);
      }
      // A run's key sees this Steward's own; so does a list of one local instance.
      if (typeof instanceId === 'string' || isAgent(caller) || remotes.reachable().length === 0) return local();
      const limit = (input.query as { limit?: number } | undefined)?.limit;
      return merged(name, rule, rule.limit ? limit : undefined, raw, local);
    }

    // A resource: this Steward's own, or else a remote's. One that names a remote instance to move
    // to is looked for there (and refused if it is here).
    const movesTo = typeof body.instanceId === 'string' ? remotes.locationOf(body.instanceId) : undefined;
    if (movesTo) assertMayForward(caller, operation);
    try {
      if (movesTo) throw new AppError('not_found', `No ${rule.collection.replace(/s$/, '')} ${String(params.id)} here.`);
      return await local();
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'not_found' || typeof params.id !== 'string') throw error;
      if (isAgent(caller)) throw error;
      const owner = await ownerOf(params.id, rule.collection);
      if (!owner) {
        if (typeof body.instanceId === 'string' && remotes.locationOf(body.instanceId)) {
          throw new AppError('cross_location', `${params.id} is on this Steward and ${body.instanceId} on a remote one: an automation or webhook stays where it was made; create it on that instance instead.`, { field: 'instanceId' });
        }
        throw error;
      }
      if (typeof body.instanceId === 'string' && remotes.locationOf(body.instanceId) !== owner) {
        throw new AppError('cross_location', `${params.id} lives on another Steward than ${body.instanceId}: an automation or webhook stays where it was made; create it on that instance instead.`, { field: 'instanceId' });
      }
      return remotes.forward(owner, operation, raw);
    }
  }

  return { route };
}

export type RemoteRouting = ReturnType<typeof createRemoteRouting>;

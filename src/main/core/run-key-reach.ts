// What an agent's run reaches through Steward's operations (its own key over HTTP or MCP, or the
// built-in agent's steward tools), in one place. The contract declares each operation's reach
// (`runKey`: self, own, prompts; none: refused, caller.ts); this module knows what each one's input
// names and checks it before the handler runs, narrows lists to the run's own instance, and takes
// every agent.env value out of the answer. Whatever names another instance's resource is 404, as an
// id that does not exist would be: the run cannot tell the two apart.
import { type Instance, type OperationName, type Run, operations } from '../../shared/contract';
import { lessConfinedBy } from '../../shared/confinement';
import { withoutEnvValues } from '../../shared/env-values';
import { AppError } from '../../shared/errors';
import { type Caller, isRunCaller } from './caller';
import type { Store } from './store';

type Kind = 'instance' | 'automation' | 'webhook' | 'delivery' | 'run' | 'thread' | 'approval';

interface Input {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: Record<string, unknown> | undefined;
}

type Answer = Record<string, unknown>;

/** What one run's caller reaches, asked while one call is answered. */
interface Reach {
  own: Instance;
  /** An instance it may name: its own; for `prompts` also one that accepts its prompts. */
  instance(id: string): boolean;
  /** A resource, by what its id names. */
  has(kind: Exclude<Kind, 'instance'>, id: string): boolean;
}

interface Confinement {
  /** The resource its path's id names. */
  path?: Kind;
  /** Its body's instanceId names an instance; a create's is the run's own when it names none. */
  bodyInstance?: 'create' | 'move';
  /** Its query's instance filter: the run's own when absent, another is refused. */
  query?: 'instanceId' | 'instanceIds';
  /** What of its answer the run may see (a list's items of its own instance). */
  answer?: (output: Answer, reach: Reach) => Answer;
}

const keep = (key: string, test: (item: Record<string, unknown>, reach: Reach) => boolean) => (output: Answer, reach: Reach): Answer => ({
  ...output,
  [key]: (output[key] as Record<string, unknown>[]).filter((item) => test(item, reach)),
});
const ofOwn = (key: string) => keep(key, (item, reach) => item.instanceId === reach.own.id);
const ownKeys = (record: unknown, reach: Reach) => Object.fromEntries(Object.entries((record ?? {}) as Record<string, unknown>).filter(([id]) => id === reach.own.id));

/** Per operation that declares a reach: what its input names and how its answer is narrowed. */
const confinements: Partial<Record<OperationName, Confinement>> = {
  'automations.list': { answer: ofOwn('automations') },
  'automations.create': { bodyInstance: 'create' },
  'automations.get': { path: 'automation' },
  'automations.update': { path: 'automation', bodyInstance: 'move' },
  'automations.delete': { path: 'automation' },
  'automations.fires': { path: 'automation' },
  'automations.spend': { path: 'automation' },
  'webhooks.list': { answer: ofOwn('webhooks') },
  'webhooks.create': { bodyInstance: 'create' },
  'webhooks.get': { path: 'webhook' },
  'webhooks.update': { path: 'webhook', bodyInstance: 'move' },
  'webhooks.delete': { path: 'webhook' },
  'deliveries.list': { path: 'webhook' },
  'deliveries.get': { path: 'delivery' },
  'instances.list': { answer: keep('instances', (item, reach) => reach.instance(String(item.id))) },
  'instances.get': { path: 'instance' },
  'instances.activity': { path: 'instance' },
  'runs.list': { query: 'instanceId', answer: ofOwn('runs') },
  'runs.create': { bodyInstance: 'create' },
  'runs.get': { path: 'run' },
  'runs.messages': { path: 'run' },
  'runs.cancel': { path: 'run' },
  'runs.reportOutcome': {},
  'threads.list': { query: 'instanceId', answer: keep('threads', (item, reach) => reach.has('thread', String(item.id))) },
  'threads.get': { path: 'thread' },
  'approvals.list': { query: 'instanceId', answer: ofOwn('approvals') },
  'approvals.get': { path: 'approval' },
  'approvals.ask': {},
  'approvals.permission': {},
  'activity.list': {
    query: 'instanceIds',
    answer: (output, reach) => ({
      ...ofOwn('events')(output, reach),
      instances: (output.instances as { id: string }[]).filter((item) => item.id === reach.own.id),
      cursors: ownKeys(output.cursors, reach),
      skipped: ownKeys(output.skipped, reach),
    }),
  },
};

/** The operations that declare a reach for a run's key but that this module does not know: refused (a test keeps it empty). */
export const unconfined = (Object.keys(operations) as OperationName[]).filter((name) => operations[name].runKey !== undefined && confinements[name] === undefined);

const notFound = (kind: Kind, id: string) => new AppError('not_found', `No ${kind} ${id}.`);

/** Every agent configuration in an answer without its env values, activity lines' raw JSON included. */
function withoutEnv(value: unknown, key?: string): unknown {
  if (typeof value === 'string') {
    if (key !== 'raw' || !value.includes('"env"')) return value;
    try {
      return JSON.stringify(withoutEnv(JSON.parse(value)));
    } catch {
      return value;
    }
  }
  if (Array.isArray(value)) return value.map((item) => withoutEnv(item));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).map(([name, each]) => {
    const agent = name === 'agent' && each !== null && typeof each === 'object' && typeof (each as { provider?: unknown }).provider === 'string';
    return [name, agent ? withoutEnvValues(withoutEnv(each) as Instance['agent']) : withoutEnv(each, name)];
  });
  return Object.fromEntries(entries);
}

export function createRunKeyReach(store: Store) {
  function reachOf(caller: Caller, prompts: boolean): Reach {
    const own = caller.instanceId === undefined ? undefined : store.instances.get(caller.instanceId);
    if (!own) throw new AppError('forbidden', "This run's instance no longer exists: its key reaches nothing.");
    const accepts = (target: Instance | undefined) =>
      target !== undefined && (target.id === own.id || (prompts && target.acceptsPromptsFrom.includes(own.id) && lessConfinedBy(target, own) === undefined));
    const instanceOf: Record<Exclude<Kind, 'instance' | 'run' | 'thread'>, (id: string) => string | undefined> = {
      automation: (id) => store.automations.get(id)?.instanceId,
      webhook: (id) => store.webhooks.get(id)?.instanceId,
      delivery: (id) => {
        const webhookId = store.deliveries.get(id)?.webhookId;
        return webhookId === undefined ? undefined : store.webhooks.get(webhookId)?.instanceId;
      },
      approval: (id) => store.approvals.get(id)?.instanceId,
    };
    /** A run of its own instance; for `prompts`, also one a run of its own instance sent to an instance that accepts it. */
    const runWithin = (run: Run | undefined) => {
      if (!run) return false;
      if (run.instanceId === own.id) return true;
      const parent = run.parentRunId ? store.runs.get(run.parentRunId) : undefined;
      return parent?.instanceId === own.id && accepts(store.instances.get(run.instanceId));
    };
    /** A thread its own instance owns: its chat, or the thread of one of its automations or webhooks. */
    const threadWithin = (id: string) => {
      const thread = store.threads.get(id, 0, 1);
      if (!thread) return false;
      if (thread.ownerType === 'chat') return thread.ownerId === own.id;
      const owner = thread.ownerId === null ? undefined : instanceOf[thread.ownerType](thread.ownerId);
      return owner === own.id;
    };
    return {
      own,
      instance: (id) => accepts(store.instances.get(id)),
      has: (kind, id) => (kind === 'run' ? runWithin(store.runs.get(id)) : kind === 'thread' ? threadWithin(id) : instanceOf[kind](id) === own.id),
    };
  }

  return {
    /**
     * For a run's caller: checks what the input names (404 for what is not within its reach),
     * narrows it to its own instance, and returns what to do with the answer; undefined for anyone else.
     */
    confine(name: OperationName, input: Input, caller: Caller): ((output: unknown) => unknown) | undefined {
      if (!isRunCaller(caller)) return undefined;
      const reachKind = operations[name].runKey;
      const confinement = confinements[name];
      // caller.ts refuses an operation without a reach; one this table does not know is refused too.
      if (reachKind === undefined || confinement === undefined) throw new AppError('forbidden', `A run's key reaches its own instance only: it cannot call ${name}.`);
      const reach = reachOf(caller, reachKind === 'prompts');
      const { path } = confinement;
      if (path !== undefined) {
        const id = String(input.params.id);
        if (path === 'instance' ? !reach.instance(id) : !reach.has(path, id)) throw notFound(path, id);
      }
      if (confinement.bodyInstance && input.body) {
        if (confinement.bodyInstance === 'create') input.body.instanceId ??= reach.own.id;
        const named = input.body.instanceId;
        if (typeof named === 'string' && !reach.instance(named)) throw notFound('instance', named);
        // A prompt continues a chat of its own instance only; another instance's gets a new thread.
        const thread = input.body.threadId;
        if (typeof thread === 'string' && (named !== reach.own.id || !reach.has('thread', thread))) throw notFound('thread', thread);
      }
      if (confinement.query) {
        const named = input.query[confinement.query] as string | string[] | undefined;
        const ids = named === undefined ? [] : Array.isArray(named) ? named : [named];
        const other = ids.find((each) => each !== reach.own.id);
        if (other !== undefined) throw notFound('instance', other);
        input.query[confinement.query] = confinement.query === 'instanceIds' ? [reach.own.id] : reach.own.id;
      }
      return (output) => {
        const narrowed = confinement.answer && output !== undefined ? confinement.answer(output as Answer, reach) : output;
        return withoutEnv(narrowed);
      };
    },
  };
}

export type RunKeyReach = ReturnType<typeof createRunKeyReach>;

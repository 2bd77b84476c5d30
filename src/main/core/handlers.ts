// The handler map: each contract operation to the service call that answers it. HTTP routes (and
// the desktop IPC router) dispatch through this map and nothing else. Handlers that an agent's run
// may call take the caller: what it starts is its child (what it reaches is checked before, in
// run-key-reach.ts), and a webhook shown to it has no token.
import { type AutomationTrigger, type ConfigFile, type ConfigPlan, type OperationInput, type OperationOutput, type Operations, configJsonSchema, contractVersion, eventKindOf, operations } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import type { Caller } from './caller';
import type { MappedName } from './operation-call';
import type { Services } from './compose-services';

export type { MappedName } from './operation-call';

export type Handlers = {
  [K in MappedName]: (input: OperationInput<Operations[K]>, caller: Caller) => OperationOutput<Operations[K]> | Promise<OperationOutput<Operations[K]>>;
};

export interface HandlerMeta {
  version: string;
  startedAt: number;
  openApiDocument: () => Record<string, unknown>;
  dataDir: string;
  apiUrl: () => string;
}

/** A decision from the app (the desktop window, a browser session) or over the API (a key). */
const deciderOf = (caller: Caller) => (caller.credential === undefined || caller.credential.startsWith('session:') ? 'ui' : 'api');

/**
 * An event source is Steward reaching out on the automation's behalf (a folder, a repository, a
 * mail server with a stored secret, a URL), outside any sandbox: an agent's run may not make or
 * point one, or it could read past its walls or send a secret to a host of its choosing.
 */
function assertSourceMadeByPerson(trigger: AutomationTrigger | undefined, caller: Caller): void {
  const kind = eventKindOf(trigger ?? null);
  if (kind !== undefined && caller.runId !== undefined) {
    throw new AppError('forbidden', `An agent's run cannot make or change a ${kind} trigger: Steward itself would reach what it names, outside the run's sandbox. A person makes those, in the app or with an API key.`);
  }
}

/** A remote Steward by its name or id (`--remote NAME`). */
function remoteIdOf(services: Services, nameOrId: string): string {
  const found = services.remotes.list().find((remote) => remote.id === nameOrId || remote.name === nameOrId);
  if (!found) throw new AppError('not_found', `No remote Steward named ${nameOrId} (see steward remotes list).`, { field: 'remote' });
  return found.id;
}

export function createHandlers(services: Services, meta: HandlerMeta): Handlers {
  const { automations, webhooks, deliveries, instances, runs, apiKeys, scheduler, tunnel, runner, secrets, activity, settings } = services;
  return {
    'health.get': () => {
      const problem = services.storage.current();
      const uptimeSeconds = Math.round((Date.now() - meta.startedAt) / 1000);
      const facts = { version: meta.version, contract: contractVersion, uptimeSeconds };
      return problem ? { status: 'degraded', reason: `${problem.code}: ${problem.message}`, ...facts } : { status: 'ok', ...facts };
    },
    'openapi.get': () => meta.openApiDocument(),
    'system.get': () => ({ system: { version: meta.version, dataDir: meta.dataDir, apiUrl: meta.apiUrl() } }),

    'automations.list': () => ({ automations: automations.list() }),
    'automations.create': ({ body }, caller) => {
      assertSourceMadeByPerson(body.trigger, caller);
      return { automation: automations.create(body, runs.parentFor(caller)) };
    },
    'automations.get': ({ params }) => ({ automation: automations.get(params.id) }),
    'automations.update': ({ params, body }, caller) => {
      assertSourceMadeByPerson(body.trigger, caller);
      return { automation: automations.update(params.id, body) };
    },
    'automations.delete': ({ params }) => automations.delete(params.id),
    'automations.run': ({ params }) => ({ run: automations.runNow(params.id) }),
    'automations.preview': async ({ body }) => ({ events: await services.sources.preview(body.trigger, body.timezone) }),
    'automations.fires': ({ params, query }) => ({ fires: services.fires.list(params.id, query) }),
    'automations.spend': ({ params }) => ({ spend: services.spend(params.id) }),
    'agenda.get': ({ query }) => ({ agenda: services.agenda.get(query) }),

    'approvals.list': ({ query }, caller) => ({ approvals: services.approvals.list(query, caller) }),
    'approvals.get': ({ params }, caller) => ({ approval: services.approvals.get(params.id, caller) }),
    'approvals.decide': ({ params, body }, caller) => ({ approval: services.approvals.decide(params.id, body, deciderOf(caller), caller) }),
    'approvals.ask': async ({ body }, caller) => {
      const { record, answer } = await services.approvals.question(caller, body);
      return { answer, approval: services.approvals.present(record, caller) };
    },
    'approvals.permission': async ({ body }, caller) => services.approvals.permission(caller, body),
    'scheduler.get': () => ({ scheduler: scheduler.state() }),
    'scheduler.update': ({ body }) => {
      scheduler.setPaused(body.paused);
      return { scheduler: scheduler.state() };
    },

    'webhooks.list': (_input, caller) => ({ webhooks: webhooks.list(caller.instanceId) }),
    'webhooks.create': ({ body }, caller) => ({ webhook: webhooks.shownTo(webhooks.create(body, runs.parentFor(caller)), caller.instanceId) }),
    'webhooks.get': ({ params }, caller) => ({ webhook: webhooks.get(params.id, caller.instanceId) }),
    'webhooks.update': ({ params, body }, caller) => ({ webhook: webhooks.shownTo(webhooks.update(params.id, body), caller.instanceId) }),
    'webhooks.test': ({ params, body }) => deliveries.test(params.id, body.payload),
    'webhooks.delete': ({ params }) => webhooks.delete(params.id),
    'deliveries.list': ({ params, query }) => deliveries.list(params.id, query),
    'deliveries.get': ({ params }) => ({ delivery: deliveries.get(params.id) }),
    'deliveries.replay': ({ params, body }) => deliveries.replay(params.id, body.force),

    'instances.list': ({ query }) => ({ instances: instances.list(query.location) }),
    'instances.create': ({ body }) => ({ instance: instances.create(body) }),
    'instances.get': ({ params }) => ({ instance: instances.get(params.id) }),
    'instances.update': ({ params, body }) => ({ instance: instances.update(params.id, body) }),
    'instances.delete': ({ params, query }) => instances.delete(params.id, query.force === 'true'),
    'instances.start': ({ params }) => ({ instance: instances.start(params.id) }),
    'instances.stop': ({ params }) => ({ instance: instances.stop(params.id) }),
    'instances.restart': ({ params }) => ({ instance: instances.restart(params.id) }),
    'agents.detect': ({ query }) => services.agents.detect(query.baseUrl),

    'runs.list': ({ query }) => ({ runs: runs.list(query) }),
    'runs.create': ({ body }, caller) => ({ run: runs.create(body, runs.parentFor(caller)) }),
    'runs.get': ({ params }) => {
      const run = runs.get(params.id);
      return { run, queue: runs.queueOf(run) };
    },
    'runs.messages': ({ params, query }) => runs.messages(params.id, query),
    'runs.cancel': ({ params }) => ({ run: runner.cancel(params.id) }),
    'runs.reportOutcome': ({ body }, caller) => ({ run: services.outcomes.report(caller, body) }),
    'threads.list': ({ query }) => ({ threads: runs.threads(query) }),
    'threads.get': ({ params, query }) => ({ thread: runs.thread(params.id, query) }),

    'activity.list': ({ query }) => activity.feed(query),
    'instances.activity': ({ params, query }) => activity.instanceLines(params.id, query),

    'keys.list': () => ({ apiKeys: apiKeys.list() }),
    'keys.create': ({ body }) => apiKeys.create(body.name, body.scope),
    'keys.revoke': ({ params }) => apiKeys.revoke(params.id),

    'settings.get': () => ({ settings: settings.get() }),
    'settings.update': ({ body }) => ({ settings: settings.update(body) }),

    'secrets.list': () => ({ secrets: secrets.list() }),
    'secrets.put': ({ params, body }) => ({ secret: secrets.put(params.name, body.value) }),
    'secrets.delete': ({ params }) => secrets.delete(params.name),

    'notifications.list': () => ({ channels: services.notifications.list() }),
    'notifications.create': ({ body }) => services.notifications.create(body),
    'notifications.get': ({ params }) => ({ channel: services.notifications.get(params.id) }),
    'notifications.update': ({ params, body }) => services.notifications.update(params.id, body),
    'notifications.delete': ({ params }) => services.notifications.delete(params.id),
    'notifications.test': async ({ params }) => ({ delivery: await services.notifications.test(params.id) }),
    'notifications.deliveries': ({ params, query }) => services.notifications.deliveries(params.id, query),
    'notifications.forRun': ({ params }) => ({ deliveries: services.notifications.forRun(params.id) }),

    'remotes.list': () => ({ remotes: services.remotes.list() }),
    'remotes.create': ({ body }) => ({ remote: services.remotes.create(body) }),
    'remotes.check': async ({ body }) => ({ check: await services.remotes.check(body) }),
    'remotes.get': ({ params }) => ({ remote: services.remotes.get(params.id) }),
    'remotes.update': async ({ params, body }) => ({ remote: await services.remotes.update(params.id, body) }),
    'remotes.delete': ({ params }) => services.remotes.delete(params.id),

    'config.get': () => ({ config: services.config.state() }),
    'config.setFolder': async ({ body }) => ({ config: await services.config.setFolder(body.folder) }),
    'config.export': async ({ query: { remote, ...query } }) => {
      if (remote !== undefined) return (await services.remotes.forward(remoteIdOf(services, remote), operations['config.export'], { query })) as { files: ConfigFile[] };
      return { files: await services.config.export(query) };
    },
    'config.apply': async ({ query, body }) => {
      if (query.remote !== undefined) return (await services.remotes.forward(remoteIdOf(services, query.remote), operations['config.apply'], { body })) as ConfigPlan;
      return services.config.apply(body.files, { dryRun: body.dryRun, prune: body.prune, folder: body.folder });
    },
    'config.detach': ({ params }) => services.config.detach(params.id),
    'config.writeBack': async ({ params }) => ({ file: await services.config.writeBack(params.id) }),
    'config.schema': () => configJsonSchema(),

    'tunnel.get': () => ({ tunnel: tunnel.state() }),
    'tunnel.configure': async ({ body }) => ({ tunnel: await tunnel.configure(body) }),
    'tunnel.start': async () => ({ tunnel: await tunnel.start() }),
    'tunnel.stop': async () => ({ tunnel: await tunnel.stop() }),
  };
}

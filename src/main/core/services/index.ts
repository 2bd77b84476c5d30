// All services, wired to one context.
import path from 'node:path';
import { adminCaller } from '../caller';
import { createRunSandboxes, probeIdOf, removeLeftoverProbeDirs } from '../runner/run-sandbox';
import { createRunner } from '../runner/runner';
import { createScheduler } from '../scheduler/scheduler';
import { createSecretBox } from '../secrets';
import { createTunnel } from '../tunnel/tunnel';
import { createActivityService } from './activity';
import { createAgendaService } from './agenda';
import { createAgentDetector } from './agent-detect';
import { createApiKeysService } from './api-keys';
import { createKeyWatch } from './key-watch';
import { createApprovalsService } from './approvals';
import { createAutomationsService } from './automations';
import { createCommitBatcher } from './commit-batcher';
import { createCredentialHolds } from './credential-holds';
import type { ServiceContext } from './context';
import { createDeliveriesService } from './deliveries';
import { createDeliveryLog } from './delivery-log';
import { createFiresService } from './fires';
import { createInstancesService } from './instances';
import { type InstanceDirectory, createLiveEvents } from './live-events';
import { createRemotesService } from './remotes';
import { defaultRemoteTiming } from '../remotes/follower';
import { createRemoteRouting } from '../remotes/routing';
import { createRunKeyReach } from '../run-key-reach';
import { operations } from '../../../shared/contract';
import { createNotificationChannelsService } from './notification-channels';
import { createOutcomesService } from './outcomes';
import { createNotificationDispatcher, defaultNotificationTiming } from './notification-dispatcher';
import { linkBase } from './alerts';
import { createRunNotifier } from './run-notifier';
import { createRunsService } from './runs';
import { createSecretsService } from './secrets';
import { createSettingsService } from './settings';
import { automationSpend } from './spend';
import { createTriggersService } from './triggers';
import { createWebhookDirectory } from './webhook-directory';
import { createWebAccess } from './web-access';
import { createWebhooksService } from './webhooks';

export function createServices(context: ServiceContext) {
  const { store } = context;
  const box = createSecretBox(context.dataDir);
  const secrets = createSecretsService(context, box);
  // What keys hold open ends with them; `apiKeys` is made next, and asked only later.
  const holds = createCredentialHolds({ revokedAmong: (credentials) => apiKeys.revokedAmong(credentials) });
  const apiKeys = createApiKeysService(context, holds);
  const revealSecret = (name: string) => secrets.reveal(name);
  const runner = createRunner({
    store,
    clock: context.clock,
    logger: context.logger,
    revealSecret,
    runKeys: { issue: (run) => apiKeys.createForRun(run), revoke: (runId) => apiKeys.revokeForRun(runId) },
    apiUrl: context.baseUrl,
    dataDir: context.dataDir,
    // The tunnel is made below; a run starts only once everything is.
    publicUrl: () => tunnel.publicUrl(),
    onRunEnded: (runId) => approvals.expireForRun(runId),
    askPerson: (runId, ask) => approvals.ask(runId, ask),
  });
  // What queued runs may also have made: before-run approvals, whose expiry the approvals' timer keeps.
  const runsQueued = () => {
    runner.nudge();
    approvals.arm();
  };
  const runs = createRunsService(context, runsQueued);
  // Decision links work from a phone: through the tunnel while it is up.
  const approvals = createApprovalsService(context, { runsQueued, linkBase: () => tunnel.publicUrl() ?? linkBase(context) });
  approvals.useHooks({ waiting: (runId, waiting) => runner.waiting(runId, waiting) });
  // Probes start the agent's program as a run would, in a private folder of their own where the runs keep theirs.
  const runsDir = path.join(context.dataDir, 'runs');
  removeLeftoverProbeDirs(runsDir);
  const probeSandboxes = createRunSandboxes({ store, dataDir: context.dataDir, runsDir, publicUrl: () => tunnel.publicUrl() });
  const instances = createInstancesService(context, {
    revealSecret,
    runsQueued,
    cancelRun: (id) => void runner.cancel(id),
    openProbePlace: (instance) => probeSandboxes.openForProbe(instance, probeIdOf(instance.id)),
  });
  const webhookDirectory = createWebhookDirectory(context.store);
  const scheduler = createScheduler({ store, clock: context.clock, logger: context.logger, onRunsQueued: runsQueued });
  const tunnel = createTunnel({
    store: context.store,
    clock: context.clock,
    logger: context.logger,
    secrets: box,
    startListener: context.startTriggerListener ?? (() => Promise.reject(new Error('this core serves no HTTP'))),
  });
  const deliveryLog = createDeliveryLog(context);
  // Remotes announce what their Stewards announce, through the live events made below.
  const remotes = createRemotesService(context, {
    reveal: revealSecret,
    storeSecret: (name, value) => void secrets.put(name, value),
    announce: (event) => {
      live.publish(event);
      if (event.type === 'run') notifier.remoteRunEnded(event.run);
    },
    timing: { ...defaultRemoteTiming, ...context.remoteTiming },
  });
  const directory: InstanceDirectory = {
    get: (id) => store.instances.get(id) ?? remotes.instance(id),
    all: () => [...store.instances.list(), ...remotes.instances()],
  };
  const activity = createActivityService(context, directory, () => deliveryLog.trim());
  const live = createLiveEvents(context, activity, directory);
  const keyWatch = createKeyWatch({ ids: () => apiKeys.list().map((key) => key.id), announce: (id) => live.publish({ type: 'changed', resource: 'apiKey', id }) });
  const triggers = createTriggersService(context, runs, createCommitBatcher(context.store), webhookDirectory, box, deliveryLog, runsQueued);
  const dispatcher = createNotificationDispatcher({ store, logger: context.logger, box, revealSecret, now: context.now, timing: context.notificationTiming ?? defaultNotificationTiming });
  const notifier = createRunNotifier(context, dispatcher, {
    presentApproval: (record) => approvals.present(record, adminCaller),
    remoteInstance: (id) => remotes.instance(id),
    remoteSourceName: async (run) => {
      const remoteId = remotes.locationOf(run.instanceId);
      if (!remoteId || !run.sourceId || (run.source !== 'automation' && run.source !== 'webhook')) return undefined;
      const answer = (await remotes.forward(remoteId, operations[`${run.source}s.get`], { params: { id: run.sourceId } })) as Record<string, { name?: string }>;
      return answer[run.source]?.name;
    },
  });
  const channels = createNotificationChannelsService(context, { box, dispatcher, notifier, secretExists: (name) => store.secrets.get(name) !== undefined });
  // Logged when it starts and when it ends, not once per refused request.
  store.storage.onChange((problem) => {
    if (problem) context.logger.error({ code: problem.code }, problem.message);
    else context.logger.info('storage is writable again');
  });
  return {
    storage: store.storage,
    activity,
    agents: createAgentDetector({ runsDir }),
    settings: createSettingsService(context, runsQueued),
    live,
    remotes,
    /** Where an operation is answered: here, or on the remote Steward it belongs to. */
    route: createRemoteRouting(remotes).route,
    /** What an agent's run reaches through the operations: its own instance. */
    runKeyReach: createRunKeyReach(store),
    /** Every instance, this Steward's and its remotes'. */
    directory,
    secrets,
    runs,
    approvals,
    outcomes: createOutcomesService(context),
    instances: {
      ...instances,
      /** This Steward's instances, and its remotes' unless only `local` ones are asked for. */
      list: (location: 'local' | 'all' = 'all') => (location === 'local' ? instances.list() : directory.all()),
      /** This Steward's instance, or a remote's as last seen. */
      get: (id: string) => remotes.instance(id) ?? instances.get(id),
    },
    scheduler,
    runner,
    tunnel,
    automations: createAutomationsService(context, instances, runs, scheduler, runsQueued),
    fires: createFiresService(context),
    agenda: createAgendaService(context, scheduler),
    /** An automation's spend, per day, average and forecast. */
    spend: (automationId: string) => automationSpend(store, automationId, context.now()),
    webhooks: createWebhooksService(context, instances, webhookDirectory, tunnel, box),
    apiKeys: {
      ...apiKeys,
      // This Steward's own changes are announced at once; another process's within keyWatchMs.
      create: (...args: Parameters<typeof apiKeys.create>) => {
        const made = apiKeys.create(...args);
        keyWatch.check();
        return made;
      },
      revoke: (id: string) => {
        apiKeys.revoke(id);
        keyWatch.check();
      },
    },
    keyWatch,
    holds,
    access: createWebAccess(context, apiKeys),
    triggers,
    deliveries: createDeliveriesService(context, triggers, deliveryLog),
    notifications: {
      ...channels,
      /** Listens for finished runs and resumes pending deliveries. */
      start(): void {
        notifier.start();
        dispatcher.start();
      },
      async close(): Promise<void> {
        notifier.stop();
        await dispatcher.close();
      },
    },
  };
}

export type Services = ReturnType<typeof createServices>;
export type { ServiceContext };

// All services, wired to one context: the core's composition root for what runs on its own.
import path from 'node:path';
import { adminCaller } from './caller';
import { createRunSandboxes, portOf, probeIdOf, removeLeftoverProbeDirs } from './sandbox/run-sandbox';
import { createRunner } from './runner/runner';
import { createScheduler } from './scheduler/scheduler';
import { createSourceManager } from './sources/source-manager';
import { createSecretBox } from './secrets';
import { createTunnel } from './tunnel/tunnel';
import { createActivityService } from './services/activity';
import { createAgendaService } from './services/agenda';
import { createAgentDetector } from './services/agent-detect';
import { createApiKeysService } from './services/api-keys';
import { createKeyWatch } from './services/key-watch';
import { createApprovalsService } from './services/approvals';
import { createAutomationsService } from './services/automations';
import { createCommitBatcher } from './services/commit-batcher';
import { createCredentialHolds } from './services/credential-holds';
import type { ServiceContext } from './services/context';
import { createDeliveriesService } from './services/deliveries';
import { createDeliveryLog } from './services/delivery-log';
import { createFiresService } from './services/fires';
import { createInstancesService } from './services/instances';
import { type InstanceDirectory, createLiveEvents } from './services/live-events';
import { createRemotesService } from './services/remotes';
import { defaultRemoteTiming } from './remotes/timing';
import { createRemoteRouting } from './remotes/routing';
import { createRunKeyReach } from './run-key-reach';
import { type LiveEvent, operations } from '../../shared/contract';
import type { Dispatch } from './dispatch';
import type { Lifetime } from './lifetime';
import { createEventHub } from './services/event-hub';
import { createNotificationChannelsService } from './services/notification-channels';
import { createOutcomesService } from './services/outcomes';
import { createNotificationDispatcher, defaultNotificationTiming } from './services/notification-dispatcher';
import { linkBase } from './services/alerts';
import { createRunNotifier } from './services/run-notifier';
import { createRunsService } from './services/runs';
import { createSecretsService } from './services/secrets';
import { createConfigService } from './config/config-service';
import { createSettingsService } from './services/settings';
import { automationSpend } from './services/spend';
import { createTriggersService } from './services/triggers';
import { createWebhookDirectory } from './services/webhook-directory';
import { createWebAccess } from './services/web-access';
import { createWebhooksService } from './services/webhooks';

/**
 * Every service, built in the order they need each other: nothing is reached before it exists.
 * What reaches down the other way listens instead: the runner and the approvals hear runs move
 * through the store's committed changes, live events and notifications hear the remotes' events.
 * `start` starts them into the core's lifetime, which stops them in reverse.
 */
export function createServices(context: ServiceContext) {
  const { store } = context;
  const box = createSecretBox(context.dataDir);
  const secrets = createSecretsService(context, box);
  const holds = createCredentialHolds(store);
  const apiKeys = createApiKeysService(context, holds);
  const revealSecret = (name: string) => secrets.reveal(name);
  const tunnel = createTunnel({
    store: context.store,
    clock: context.clock,
    logger: context.logger,
    secrets: box,
    startListener: context.startTriggerListener ?? (() => Promise.reject(new Error('this core serves no HTTP'))),
  });
  // Decision links work from a phone: through the tunnel while it is up.
  const approvals = createApprovalsService(context, { linkBase: () => tunnel.publicUrl() ?? linkBase(context) });
  const runner = createRunner({
    store,
    clock: context.clock,
    logger: context.logger,
    revealSecret,
    runKeys: { issue: (run) => apiKeys.createForRun(run), revoke: (runId) => apiKeys.revokeForRun(runId) },
    apiUrl: context.baseUrl,
    dataDir: context.dataDir,
    publicUrl: () => tunnel.publicUrl(),
    approvals,
  });
  const runs = createRunsService(context);
  // Probes start the agent's program as a run would, in a private folder of their own where the runs keep theirs.
  const runsDir = path.join(context.dataDir, 'runs');
  removeLeftoverProbeDirs(runsDir);
  const probeSandboxes = createRunSandboxes({ store, dataDir: context.dataDir, runsDir, publicUrl: () => tunnel.publicUrl() });
  const instances = createInstancesService(context, {
    revealSecret,
    cancelRun: (id) => void runner.cancel(id),
    openProbePlace: (instance) => probeSandboxes.openForProbe(instance, probeIdOf(instance.id)),
  });
  const webhookDirectory = createWebhookDirectory(context.store);
  const scheduler = createScheduler({ store, clock: context.clock, logger: context.logger });
  const sources = createSourceManager({
    store,
    clock: context.clock,
    logger: context.logger,
    dataDir: context.dataDir,
    revealSecret,
    stewardPort: () => portOf(context.baseUrl()),
    paused: () => scheduler.isPaused(),
    backoffMs: context.sourceBackoffMs,
    loadKind: context.loadSourceKind,
  });
  scheduler.onPausedChange((paused) => void sources.setPaused(paused));
  const deliveryLog = createDeliveryLog(context);
  // What the remote Stewards announce, for the live events and the run notifier made below.
  const remoteEvents = createEventHub<LiveEvent>();
  const remotes = createRemotesService(context, {
    reveal: revealSecret,
    storeSecret: (name, value) => void secrets.put(name, value),
    announce: (event) => remoteEvents.publish(event),
    timing: { ...defaultRemoteTiming, ...context.remoteTiming },
  });
  const directory: InstanceDirectory = {
    get: (id) => store.instances.get(id) ?? remotes.instance(id),
    all: () => [...store.instances.list(), ...remotes.instances()],
  };
  const activity = createActivityService(context, directory, () => deliveryLog.trim());
  const live = createLiveEvents(context, activity, directory);
  remoteEvents.subscribe((event) => live.publish(event));
  const keyWatch = createKeyWatch({ ids: () => apiKeys.list().map((key) => key.id), announce: (id) => live.publish({ type: 'changed', resource: 'apiKey', id }) });
  const triggers = createTriggersService(context, runs, createCommitBatcher(context.store), webhookDirectory, box, deliveryLog);
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
  remoteEvents.subscribe((event) => {
    if (event.type === 'run') notifier.remoteRunEnded(event.run);
  });
  const channels = createNotificationChannelsService(context, { box, dispatcher, notifier, secretExists: (name) => store.secrets.get(name) !== undefined });
  // Logged when it starts and when it ends, not once per refused request.
  store.storage.onChange((problem) => {
    if (problem) context.logger.error({ code: problem.code }, problem.message);
    else context.logger.info('storage is writable again');
  });
  const automations = createAutomationsService(context, instances, runs, scheduler, sources);
  const webhooks = createWebhooksService(context, instances, webhookDirectory, tunnel, box);
  const config = createConfigService({ store, dataDir: context.dataDir, now: context.now, instances, automations, webhooks, revealSecret, box, logger: context.logger });
  return {
    storage: store.storage,
    activity,
    agents: createAgentDetector({ runsDir }),
    // A higher maxRunning may let queued runs start now.
    settings: createSettingsService(context, () => runner.nudge()),
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
    sources,
    automations,
    fires: createFiresService(context),
    agenda: createAgendaService(context, scheduler),
    /** An automation's spend, per day, average and forecast. */
    spend: (automationId: string) => automationSpend(store, automationId, context.now()),
    webhooks,
    config,
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
    notifications: channels,

    /**
     * Starts what runs on its own into the core's lifetime, in the order each needs the last:
     * notifications first (a run the runner finds interrupted notifies too), then the runner with
     * what its built-in agent calls (`dispatch`, from the core above). Stopped in reverse: the
     * approvals answer waiting agents before the runner ends their runs.
     */
    async start(life: Lifetime, dispatch: Dispatch): Promise<void> {
      const parts: Array<[name: string, start: () => unknown, stop: () => unknown]> = [
        [
          'notifications',
          () => {
            notifier.start();
            dispatcher.start();
          },
          async () => {
            notifier.stop();
            await dispatcher.close();
          },
        ],
        ['runner', () => runner.start(dispatch), () => runner.stop()],
        ['approvals', () => approvals.start(), () => approvals.stop()],
        ['scheduler', () => scheduler.start(), () => scheduler.stop()],
        ['event sources', () => sources.start(), () => sources.stop()],
        ['configuration folder', () => void config.start(), () => config.stop()],
        ['activity retention', () => activity.startRetention(), () => activity.stopRetention()],
        ['tunnel', () => void tunnel.resume(), () => tunnel.close()],
        ['remotes', () => remotes.start(), () => remotes.stop()],
        ['key watch', () => keyWatch.start(), () => keyWatch.stop()],
        ['credential holds', () => undefined, () => holds.releaseAll()],
      ];
      for (const [name, start, stop] of parts) {
        await life.start(name, () => {
          start();
          return stop;
        });
      }
      void instances.provisionAll();
    },
  };
}

export type Services = ReturnType<typeof createServices>;
export type { ServiceContext };

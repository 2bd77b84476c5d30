// All services, wired to one context.
import { createRunner } from '../runner/runner';
import { createScheduler } from '../scheduler/scheduler';
import { createSecretBox } from '../secrets';
import { createTunnel } from '../tunnel/tunnel';
import { createApiKeysService } from './api-keys';
import { createAutomationsService } from './automations';
import { createCommitBatcher } from './commit-batcher';
import type { ServiceContext } from './context';
import { createInstancesService } from './instances';
import { createRunsService } from './runs';
import { createTriggersService } from './triggers';
import { createWebhookDirectory } from './webhook-directory';
import { createWebhooksService } from './webhooks';

export function createServices(context: ServiceContext) {
  const runs = createRunsService(context);
  const instances = createInstancesService(context);
  const webhookDirectory = createWebhookDirectory(context.store);
  const { store } = context;
  const runner = createRunner({
    store,
    clock: context.clock,
    logger: context.logger,
    options: { maxRunning: Number(store.settings.get('runner.maxRunning') ?? 2) },
  });
  const runsQueued = () => runner.nudge();
  const scheduler = createScheduler({ store, clock: context.clock, logger: context.logger, onRunsQueued: runsQueued });
  const secrets = createSecretBox(context.dataDir);
  const tunnel = createTunnel({
    store: context.store,
    clock: context.clock,
    logger: context.logger,
    secrets,
    startListener: context.startTriggerListener ?? (() => Promise.reject(new Error('this core serves no HTTP'))),
  });
  return {
    runs,
    instances,
    scheduler,
    runner,
    tunnel,
    automations: createAutomationsService(context, instances, runs, scheduler, runsQueued),
    webhooks: createWebhooksService(context, instances, webhookDirectory, tunnel, secrets),
    apiKeys: createApiKeysService(context),
    triggers: createTriggersService(context, runs, createCommitBatcher(context.store), webhookDirectory, secrets, runsQueued),
  };
}

export type Services = ReturnType<typeof createServices>;
export type { ServiceContext };

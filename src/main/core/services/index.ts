// All services, wired to one context.
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
  const scheduler = createScheduler({ store: context.store, clock: context.clock, logger: context.logger });
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
    tunnel,
    automations: createAutomationsService(context, instances, runs, scheduler),
    webhooks: createWebhooksService(context, instances, webhookDirectory, tunnel, secrets),
    apiKeys: createApiKeysService(context),
    triggers: createTriggersService(context, runs, createCommitBatcher(context.store), webhookDirectory, secrets),
  };
}

export type Services = ReturnType<typeof createServices>;
export type { ServiceContext };

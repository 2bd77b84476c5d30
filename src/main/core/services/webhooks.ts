// Webhooks: records with a secret token; triggering them lives in triggers.ts.
import type { z } from 'zod';
import type { Webhook, WebhookCreate, WebhookUpdate } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import { newId, randomToken, sha256Hex } from '../ids';
import type { WebhookRecord } from '../store/repositories/webhooks';
import { type ServiceContext, isoNow } from './context';
import type { InstancesService } from './instances';

export const triggerPath = (token: string): string => `/api/webhooks/trigger/${token}`;

export function createWebhooksService(context: ServiceContext, instances: InstancesService) {
  const { store } = context;

  const present = (record: WebhookRecord): Webhook => ({ ...record, triggerUrl: context.baseUrl() + triggerPath(record.token) });

  function record(id: string): WebhookRecord {
    const found = store.webhooks.get(id);
    if (!found) throw new AppError('not_found', `No webhook ${id}.`);
    return found;
  }

  const save = (webhook: WebhookRecord): void => store.webhooks.save(webhook, sha256Hex(webhook.token));

  return {
    list: (): Webhook[] => store.webhooks.list().map(present),
    get: (id: string): Webhook => present(record(id)),

    create(input: z.output<typeof WebhookCreate>): Webhook {
      return store.transaction(() => {
        const instance = instances.target(input.instanceId);
        const now = isoNow(context);
        const id = newId('whk');
        const threadId = newId('thr');
        store.threads.insert(threadId, 'webhook', id, now);
        const created: WebhookRecord = {
          id,
          name: input.name,
          promptTemplate: input.promptTemplate,
          token: randomToken(32),
          enabled: input.enabled,
          instanceId: instance.id,
          threadId,
          createdAt: now,
          updatedAt: now,
        };
        save(created);
        return present(created);
      });
    },

    update(id: string, patch: z.output<typeof WebhookUpdate>): Webhook {
      return store.transaction(() => {
        const current = record(id);
        const updated: WebhookRecord = {
          ...current,
          name: patch.name ?? current.name,
          promptTemplate: patch.promptTemplate ?? current.promptTemplate,
          enabled: patch.enabled ?? current.enabled,
          token: patch.regenerateToken ? randomToken(32) : current.token,
          instanceId: patch.instanceId === undefined ? current.instanceId : instances.target(patch.instanceId).id,
          updatedAt: isoNow(context),
        };
        save(updated);
        return present(updated);
      });
    },

    delete(id: string): void {
      store.transaction(() => {
        const current = record(id);
        store.webhooks.delete(id);
        store.threads.delete(current.threadId);
      });
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;

// Webhooks: records with a secret token; triggering them lives in triggers.ts.
import type { z } from 'zod';
import type { SignatureInput as SignatureInputSchema, Webhook, WebhookCreate, WebhookUpdate } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import { newId, randomToken, sha256Hex } from '../ids';
import type { WebhookRecord } from '../store/repositories/webhooks';
import { type ServiceContext, isoNow } from './context';
import type { InstancesService } from './instances';
import type { SecretBox } from '../secrets';
import type { Tunnel } from '../tunnel/tunnel';
import type { WebhookDirectory } from './webhook-directory';

type SignatureInput = z.output<typeof SignatureInputSchema>;

export const triggerPath = (token: string): string => `/api/webhooks/trigger/${token}`;

export function createWebhooksService(
  context: ServiceContext,
  instances: InstancesService,
  directory: WebhookDirectory,
  tunnel: Tunnel,
  secrets: SecretBox,
) {
  const { store } = context;

  function present({ signature, ...record }: WebhookRecord): Webhook {
    const publicBase = tunnel.publicUrl();
    return {
      ...record,
      signature: signature && { scheme: signature.scheme },
      triggerUrl: context.baseUrl() + triggerPath(record.token),
      publicTriggerUrl: publicBase === null ? null : publicBase + triggerPath(record.token),
    };
  }

  function record(id: string): WebhookRecord {
    const found = store.webhooks.get(id);
    if (!found) throw new AppError('not_found', `No webhook ${id}.`);
    return found;
  }

  const sealed = (signature: SignatureInput | null | undefined): WebhookRecord['signature'] =>
    signature ? { scheme: signature.scheme, sealedSecret: secrets.seal(signature.secret) } : null;

  /** Writes the webhook; the directory learns of it once the caller's transaction committed. */
  function saved(write: () => WebhookRecord): Webhook {
    const webhook = store.transaction(() => {
      const record = write();
      store.webhooks.save(record, sha256Hex(record.token));
      return record;
    });
    directory.put(webhook);
    return present(webhook);
  }

  return {
    list: (): Webhook[] => store.webhooks.list().map(present),
    get: (id: string): Webhook => present(record(id)),

    create(input: z.output<typeof WebhookCreate>): Webhook {
      return saved(() => {
        const instance = instances.target(input.instanceId);
        const now = isoNow(context);
        const id = newId('whk');
        const threadId = newId('thr');
        store.threads.insert(threadId, 'webhook', id, now);
        return {
          id,
          name: input.name,
          promptTemplate: input.promptTemplate,
          token: randomToken(32),
          enabled: input.enabled,
          notify: input.notify,
          memory: input.memory,
          signature: sealed(input.signature),
          instanceId: instance.id,
          threadId,
          createdAt: now,
          updatedAt: now,
        };
      });
    },

    update(id: string, patch: z.output<typeof WebhookUpdate>): Webhook {
      return saved(() => {
        const current = record(id);
        return {
          ...current,
          name: patch.name ?? current.name,
          promptTemplate: patch.promptTemplate ?? current.promptTemplate,
          enabled: patch.enabled ?? current.enabled,
          notify: patch.notify ?? current.notify,
          memory: patch.memory ?? current.memory,
          token: patch.regenerateToken ? randomToken(32) : current.token,
          signature: patch.signature === undefined ? current.signature : sealed(patch.signature),
          instanceId: patch.instanceId === undefined ? current.instanceId : instances.target(patch.instanceId).id,
          updatedAt: isoNow(context),
        };
      });
    },

    delete(id: string): void {
      store.transaction(() => {
        const current = record(id);
        store.webhooks.delete(id);
        store.threads.delete(current.threadId);
      });
      directory.remove(id);
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;

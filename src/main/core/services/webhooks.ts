// Webhooks: records with a secret token, filled from a sender's preset at creation; triggering
// them lives in triggers.ts.
import type { z } from 'zod';
import { type Sender, type SignatureInput as SignatureInputSchema, type Webhook, type WebhookCreate, type WebhookUpdate, noApproval, noRetry } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import { describeCheck } from '../../../shared/webhook-check';
import { senderPresets } from '../../../shared/webhook-senders';
import { newId, randomToken, sha256Hex } from '../ids';
import type { WebhookRecord } from '../store/repositories/webhooks';
import { type ServiceContext, isoNow } from './context';
import type { InstancesService } from './instances';
import type { SecretBox } from '../secrets';
import type { Tunnel } from '../tunnel/tunnel';
import type { WebhookDirectory } from './webhook-directory';
import { resealed, unchanged } from '../unchanged';
import { given, mergePatch } from './patch-merge';

type SignatureInput = z.output<typeof SignatureInputSchema>;
type Defaulted = 'sender' | 'filter' | 'fencePayload';
/** What create takes: the contract's output, the fields with plain defaults optional (for callers inside the core). */
type CreateInput = Omit<z.output<typeof WebhookCreate>, Defaulted> & Partial<Pick<z.output<typeof WebhookCreate>, Defaulted>>;

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
      checkInForce: describeCheck(signature, record.sender),
      triggerUrl: context.baseUrl() + triggerPath(record.token),
      publicTriggerUrl: publicBase === null ? null : publicBase + triggerPath(record.token),
    };
  }

  /**
   * A trigger URL starts runs outside the run-depth limit's sight: a run's key (its instance given)
   * sees none, neither the token nor the URLs made of it.
   */
  function shownTo(webhook: Webhook, ownInstanceId: string | undefined): Webhook {
    if (ownInstanceId === undefined) return webhook;
    const { token: _token, triggerUrl: _local, publicTriggerUrl: _public, ...withoutTrigger } = webhook;
    return withoutTrigger;
  }

  function record(id: string): WebhookRecord {
    const found = store.webhooks.get(id);
    if (!found) throw new AppError('not_found', `No webhook ${id}.`);
    return found;
  }

  /** The check to store; a secret given without a scheme takes the sender's. The stored seal is kept for the same secret. */
  function sealed(signature: SignatureInput | null | undefined, sender: Sender, stored: WebhookRecord['signature'] = null): WebhookRecord['signature'] {
    if (!signature) return null;
    const scheme = signature.scheme ?? senderPresets[sender].signatureScheme;
    if (!scheme) throw new AppError('missing_field', 'signature.scheme is required: the generic sender has no scheme of its own.', { field: 'signature.scheme' });
    return { scheme, sealedSecret: resealed(secrets, signature.secret, stored?.sealedSecret) };
  }

  /** Writes the webhook; the directory learns of it once the caller's transaction committed. */
  function saved(write: () => WebhookRecord): Webhook {
    const webhook = store.transaction(() => {
      const record = write();
      store.webhooks.save(record, sha256Hex(record.token));
      store.afterCommit(() => directory.put(record));
      return record;
    });
    return present(webhook);
  }

  return {
    /** `ownInstanceId`: a run's key reads, and sees its own instance's webhooks only, without their tokens. */
    list: (ownInstanceId?: string): Webhook[] =>
      store.webhooks
        .list()
        .filter((webhook) => ownInstanceId === undefined || webhook.instanceId === ownInstanceId)
        .map((webhook) => shownTo(present(webhook), ownInstanceId)),
    /** Another instance's webhook is unknown to a run's key (404), not forbidden: it learns nothing of it. */
    get(id: string, ownInstanceId?: string): Webhook {
      const found = record(id);
      if (ownInstanceId !== undefined && found.instanceId !== ownInstanceId) throw new AppError('not_found', `No webhook ${id}.`);
      return shownTo(present(found), ownInstanceId);
    },
    shownTo,

    /** `createdByRunId`: the run whose agent made it, whose children its runs are. */
    create(input: CreateInput, createdByRunId: string | null = null): Webhook {
      return saved(() => {
        const sender = input.sender ?? 'generic';
        const preset = senderPresets[sender];
        const promptTemplate = input.promptTemplate ?? preset.promptTemplate;
        if (promptTemplate === null) throw new AppError('missing_field', 'promptTemplate is required.', { field: 'promptTemplate' });
        const signature = sealed(input.signature, sender);
        const instance = instances.target(input.instanceId);
        const now = isoNow(context);
        const id = newId('whk');
        const threadId = newId('thr');
        store.threads.insert(threadId, 'webhook', id, now);
        return {
          id,
          name: input.name,
          promptTemplate,
          token: randomToken(32),
          enabled: input.enabled,
          notify: input.notify,
          memory: input.memory,
          retry: input.retry ?? noRetry,
          approval: input.approval ?? noApproval,
          signature,
          sender,
          maxPayloadBytes: input.maxPayloadBytes ?? preset.maxPayloadBytes,
          filter: input.filter ?? [],
          fencePayload: input.fencePayload ?? false,
          idempotencyKey: input.idempotencyKey === undefined ? preset.idempotencyKey : input.idempotencyKey,
          instanceId: instance.id,
          threadId,
          createdByRunId,
          createdAt: now,
          updatedAt: now,
        };
      });
    },

    update(id: string, patch: z.output<typeof WebhookUpdate>): Webhook {
      const current = record(id);
      const { regenerateToken, signature, instanceId, ...fields } = patch;
      const sender = fields.sender ?? current.sender;
      const next = mergePatch(current, {
        ...fields,
        token: regenerateToken ? randomToken(32) : undefined,
        signature: given(signature, (check) => sealed(check, sender, current.signature)),
        instanceId: given(instanceId, (named) => instances.target(named).id),
        updatedAt: isoNow(context),
      });
      if (unchanged(next, current, ['updatedAt'])) return present(current);
      return saved(() => next);
    },

    delete(id: string): void {
      store.transaction(() => {
        const current = record(id);
        store.webhooks.delete(id);
        store.threads.delete(current.threadId);
        store.afterCommit(() => directory.remove(id));
      });
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;

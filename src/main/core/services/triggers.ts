// Webhook triggers: a token opens a webhook, the payload fills its template, and the run is
// committed to SQLite before the caller hears 202.
import { payloadPlaceholder, type RunStatus } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import { newId } from '../ids';
import type { WebhookRecord } from '../store/repositories/webhooks';
import type { SecretBox } from '../secrets';
import type { CommitBatcher } from './commit-batcher';
import { verifySignature } from './signatures';
import type { ServiceContext } from './context';
import type { RunsService } from './runs';
import type { WebhookDirectory } from './webhook-directory';

const idempotencyWindowMs = 24 * 60 * 60 * 1000;

export interface TriggerDelivery {
  /** The text that replaces every {{payload}}: the body as received, or the query as JSON. */
  payload: string;
  idempotencyKey: string | null;
}

export interface TriggerResult {
  run: { id: string; status: RunStatus; threadId: string };
  /** True when the Idempotency-Key matched an earlier request: the run is that request's. */
  replayed: boolean;
}

/** Every {{payload}} replaced by the payload exactly: no `$&`-style patterns, no re-serialising. */
export function renderTemplate(template: string, payload: string): string {
  return template.split(payloadPlaceholder).join(payload);
}

const unknownToken = () => new AppError('not_found', 'No webhook has this trigger URL.');
const disabled = () => new AppError('webhook_disabled', 'This webhook is disabled; enable it to accept triggers again.');

export function createTriggersService(
  context: ServiceContext,
  runs: RunsService,
  batcher: CommitBatcher,
  directory: WebhookDirectory,
  secrets: SecretBox,
  runsQueued: () => void,
) {
  const { store } = context;

  return {
    /** 401 invalid_signature unless the request is signed as the webhook requires (if it does). */
    checkSignature(webhook: WebhookRecord, headers: Record<string, string | string[] | undefined>, body: Buffer): void {
      if (webhook.signature) verifySignature(webhook.signature.scheme, secrets.open(webhook.signature.sealedSecret), headers, body, context.now());
    },

    /** The webhook a token opens, enabled or not; checked before any body is read. */
    find(token: string): WebhookRecord {
      const webhook = directory.find(token);
      if (!webhook) throw unknownToken();
      return webhook;
    },

    assertEnabled(webhook: WebhookRecord): void {
      if (!webhook.enabled) throw disabled();
    },

    assertRoom: () => runs.assertRoom(),

    async accept(token: string, delivery: TriggerDelivery): Promise<TriggerResult> {
      const receivedAt = context.now();
      const result = await batcher.write((): TriggerResult => {
        // Looked up again at commit time: a token regenerated or a webhook disabled or deleted
        // since the request arrived wins.
        const webhook = directory.find(token);
        if (!webhook) throw unknownToken();
        if (!webhook.enabled) throw disabled();
        if (delivery.idempotencyKey) {
          const since = new Date(receivedAt.getTime() - idempotencyWindowMs).toISOString();
          const earlier = store.runs.findByIdempotencyKey(webhook.id, delivery.idempotencyKey, since);
          if (earlier) return { run: { id: earlier.id, status: earlier.status, threadId: earlier.threadId }, replayed: true };
        }
        const run = runs.enqueue(
          {
            instanceId: webhook.instanceId,
            threadId: webhook.threadId,
            source: 'webhook',
            sourceId: webhook.id,
            prompt: renderTemplate(webhook.promptTemplate, delivery.payload),
            idempotencyKey: delivery.idempotencyKey,
          },
          receivedAt,
        );
        return { run: { id: run.id, status: run.status, threadId: run.threadId }, replayed: false };
      });
      if (!result.replayed) runsQueued();
      return result;
    },

    /** Records a request a known webhook refused, for the sender's owner to see why. */
    recordRefusal(webhook: WebhookRecord, request: { method: string; contentType: string | null; error: AppError }): void {
      const receivedAt = context.now();
      store.deliveries.insertRefused({
        id: newId('dlv', receivedAt.getTime()),
        webhookId: webhook.id,
        receivedAt: receivedAt.toISOString(),
        method: request.method,
        contentType: request.contentType,
        status: request.error.status,
        errorCode: request.error.code,
      });
    },
  };
}

export type TriggersService = ReturnType<typeof createTriggersService>;

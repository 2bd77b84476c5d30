// Webhook triggers: a token opens a webhook, the payload fills its template, and the run is
// durable in SQLite before the caller hears 202.
import { payloadPlaceholder } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import { newId, sha256Hex } from '../ids';
import type { WebhookRecord } from '../store/repositories/webhooks';
import type { CommitBatcher } from './commit-batcher';
import type { ServiceContext } from './context';
import type { RunsService } from './runs';

const idempotencyWindowMs = 24 * 60 * 60 * 1000;

export interface TriggerDelivery {
  method: 'GET' | 'POST';
  contentType: string | null;
  bytes: number;
  /** The text that replaces every {{payload}}: the body as received, or the query as JSON. */
  payload: string;
  idempotencyKey: string | null;
}

export interface TriggerResult {
  run: { id: string; status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'timed_out' | 'interrupted'; threadId: string };
  /** True when the Idempotency-Key matched an earlier delivery: the run is that delivery's. */
  replayed: boolean;
}

/** Every {{payload}} replaced by the payload exactly: no `$&`-style patterns, no re-serialising. */
export function renderTemplate(template: string, payload: string): string {
  return template.split(payloadPlaceholder).join(payload);
}

function openable(webhook: WebhookRecord | undefined, token: string): WebhookRecord {
  if (!webhook || webhook.token !== token) throw new AppError('not_found', 'No webhook has this trigger URL.');
  if (!webhook.enabled) throw new AppError('webhook_disabled', 'This webhook is disabled; enable it to accept triggers again.');
  return webhook;
}

export function createTriggersService(context: ServiceContext, runs: RunsService, batcher: CommitBatcher) {
  const { store } = context;

  return {
    /** The webhook a token opens; checked before any body is read. */
    open: (token: string): WebhookRecord => openable(store.webhooks.findByTokenHash(sha256Hex(token)), token),

    accept(webhook: WebhookRecord, delivery: TriggerDelivery): Promise<TriggerResult> {
      const receivedAt = context.now();
      return batcher.write((): TriggerResult => {
        // Looked up again inside the transaction: a token regenerated or a webhook disabled
        // since the request arrived wins.
        const current = openable(store.webhooks.get(webhook.id), webhook.token);
        let replayedRunId: string | undefined;
        if (delivery.idempotencyKey) {
          const since = new Date(receivedAt.getTime() - idempotencyWindowMs).toISOString();
          replayedRunId = store.deliveries.runForKey(current.id, delivery.idempotencyKey, since);
        }
        const replayed = replayedRunId === undefined ? undefined : store.runs.get(replayedRunId);
        const run =
          replayed ??
          runs.enqueue(
              { instanceId: current.instanceId, threadId: current.threadId, source: 'webhook', sourceId: current.id, prompt: renderTemplate(current.promptTemplate, delivery.payload) },
              receivedAt,
            );
        store.deliveries.insert({
          id: newId('dlv', receivedAt.getTime()),
          webhookId: current.id,
          receivedAt: receivedAt.toISOString(),
          method: delivery.method,
          contentType: delivery.contentType,
          bytes: delivery.bytes,
          status: replayed ? 200 : 202,
          runId: run.id,
          idempotencyKey: delivery.idempotencyKey,
        });
        return { run: { id: run.id, status: run.status, threadId: run.threadId }, replayed: replayed !== undefined };
      });
    },
  };
}

export type TriggersService = ReturnType<typeof createTriggersService>;

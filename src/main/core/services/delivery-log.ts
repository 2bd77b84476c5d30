// The delivery log: every request to a known webhook written down with what came of it, its
// credentials redacted, and trimmed to the retention settings (per webhook by count, overall by age).
import type { DeliveryOutcomeName, deliveryOrigins } from '../../../shared/contract';
import { isSecretName } from '../../../shared/webhook-template';
import { newId } from '../ids';
import { readSettings } from '../settings';
import type { DeliveryRecord } from '../store/repositories/deliveries';
import type { WebhookRecord } from '../store/repositories/webhooks';
import type { ServiceContext } from './context';
import type { Headers } from './webhook-render';

/** A request to a webhook, from its sender, a replay or a test payload. */
export interface TriggerRequest {
  method: string;
  headers: Headers;
  query: Record<string, string | string[]>;
  /** The body as received; undefined when there is none (GET) or it was not read. */
  body: Buffer | undefined;
  origin: (typeof deliveryOrigins)[number];
  replayOf?: string | null;
  receivedAt: Date;
}

export interface DeliveryResult {
  status: number;
  outcome: DeliveryOutcomeName;
  errorCode?: string | null;
  message?: string | null;
  runId?: string | null;
}

export const redacted = '[redacted]';

function recordedHeaders(headers: Headers): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    kept[name] = isSecretName(name) ? redacted : Array.isArray(value) ? value.join(', ') : value;
  }
  return kept;
}

function recordedQuery(query: Record<string, string | string[]>): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(query)) kept[name] = isSecretName(name) ? redacted : value;
  return kept;
}

// Trimming by count walks the webhook's newest rows; doing it every few dozen inserts keeps
// ingest cheap, and the hourly trim (which also trims by age) catches up with quiet webhooks.
const trimEvery = 32;

export function createDeliveryLog(context: ServiceContext) {
  const { store } = context;
  const sinceTrim = new Map<string, number>();

  function trimWebhook(webhookId: string): number {
    const { retentionPerWebhook } = readSettings(store).deliveries;
    return retentionPerWebhook === null ? 0 : store.deliveries.keepNewest(webhookId, retentionPerWebhook);
  }

  function trimByAge(): number {
    const { retentionDays } = readSettings(store).deliveries;
    if (retentionDays === null) return 0;
    return store.deliveries.removeBefore(new Date(context.now().getTime() - retentionDays * 86_400_000).toISOString());
  }

  return {
    /** Writes one delivery; call inside a transaction. Returns its id. */
    write(webhook: WebhookRecord, request: TriggerRequest, result: DeliveryResult): string {
      const id = newId('dlv', request.receivedAt.getTime());
      const contentType = request.headers['content-type'];
      const record: DeliveryRecord = {
        id,
        webhookId: webhook.id,
        receivedAt: request.receivedAt.toISOString(),
        origin: request.origin,
        replayOf: request.replayOf ?? null,
        method: request.method,
        contentType: Array.isArray(contentType) ? (contentType[0] ?? null) : (contentType ?? null),
        status: result.status,
        outcome: result.outcome,
        errorCode: result.errorCode ?? null,
        message: result.message ?? null,
        runId: result.runId ?? null,
        headers: recordedHeaders(request.headers),
        query: recordedQuery(request.query),
        body: request.body ?? null,
        bodyBytes: request.body?.length ?? (request.method === 'GET' ? 0 : null),
      };
      store.deliveries.insert(record);
      const count = (sinceTrim.get(webhook.id) ?? 0) + 1;
      if (count >= trimEvery) {
        sinceTrim.set(webhook.id, 0);
        trimWebhook(webhook.id);
      } else {
        sinceTrim.set(webhook.id, count);
      }
      return id;
    },

    /** Everything retention no longer keeps; returns how many deliveries went. */
    trim(): number {
      return store.transaction(() => store.deliveries.webhookIds().reduce((removed, id) => removed + trimWebhook(id), trimByAge()));
    },
  };
}

export type DeliveryLog = ReturnType<typeof createDeliveryLog>;

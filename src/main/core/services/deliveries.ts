// Deliveries over the API: a webhook's log page by page, one delivery whole, a replay (the stored
// request again, as if it arrived now), and test payloads, which go the same way.
import { cancelledWhy } from '../../../shared/run-cancel-words';
import type { z } from 'zod';
import type { Delivery, DeliveryListQuery, DeliverySummary, TriggerOutcome } from '../../../shared/contract';
import { refusalReason } from '../../../shared/delivery-refusals';
import { AppError } from '../../../shared/errors';
import type { DeliverySummaryRecord } from '../store/repositories/deliveries';
import type { WebhookRecord } from '../store/repositories/webhooks';
import { assertWithinBudget } from './budgets';
import type { ServiceContext } from './context';
import type { DeliveryLog } from './delivery-log';
import type { TriggerResult, TriggersService } from './triggers';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function bodyText(body: Buffer | null): { body: string | null; bodyEncoding: 'utf8' | 'base64' } {
  if (body === null) return { body: null, bodyEncoding: 'utf8' };
  try {
    return { body: utf8.decode(body), bodyEncoding: 'utf8' };
  } catch {
    return { body: body.toString('base64'), bodyEncoding: 'base64' };
  }
}

function summary({ runStatus, runError, ...record }: DeliverySummaryRecord): DeliverySummary {
  const why = runStatus === null ? null : cancelledWhy(runStatus, runError);
  // `why` only where there is one: a cancelled run's.
  const run = record.runId !== null && runStatus !== null ? { id: record.runId, status: runStatus, ...(why ? { why } : {}) } : null;
  return { ...record, run, replayable: record.bodyBytes !== null };
}

function outcome(result: TriggerResult): z.output<typeof TriggerOutcome> {
  return {
    run: result.kind === 'run' ? result.run : null,
    skipped: result.kind === 'skipped',
    reason: result.kind === 'skipped' ? result.reason : null,
    deliveryId: result.deliveryId,
  };
}

export function createDeliveriesService(context: ServiceContext, triggers: TriggersService, log: DeliveryLog) {
  const { store } = context;

  function webhook(id: string): WebhookRecord {
    const found = store.webhooks.get(id);
    if (!found) throw new AppError('not_found', `No webhook ${id}.`);
    return found;
  }

  /** Replays and tests pass the same gates a request does, before anything is written; asked for by hand, they are refused over budget. */
  function admit(target: WebhookRecord): void {
    triggers.assertEnabled(target);
    triggers.assertRoom();
    assertWithinBudget(store, { instanceId: target.instanceId }, context.now());
  }

  return {
    /** Applies the retention settings now (also done every hour, and as deliveries arrive). */
    trim: (): number => log.trim(),

    list(webhookId: string, query: z.output<typeof DeliveryListQuery>): { deliveries: DeliverySummary[]; nextBefore: string | null } {
      webhook(webhookId);
      const rows = store.deliveries.page(webhookId, query.before, query.limit + 1);
      const deliveries = rows.slice(0, query.limit).map(summary);
      return { deliveries, nextBefore: rows.length > query.limit ? deliveries.at(-1)!.id : null };
    },

    get(id: string): Delivery {
      const record = store.deliveries.get(id);
      if (!record) throw new AppError('not_found', `No delivery ${id}.`);
      const { headers, query, body, ...rest } = record;
      return { ...summary(rest), headers, query, ...bodyText(body) };
    },

    /**
     * The stored request once more, now: a new run labelled as its replay. Filters apply; signature
     * and idempotency do not, so a request Steward refused (its signature did not match, say) is
     * replayed only when asked with `force`: its body was never verified.
     */
    async replay(id: string, force = false): Promise<z.output<typeof TriggerOutcome>> {
      const record = store.deliveries.get(id);
      if (!record) throw new AppError('not_found', `No delivery ${id}.`);
      if (record.bodyBytes === null) {
        throw new AppError('not_replayable', 'This delivery was refused before its body was read (too large, or the webhook was disabled or full), so there is nothing to replay.');
      }
      if (record.outcome === 'refused' && !force) {
        throw new AppError('refused_delivery', `This delivery was refused: ${refusalReason(record.errorCode, record.message)}. Replaying it runs a body Steward never accepted; replay it with {"force": true} to do so anyway.`);
      }
      const target = webhook(record.webhookId);
      admit(target);
      const result = await triggers.handle(target, {
        method: record.method,
        headers: record.headers,
        query: record.query,
        body: record.body ?? undefined,
        origin: 'replay',
        replayOf: record.id,
        receivedAt: context.now(),
      });
      return outcome(result);
    },

    /** A test payload, as the trigger URL would take it (JSON when it parses, else text), signature aside. */
    async test(webhookId: string, payload: string): Promise<z.output<typeof TriggerOutcome>> {
      const target = webhook(webhookId);
      admit(target);
      let contentType = 'text/plain; charset=utf-8';
      try {
        JSON.parse(payload);
        contentType = 'application/json';
      } catch {
        // Not JSON: sent as text.
      }
      const body = Buffer.from(payload);
      const result = await triggers.handle(target, { method: 'POST', headers: { 'content-type': contentType }, query: {}, body, origin: 'test', receivedAt: context.now() });
      return outcome(result);
    },
  };
}

export type DeliveriesService = ReturnType<typeof createDeliveriesService>;

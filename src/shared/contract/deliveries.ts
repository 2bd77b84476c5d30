// Deliveries: every request to a known webhook (accepted, refused or skipped), what it carried
// (headers with secrets redacted, query, body) and what came of it; a delivery can be replayed.
import { z } from 'zod';
import { Id, IdParams, NoQuery, Timestamp, defineOperation } from './common';
import { RunStatus } from './runs';
import { TriggerOutcome } from './webhooks';

export const deliveryOutcomes = ['accepted', 'duplicate', 'skipped', 'challenge', 'refused'] as const;
export const DeliveryOutcome = z
  .enum(deliveryOutcomes)
  .describe('accepted: a run was queued; duplicate: the idempotency key was seen, the original run; skipped: the filter; challenge: a Slack url_verification; refused: an error');
export type DeliveryOutcomeName = z.infer<typeof DeliveryOutcome>;

export const deliveryOrigins = ['sender', 'replay', 'test'] as const;

export const DeliverySummary = z.object({
  id: Id('dlv'),
  webhookId: Id('whk'),
  receivedAt: Timestamp,
  origin: z.enum(deliveryOrigins).describe('sender: a request to the trigger URL; replay: POST /api/deliveries/{id}/replay; test: a test payload'),
  replayOf: z.string().nullable().describe('For a replay: the delivery it replayed'),
  method: z.string(),
  contentType: z.string().nullable(),
  status: z.int().describe('The HTTP status the sender got'),
  outcome: DeliveryOutcome,
  errorCode: z.string().nullable(),
  message: z.string().nullable().describe("The error's message, or why the filter skipped it"),
  runId: z.string().nullable().describe('The run it queued (or, for a duplicate, the original run)'),
  run: z
    .object({ id: Id('run'), status: RunStatus, why: z.string().nullable().optional().describe('For a cancelled run: why, in a few words ("denied by you"); absent otherwise') })
    .nullable()
    .describe("That run as it is now (its status read from the run, not the delivery); null when there is none or it is gone. Whether Steward took the request is `outcome`, not this"),
  bodyBytes: z.int().nullable().describe('The size of the body; null when it was refused before it was read'),
  replayable: z.boolean().describe('Whether it was stored whole, so it can be replayed'),
});
export type DeliverySummary = z.infer<typeof DeliverySummary>;

export const Delivery = DeliverySummary.extend({
  headers: z.record(z.string(), z.string()).describe('Request headers; credentials (Authorization, cookies, signatures, tokens) are "[redacted]"'),
  query: z.record(z.string(), z.union([z.string(), z.array(z.string())])).describe('Query parameters, credentials redacted'),
  body: z.string().nullable().describe('The body, when it was read (at most the webhook\'s limit)'),
  bodyEncoding: z.enum(['utf8', 'base64']).describe('base64 when the body is not UTF-8 text'),
});
export type Delivery = z.infer<typeof Delivery>;

export const DeliveryListQuery = z.strictObject({
  before: z.string().optional().describe('A delivery id: the page after it (older)'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const DeliveryReplay = z.strictObject({
  force: z.boolean().default(false).describe('true: replay a delivery Steward refused (its body was never verified); without it such a replay is 409 refused_delivery'),
});

export const deliveryOperations = {
  'deliveries.list': defineOperation({
    name: 'deliveries.list', method: 'GET', path: '/api/webhooks/{id}/deliveries', summary: "A webhook's deliveries, newest first; pass nextBefore as before for the next page",
    auth: true, runKey: 'own', status: 200, params: IdParams, query: DeliveryListQuery, body: z.undefined(),
    output: z.object({ deliveries: z.array(DeliverySummary), nextBefore: z.string().nullable() }),
  }),
  'deliveries.get': defineOperation({
    name: 'deliveries.get', method: 'GET', path: '/api/deliveries/{id}', summary: 'A delivery with its headers and body',
    auth: true, runKey: 'own', status: 200, params: IdParams, query: NoQuery, body: z.undefined(), output: z.object({ delivery: Delivery }),
  }),
  'deliveries.replay': defineOperation({
    name: 'deliveries.replay', method: 'POST', path: '/api/deliveries/{id}/replay',
    summary: 'Replay a delivery as if it arrived now, from its stored body and headers: the filter applies, the signature and idempotency checks do not. A refused one (a bad signature, say) needs {"force": true}',
    auth: true, status: 202, params: IdParams, query: NoQuery, body: DeliveryReplay, output: TriggerOutcome,
  }),
};

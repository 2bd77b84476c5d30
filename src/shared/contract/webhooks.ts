// Webhooks: a secret trigger URL whose request fills a prompt template (seed "Webhook"), with a
// payload limit, filter, fencing and sender preset of its own (webhook-rules.ts).
import { z } from 'zod';
import { NotifyOverride } from './settings';
import { Id, IdParams, Name, NoInput, NoQuery, Timestamp, defineOperation } from './common';
import { Memory, RunStatus } from './runs';
import { RetryPolicy } from './retries';
import { ApprovalPolicy } from './approvals';
import { FencePayload, Filter, IdempotencyKeyTemplate, MaxPayloadBytes, PromptTemplate, Sender, maxPayloadBytesLimit, maxTriggerBytes, payloadPlaceholder } from './webhook-rules';

export const signatureSchemes = ['github', 'stripe', 'standard', 'slack'] as const;
export const SignatureScheme = z.enum(signatureSchemes);
export type SignatureScheme = z.infer<typeof SignatureScheme>;

export const SignatureInput = z
  .strictObject({
    scheme: SignatureScheme.optional().describe("github: X-Hub-Signature-256; stripe: Stripe-Signature; standard: Standard Webhooks; slack: X-Slack-Signature. Default: the webhook's sender's"),
    secret: z.string().min(8, 'must be at least 8 characters').max(1024).describe('Write-only; stored encrypted'),
  })
  .describe('Require a valid signature on every trigger; a bad or missing one is 401 invalid_signature');

export const Webhook = z.object({
  id: Id('whk'),
  name: z.string(),
  promptTemplate: z.string(),
  token: z.string().optional().describe("Secret; the credential embedded in the trigger URL. Never shown to a run's key"),
  enabled: z.boolean(),
  instanceId: Id('ins'),
  threadId: Id('thr'),
  createdByRunId: z.string().nullable().optional().describe("The run whose agent made it (through Steward's tools); its runs are that run's children. null: made by a person"),
  triggerUrl: z.string().optional().describe("The local trigger URL; never shown to a run's key"),
  publicTriggerUrl: z.string().nullable().optional().describe("The trigger URL through the tunnel, while it is up; never shown to a run's key"),
  notify: NotifyOverride,
  memory: Memory,
  retry: RetryPolicy,
  approval: ApprovalPolicy,
  signature: z.object({ scheme: SignatureScheme }).nullable().describe('The signature check, if any; the secret is never shown'),
  checkInForce: z.string().describe('The check a trigger request passes, in words: the token alone, or the token and a valid signature'),
  sender: Sender,
  maxPayloadBytes: MaxPayloadBytes,
  filter: Filter,
  fencePayload: FencePayload,
  idempotencyKey: IdempotencyKeyTemplate,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Webhook = z.infer<typeof Webhook>;

export const WebhookCreate = z.strictObject({
  name: Name,
  promptTemplate: PromptTemplate.optional().describe("Required unless a sender's preset gives one"),
  enabled: z.boolean().default(true),
  notify: NotifyOverride.default('default'),
  memory: Memory.default('fresh'),
  retry: RetryPolicy.optional().describe('Default: no retry'),
  approval: ApprovalPolicy.optional().describe('Default: none (runs start without asking)'),
  instanceId: z.string().optional().describe('Default: the default instance'),
  signature: SignatureInput.optional(),
  sender: Sender.default('generic'),
  maxPayloadBytes: MaxPayloadBytes.optional().describe(`Default ${maxTriggerBytes}, or the sender's (1 MiB for github, stripe, slack)`),
  filter: Filter.default([]),
  fencePayload: FencePayload.default(false),
  idempotencyKey: IdempotencyKeyTemplate.optional().describe("Default: null (the Idempotency-Key or X-GitHub-Delivery header), or the sender's"),
});

export const WebhookUpdate = z.strictObject({
  name: Name.optional(),
  promptTemplate: PromptTemplate.optional(),
  enabled: z.boolean().optional(),
  notify: NotifyOverride.optional(),
  memory: Memory.optional(),
  retry: RetryPolicy.optional(),
  approval: ApprovalPolicy.optional(),
  regenerateToken: z.boolean().optional().describe('true: a new token; the old trigger URL stops working at once'),
  instanceId: z.string().optional(),
  signature: SignatureInput.nullable().optional().describe('null: no signature check'),
  sender: Sender.optional().describe('Changes no other field'),
  maxPayloadBytes: MaxPayloadBytes.optional(),
  filter: Filter.optional(),
  fencePayload: FencePayload.optional(),
  idempotencyKey: IdempotencyKeyTemplate.optional(),
});

export const TriggerParams = z.strictObject({ token: z.string() });

export const RunRef = z.object({ id: Id('run'), status: RunStatus, threadId: Id('thr') });

export const TriggerAccepted = z.object({ run: RunRef });

export const TriggerAnswer = z.union([
  TriggerAccepted.describe('202: a run was queued; 200: the Idempotency-Key was seen, the original run'),
  z.object({ skipped: z.literal(true), reason: z.string() }).describe('200: the filter skipped it; no run'),
  z.object({ challenge: z.string() }).describe("200: a Slack webhook answering Slack's url_verification"),
]);

/** What a test payload or a replayed delivery led to. */
export const TriggerOutcome = z.object({
  run: RunRef.nullable().describe('The run it queued; null when the filter skipped it (or it was a Slack challenge)'),
  skipped: z.boolean(),
  reason: z.string().nullable().describe('Why the filter skipped it'),
  deliveryId: Id('dlv').describe('The delivery it was recorded as'),
});

const WebhookEnvelope = z.object({ webhook: Webhook });

export const webhookOperations = {
  'webhooks.list': defineOperation({
    name: 'webhooks.list', method: 'GET', path: '/api/webhooks', summary: 'List webhooks',
    // Their trigger tokens start runs: not for a read-only key, and a run's key sees its own instance's without them.
    auth: true, runKey: 'own', scope: 'runs', status: 200, params: NoInput, query: NoQuery, body: z.undefined(),
    output: z.object({ webhooks: z.array(Webhook) }),
  }),
  'webhooks.create': defineOperation({
    name: 'webhooks.create', method: 'POST', path: '/api/webhooks', summary: 'Create a webhook; the response holds its token',
    auth: true, runKey: 'own', status: 201, params: NoInput, query: NoQuery, body: WebhookCreate, output: WebhookEnvelope,
  }),
  'webhooks.get': defineOperation({
    name: 'webhooks.get', method: 'GET', path: '/api/webhooks/{id}', summary: 'Get a webhook',
    auth: true, runKey: 'own', scope: 'runs', status: 200, params: IdParams, query: NoQuery, body: z.undefined(), output: WebhookEnvelope,
  }),
  'webhooks.update': defineOperation({
    name: 'webhooks.update', method: 'PUT', path: '/api/webhooks/{id}', summary: 'Update a webhook; omitted fields stay unchanged',
    auth: true, runKey: 'own', status: 200, params: IdParams, query: NoQuery, body: WebhookUpdate, output: WebhookEnvelope,
  }),
  'webhooks.test': defineOperation({
    name: 'webhooks.test', method: 'POST', path: '/api/webhooks/{id}/test', summary: 'Trigger the webhook with a test payload, as its trigger URL would (signature checks aside)',
    auth: true, status: 202, params: IdParams, query: NoQuery,
    body: z.strictObject({ payload: z.string().max(maxPayloadBytesLimit, `must be at most ${maxPayloadBytesLimit} characters`) }), output: TriggerOutcome,
  }),
  'webhooks.delete': defineOperation({
    name: 'webhooks.delete', method: 'DELETE', path: '/api/webhooks/{id}', summary: 'Delete a webhook, its thread and its runs',
    auth: true, runKey: 'own', status: 204, params: IdParams, query: NoQuery, body: z.undefined(), output: null,
  }),
  'webhooks.trigger': defineOperation({
    name: 'webhooks.trigger', method: 'POST', path: '/api/webhooks/trigger/{token}',
    summary: `Trigger with a body (JSON or text, at most the webhook's maxPayloadBytes, default ${maxTriggerBytes}) that fills the template (${payloadPlaceholder}, fields, headers, query). 200 with the original run when the idempotency key was seen in the last 24 h; 200 {skipped} when the filter skips it.`,
    auth: false, status: 202, params: TriggerParams, query: NoQuery, body: z.unknown(), output: TriggerAnswer, customRoute: true,
  }),
  'webhooks.triggerGet': defineOperation({
    name: 'webhooks.triggerGet', method: 'GET', path: '/api/webhooks/trigger/{token}',
    summary: `Trigger without a body; ${payloadPlaceholder} becomes the query parameters as a JSON object, or "" when there are none`,
    auth: false, status: 202, params: TriggerParams, query: z.record(z.string(), z.string()), body: z.undefined(), output: TriggerAnswer, customRoute: true,
  }),
};

// Notification channels: where run notifications leave the machine (a signed outbound webhook,
// an ntfy topic, a Slack or Discord incoming webhook), which runs they tell of, and the log of
// what was sent to each. Admin only: they hold URLs and secrets.
import { z } from 'zod';
import { Id, IdParams, Name, NoInput, NoQuery, Timestamp, defineOperation } from './common';
import { SecretName } from './secrets';

export const channelKinds = ['webhook', 'ntfy', 'slack', 'discord'] as const;
export const ChannelKind = z.enum(channelKinds).describe('webhook: a signed POST (Standard Webhooks); ntfy: a topic URL; slack, discord: an incoming-webhook URL');
export type ChannelKind = z.infer<typeof ChannelKind>;

export const channelTriggers = ['failures', 'successes', 'attention', 'all'] as const;
export const ChannelOn = z
  .enum(channelTriggers)
  .describe('failures: failed, timed out or interrupted runs; successes: succeeded runs; attention: failures and runs whose agent reported needs_attention; all: every finished run, cancelled ones included. Approval requests and Steward\'s notices go to every channel but successes');
export type ChannelOn = z.infer<typeof ChannelOn>;

export const channelSourceTypes = ['automation', 'webhook', 'instance'] as const;
export const ChannelSource = z.strictObject({
  type: z.enum(channelSourceTypes),
  id: z.string().min(1),
});
export type ChannelSource = z.infer<typeof ChannelSource>;

export const ChannelSources = z
  .array(ChannelSource)
  .max(100)
  .describe('Empty: every run. Otherwise only runs of these automations or webhooks, or runs on these instances');

/** http or https with a host; loopback http is fine (tests, a self-hosted ntfy). */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export const ChannelUrl = z
  .string()
  .trim()
  .max(2048)
  .refine(isHttpUrl, { message: 'The URL must be an http:// or https:// URL.', params: { code: 'invalid_url' } })
  .describe('Where to POST. Slack and Discord URLs are secrets: stored encrypted and shown shortened');

export const deliveryStatuses = ['pending', 'delivered', 'failed'] as const;
export const NotificationDeliveryStatus = z.enum(deliveryStatuses);

export const LastDelivery = z
  .object({
    status: NotificationDeliveryStatus,
    at: Timestamp.describe('When it finished, or (pending) when it was made'),
    statusCode: z.int().nullable(),
    error: z.string().nullable(),
  })
  .nullable()
  .describe("The channel's newest delivery; null before any");

export const NotificationChannel = z.object({
  id: Id('chn'),
  name: z.string(),
  kind: ChannelKind,
  url: z.string().describe('For slack and discord only the scheme, host and first path segment'),
  enabled: z.boolean(),
  on: ChannelOn,
  sources: z.array(ChannelSource),
  tokenRef: z.string().nullable().describe('ntfy: the stored secret sent as Authorization: Bearer'),
  lastDelivery: LastDelivery,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type NotificationChannel = z.infer<typeof NotificationChannel>;

export const NotificationChannelCreate = z.strictObject({
  name: Name,
  kind: ChannelKind,
  url: ChannelUrl,
  enabled: z.boolean().default(true),
  on: ChannelOn.default('failures'),
  sources: ChannelSources.default([]),
  tokenRef: SecretName.nullable().optional().describe('ntfy only: the name of a stored secret, sent as a bearer token'),
});

export const NotificationChannelUpdate = z.strictObject({
  name: Name.optional(),
  url: ChannelUrl.optional(),
  enabled: z.boolean().optional(),
  on: ChannelOn.optional(),
  sources: ChannelSources.optional(),
  tokenRef: SecretName.nullable().optional(),
  regenerateSecret: z.boolean().optional().describe('webhook only: a new signing secret, in the response; the old one stops at once'),
});

export const NotificationDelivery = z.object({
  id: Id('ntf'),
  channelId: Id('chn'),
  channelName: z.string(),
  runId: z.string().nullable().describe('The run it tells of; null for a test message'),
  event: z.string().describe('run.<status> (run.failed, run.succeeded, ...) or test'),
  status: NotificationDeliveryStatus,
  attempts: z.int(),
  nextAttemptAt: Timestamp.nullable().describe('While pending: when the next attempt is due'),
  lastStatusCode: z.int().nullable(),
  lastError: z.string().nullable(),
  responseBody: z.string().nullable().describe("The receiver's answer to the last attempt (at most 4 KiB)"),
  requestBody: z.string().describe('What was sent'),
  createdAt: Timestamp,
  finishedAt: Timestamp.nullable(),
});
export type NotificationDelivery = z.infer<typeof NotificationDelivery>;

export const NotificationDeliveryQuery = z.strictObject({
  before: z.string().optional().describe('A delivery id: the page after it (older)'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

const ChannelEnvelope = z.object({ channel: NotificationChannel });
const ChannelWithSecret = ChannelEnvelope.extend({
  signingSecret: z.string().nullable().describe('webhook channels: the Standard Webhooks secret (whsec_...), only when just made; null otherwise'),
});

export const notificationOperations = {
  'notifications.list': defineOperation({
    name: 'notifications.list', method: 'GET', path: '/api/notification-channels', summary: 'List notification channels',
    auth: true, scope: 'admin', status: 200, params: NoInput, query: NoQuery, body: z.undefined(),
    output: z.object({ channels: z.array(NotificationChannel) }),
  }),
  'notifications.create': defineOperation({
    name: 'notifications.create', method: 'POST', path: '/api/notification-channels', summary: 'Create a notification channel; a webhook channel\'s signing secret is in this response only',
    auth: true, status: 201, params: NoInput, query: NoQuery, body: NotificationChannelCreate, output: ChannelWithSecret,
  }),
  'notifications.get': defineOperation({
    name: 'notifications.get', method: 'GET', path: '/api/notification-channels/{id}', summary: 'Get a notification channel',
    auth: true, scope: 'admin', status: 200, params: IdParams, query: NoQuery, body: z.undefined(), output: ChannelEnvelope,
  }),
  'notifications.update': defineOperation({
    name: 'notifications.update', method: 'PUT', path: '/api/notification-channels/{id}', summary: 'Update a notification channel; omitted fields stay unchanged (the kind cannot change)',
    auth: true, status: 200, params: IdParams, query: NoQuery, body: NotificationChannelUpdate, output: ChannelWithSecret,
  }),
  'notifications.delete': defineOperation({
    name: 'notifications.delete', method: 'DELETE', path: '/api/notification-channels/{id}', summary: 'Delete a notification channel and its deliveries',
    auth: true, status: 204, params: IdParams, query: NoQuery, body: z.undefined(), output: null,
  }),
  'notifications.test': defineOperation({
    name: 'notifications.test', method: 'POST', path: '/api/notification-channels/{id}/test', summary: 'Send a test message now, once; the answer is its delivery record, delivered or failed',
    auth: true, status: 200, params: IdParams, query: NoQuery, body: NoInput, output: z.object({ delivery: NotificationDelivery }),
  }),
  'notifications.deliveries': defineOperation({
    name: 'notifications.deliveries', method: 'GET', path: '/api/notification-channels/{id}/deliveries', summary: "A channel's deliveries, newest first; pass nextBefore as before for the next page",
    auth: true, scope: 'admin', status: 200, params: IdParams, query: NotificationDeliveryQuery, body: z.undefined(),
    output: z.object({ deliveries: z.array(NotificationDelivery), nextBefore: z.string().nullable() }),
  }),
  'notifications.forRun': defineOperation({
    name: 'notifications.forRun', method: 'GET', path: '/api/runs/{id}/notifications', summary: 'The notifications a run caused',
    auth: true, scope: 'admin', status: 200, params: IdParams, query: NoQuery, body: z.undefined(),
    output: z.object({ deliveries: z.array(NotificationDelivery) }),
  }),
};

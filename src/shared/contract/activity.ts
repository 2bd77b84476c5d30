// The activity feed (seed "Activity event", DESIGN §4 Activity): every instance's append-only log
// of what its agent said and did, polled with exact per-instance cursors or followed live.
import { z } from 'zod';
import { IdParams, NoInput, Timestamp, defineOperation } from './common';

export const activityKinds = ['user', 'assistant', 'tool', 'search', 'system'] as const;
export type ActivityKind = (typeof activityKinds)[number];
export const activityLabels = ['cron', 'hook', 'chat', 'api', ''] as const;
export type ActivityLabel = (typeof activityLabels)[number];

export const ActivityEvent = z.object({
  instanceId: z.string(),
  instanceName: z.string(),
  avatarUrl: z.string(),
  label: z.enum(activityLabels),
  kind: z.enum(activityKinds),
  timestamp: Timestamp,
  displayText: z.string(),
  raw: z.string().describe('The whole event as a JSON string'),
  line: z.int().describe("The line's number in its instance's log, from 1"),
  runId: z.string().nullable(),
});
export type ActivityEvent = z.infer<typeof ActivityEvent>;

export const ActivityInstance = z.object({ id: z.string(), name: z.string(), avatarUrl: z.string() });

/** instanceId → the last line seen. */
export const Cursors = z.record(z.string(), z.int().min(0));
export type Cursors = z.infer<typeof Cursors>;

/** A comma-separated list in a query string, each item one of `values`. */
const csv = <T extends string>(values: readonly [T, ...T[]]) =>
  z
    .string()
    .transform((text) => text.split(',').map((item) => item.trim()).filter(Boolean))
    .pipe(z.array(z.enum(values)).min(1));

const ids = z
  .string()
  .transform((text) => text.split(',').map((item) => item.trim()).filter(Boolean))
  .pipe(z.array(z.string()).min(1, 'must name at least one instance'));

export const ActivityQuery = z.strictObject({
  cursors: z.string().optional().describe('Base64 of the JSON cursors object a previous response returned'),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  since: z.iso.datetime({ offset: true }).optional().describe('Only lines at or after this time'),
  until: z.iso.datetime({ offset: true }).optional().describe('Only lines before this time'),
  kinds: csv(activityKinds).optional().describe('Comma-separated kinds'),
  labels: csv(['cron', 'hook', 'chat', 'api', 'none']).optional().describe('Comma-separated labels; `none` for lines without one'),
  instanceIds: ids.optional().describe('Comma-separated instance ids'),
  location: z.enum(['local', 'all']).default('all').describe("`local`: only this Steward's own instances, not its remotes'"),
});
export type ActivityQuery = z.output<typeof ActivityQuery>;

export const ActivityFeed = z.object({
  events: z.array(ActivityEvent).describe('Oldest first'),
  cursors: Cursors.describe('Pass back, Base64-encoded, as `cursors` on the next poll'),
  instances: z.array(ActivityInstance),
  hasMore: z.boolean().describe('More new lines are waiting than `limit` allowed'),
  skipped: z.record(z.string(), z.int()).describe('Per instance, lines a cursor pointed before that retention had already removed'),
});
export type ActivityFeed = z.infer<typeof ActivityFeed>;

export const InstanceActivityQuery = z.strictObject({
  cursor: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(1000),
});

export const InstanceActivity = z.object({
  events: z.array(ActivityEvent),
  lineCount: z.int().describe('The number of the last line the instance has written'),
  cursor: z.int().describe('Pass as `cursor` next time'),
  hasMore: z.boolean(),
  skipped: z.int().describe('Lines after the cursor that retention had already removed'),
});

export const activityOperations = {
  'activity.list': defineOperation({
    name: 'activity.list', method: 'GET', path: '/api/activity', summary: 'The activity feed across instances, polled with cursors',
    auth: true, runKey: 'own', status: 200, params: NoInput, query: ActivityQuery, body: z.undefined(), output: ActivityFeed,
  }),
  'instances.activity': defineOperation({
    name: 'instances.activity', method: 'GET', path: '/api/instances/{id}/activity', summary: "One instance's activity lines after a cursor",
    auth: true, runKey: 'own', status: 200, params: IdParams, query: InstanceActivityQuery, body: z.undefined(), output: InstanceActivity,
  }),
  'events.stream': defineOperation({
    name: 'events.stream', method: 'GET', path: '/api/events',
    summary:
      'Server-Sent Events: `activity` (a line, id = its sequence number, resumable with Last-Event-ID), `run` (a run changed status), `instance` (an instance changed), `changed` ({resource, id}: an automation, webhook, approval or remote was created, changed or deleted; an API key (`apiKey`) was made or revoked, by the CLI too; a webhook got a delivery (`delivery`, id = its webhook, at most about four a second per webhook)), `heartbeat` (every 15 s), `reset` (too much was missed to replay: reload) and `overflow` (the client fell behind: the stream closes; reconnect and reload). A key has at most 16 streams open at once (429 too_many_streams)',
    auth: true, status: 200, params: NoInput, query: z.strictObject({ lastEventId: z.coerce.number().int().min(0).optional() }), body: z.undefined(),
    output: z.string().describe('text/event-stream'), customRoute: true,
  }),
};

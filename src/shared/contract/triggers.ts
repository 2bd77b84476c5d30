// What starts an automation besides a cron schedule: another automation's run ending (`after`), a
// time once (`at`), an interval (`every`), or an event a source reports (`watch`, `git`, `mail`,
// `feed`). One object naming exactly one kind. Event sources keep a cursor and a runtime health.
import { z } from 'zod';
import { Timestamp } from './common';
import { endedRunStatuses } from './runs';
import { SecretName } from './secrets';
import { localTimeProblem } from '../once-every';

export const eventKinds = ['watch', 'git', 'mail', 'feed'] as const;
export type EventKind = (typeof eventKinds)[number];
export const triggerKinds = ['after', 'at', 'every', ...eventKinds] as const;
export type TriggerKind = (typeof triggerKinds)[number];

/** A wall time in the automation's timezone (2026-11-28T09:00) or an instant with its offset (…Z, …+01:00). */
export const LocalTime = z.string().superRefine((value, ctx) => {
  const problem = localTimeProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, params: { code: 'invalid_time' } });
});

const FieldName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an event field name such as from or subject');

export const EventCondition = z
  .strictObject({
    field: FieldName.describe("The event's field: for mail from, to, subject, text; for a file path, name, change; for git authors, messages, branch; for a feed title, link, author, text, categories"),
    contains: z.string().min(1).max(1000).optional().describe('Holds when the field contains this text, ignoring case'),
    equals: z.string().max(1000).optional().describe('Holds when the field is this text'),
    in: z.array(z.string().max(1000)).min(1).max(100).optional().describe('Holds when the field is one of these'),
    exists: z.boolean().optional().describe('true: holds when the field is present and not empty; false: when it is not'),
  })
  .superRefine((condition, ctx) => {
    const tests = (['contains', 'equals', 'in', 'exists'] as const).filter((key) => condition[key] !== undefined);
    if (tests.length !== 1) ctx.addIssue({ code: 'custom', message: 'must have exactly one of contains, equals, in or exists' });
  });
export type EventCondition = z.output<typeof EventCondition>;

export const EventFilter = z
  .array(EventCondition)
  .max(20, 'must have at most 20 conditions')
  .default([])
  .describe('Conditions on the event that must all hold; an event that fails one starts no run (its fire is recorded skipped, reason filter)');

export const fileChanges = ['created', 'changed', 'deleted'] as const;

export const WatchTrigger = z.strictObject({
  path: z.string().min(1).max(4096).describe('The folder watched (absolute, or ~/ for the home folder), its subfolders included'),
  glob: z.string().min(1).max(1000).default('**/*').describe('Which files, relative to the folder: **/*.pdf, *.csv, reports/**'),
  on: z.array(z.enum(fileChanges)).min(1).default(['created']).describe('Which changes start a run'),
  debounceMs: z.int().min(0).max(60_000).default(1000).describe('Changes within this long of each other make one batch'),
  settleMs: z.int().min(0).max(600_000).default(2000).describe('A file must keep its size and modification time this long before it counts: one still being written is not taken half way'),
  per: z.enum(['file', 'batch']).default('file').describe('file: one run per file; batch: one run per batch of changes'),
  filter: EventFilter,
});

export const GitTrigger = z.strictObject({
  repository: z.string().min(1).max(4096).describe('A local repository path, or a remote URL (https://, ssh://, git://) that Steward fetches with your git'),
  branch: z.string().min(1).max(255).regex(/^[^\s~^:?*[\\]+$/, 'must be a branch name').default('main'),
  credential: SecretName.optional().describe('The secret holding a token for an https remote'),
  pollSeconds: z.int().min(10).max(86_400).default(60).describe('How often a remote is fetched (a local repository is watched)'),
  filter: EventFilter,
});

export const MailTrigger = z.strictObject({
  host: z.string().min(1).max(255),
  port: z.int().min(1).max(65_535).default(993),
  tls: z.boolean().default(true).describe('true: TLS from the start (port 993); false: plain IMAP, upgraded with STARTTLS where the server offers it'),
  user: z.string().min(1).max(500),
  password: SecretName.describe('The secret holding the password (or app password)'),
  mailbox: z.string().min(1).max(500).default('INBOX'),
  afterRun: z.enum(['leave', 'mark-read', 'move']).default('leave').describe('What happens to the message after its run succeeds'),
  moveTo: z.string().min(1).max(500).optional().describe('The mailbox it is moved to (afterRun move)'),
  pollSeconds: z.int().min(10).max(86_400).default(60).describe('How often a server without IDLE is asked'),
  filter: EventFilter,
});

export const FeedTrigger = z.strictObject({
  url: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).max(4096).describe('An RSS, Atom or JSON Feed'),
  pollMinutes: z.int().min(1).max(1440).default(15),
  filter: EventFilter,
});

export const EveryTrigger = z
  .strictObject({
    minutes: z.int().min(1).max(525_600).optional(),
    hours: z.int().min(1).max(8760).optional(),
    days: z.int().min(1).max(366).optional().describe('Days keep the wall time across daylight saving: every 1 day from 09:00 stays at 09:00'),
    from: LocalTime.optional().describe('The anchor the intervals count from; default: when it was made'),
  })
  .superRefine((value, ctx) => {
    const given = (['minutes', 'hours', 'days'] as const).filter((key) => value[key] !== undefined);
    if (given.length !== 1) ctx.addIssue({ code: 'custom', message: 'must give exactly one of minutes, hours or days', params: { code: 'invalid_trigger' } });
  });

export const AfterTrigger = z.strictObject({
  automationId: z.string().min(1),
  on: z.array(z.enum(endedRunStatuses)).min(1).default(['succeeded']).describe('Which endings of its run start this one'),
});

/** The trigger's fields; a configuration file names `after`'s automation by its name instead (config.ts). */
export const triggerShape = {
    after: AfterTrigger.optional().describe("Run after another automation's run ends; the prompt takes {{previous.output}}, {{previous.status}}, {{previous.runId}}, {{previous.summary}}"),
    at: LocalTime.optional().describe('Once, at this time in the automation\'s timezone (2026-11-28T09:00); after firing the automation is disabled and kept'),
    every: EveryTrigger.optional().describe('Every so many minutes, hours or days from an anchor'),
    watch: WatchTrigger.optional().describe('A run per new, changed or deleted file in a folder (or per batch)'),
    git: GitTrigger.optional().describe('A run per push to a branch, with its new commits'),
    mail: MailTrigger.optional().describe('A run per new message in an IMAP mailbox'),
    feed: FeedTrigger.optional().describe('A run per new item of an RSS, Atom or JSON feed'),
};

/** The rules across a trigger's fields: exactly one kind, and a mailbox to move to. */
export function checkTrigger(value: Partial<Record<TriggerKind, unknown>> & { mail?: { afterRun: string; moveTo?: string | undefined } | undefined }, ctx: z.RefinementCtx): void {
  const given = triggerKinds.filter((kind) => value[kind] !== undefined);
  if (given.length !== 1) ctx.addIssue({ code: 'custom', message: `must name exactly one of ${triggerKinds.join(', ')}`, params: { code: 'invalid_trigger' } });
  if (value.mail?.afterRun === 'move' && !value.mail.moveTo) ctx.addIssue({ code: 'custom', path: ['mail', 'moveTo'], message: 'is required when afterRun is move', params: { code: 'invalid_trigger' } });
}

export const AutomationTrigger = z
  .strictObject(triggerShape)
  .superRefine(checkTrigger)
  .describe('What starts it instead of a cron schedule: exactly one kind. Event kinds (watch, git, mail, feed) fill {{event}} and {{event.<field>}} in the prompt');
export type AutomationTrigger = z.output<typeof AutomationTrigger>;
export type WatchTrigger = z.output<typeof WatchTrigger>;
export type GitTrigger = z.output<typeof GitTrigger>;
export type MailTrigger = z.output<typeof MailTrigger>;
export type FeedTrigger = z.output<typeof FeedTrigger>;
export type EveryTrigger = z.output<typeof EveryTrigger>;

/** The kind a trigger names (exactly one, as the schema checked). */
export const triggerKind = (trigger: AutomationTrigger): TriggerKind => triggerKinds.find((kind) => trigger[kind] !== undefined)!;
/** The event kind a trigger names, or undefined for after/at/every. */
export const eventKindOf = (trigger: AutomationTrigger | null): EventKind | undefined => (trigger ? eventKinds.find((kind) => trigger[kind] !== undefined) : undefined);

export const sourceStates = ['listening', 'checking', 'failing'] as const;
export const SourceHealth = z
  .object({
    state: z.enum(sourceStates).describe('listening: connected and waiting for events; checking: connecting or checking; failing: the last attempt failed (error), retried with backoff'),
    since: Timestamp.describe('In this state since'),
    error: z.string().nullable().describe("Why it is failing, in the source's words"),
    how: z.string().nullable().describe('How it waits, in words: "IDLE", "polled every 60 s", "watching 3 folders"'),
    lastEventAt: Timestamp.nullable(),
    lastCheckAt: Timestamp.nullable().describe('The last time the source was proved alive (a connection, a NOOP, a fetch, a scan)'),
    failures: z.int().min(0).describe('Failed attempts in a row'),
  })
  .describe("An event source's runtime health; null for schedules, at, every and after");
export type SourceHealth = z.infer<typeof SourceHealth>;

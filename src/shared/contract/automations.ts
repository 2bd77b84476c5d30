// Automations: a fixed prompt sent to an instance on a cron schedule (seed "Automation").
import { z } from 'zod';
import { NotifyOverride } from './settings';
import { cronProblem, isValidTimezone } from '../cron';
import { unknownPlaceholderProblem } from '../placeholders';
import { Id, IdParams, Name, NoInput, NoQuery, Timestamp, defineOperation } from './common';
import { Memory, Run, RunStatus, endedRunStatuses } from './runs';
import { Budget } from './budgets';
import { AutomationHealth } from './fires';
import { RetryPolicy } from './retries';
import { ApprovalPolicy } from './approvals';
import { AutomationTrigger, SourceHealth } from './triggers';

export const PreviewedEvent = z.object({ key: z.string(), at: Timestamp, summary: z.string() });
export type PreviewedEvent = z.infer<typeof PreviewedEvent>;

export const CronExpression = z.string().superRefine((value, ctx) => {
  const problem = cronProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: `Invalid cron expression: ${problem}`, params: { code: 'invalid_cron' } });
});

export const Timezone = z.string().superRefine((value, ctx) => {
  if (!isValidTimezone(value)) {
    ctx.addIssue({ code: 'custom', message: `Unknown timezone "${value}": use an IANA name such as Europe/Berlin`, params: { code: 'invalid_timezone' } });
  }
});

export const catchUpModes = ['latest', 'skip', 'all'] as const;
export const CatchUp = z
  .enum(catchUpModes)
  .describe('After fires missed while Steward was off: run the latest one within 24 h late ("latest"), skip them all ("skip"), or, for an event trigger, run each event found ("all", an event trigger\'s default)');

/** The finished statuses a chained automation can follow. */
export const chainableStatuses = endedRunStatuses;

export const Prompt = z
  .string()
  .min(1, 'must not be empty')
  .max(100_000, 'must be at most 100000 characters')
  .superRefine((value, ctx) => {
    const problem = unknownPlaceholderProblem(value, 'automation');
    if (problem) ctx.addIssue({ code: 'custom', message: problem, params: { code: 'unknown_placeholder' } });
  });

export const Automation = z.object({
  id: Id('aut'),
  name: z.string(),
  prompt: z.string(),
  cronExpression: z.string().nullable().describe('null for an automation with a trigger'),
  trigger: AutomationTrigger.nullable().describe('null for one on a cron schedule'),
  timezone: z.string(),
  enabled: z.boolean(),
  catchUp: CatchUp,
  notify: NotifyOverride,
  memory: Memory,
  retry: RetryPolicy,
  budget: Budget,
  approval: ApprovalPolicy,
  health: AutomationHealth,
  source: SourceHealth.nullable(),
  instanceId: Id('ins'),
  threadId: Id('thr'),
  createdByRunId: z.string().nullable().optional().describe("The run whose agent made it (through Steward's tools); its runs are that run's children. null: made by a person"),
  nextRuns: z.array(Timestamp).describe('The next 5 fire times; empty while disabled'),
  lastRunAt: Timestamp.nullable(),
  lastRunStatus: RunStatus.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Automation = z.infer<typeof Automation>;

export const AutomationCreate = z
  .strictObject({
    name: Name,
    prompt: Prompt,
    cronExpression: CronExpression.optional().describe('A cron schedule; or give trigger instead'),
    trigger: AutomationTrigger.optional(),
    timezone: Timezone.default('UTC'),
    enabled: z.boolean().default(true),
    catchUp: CatchUp.optional().describe('Default: latest; all for an event trigger'),
    notify: NotifyOverride.default('default'),
    memory: Memory.default('fresh'),
    retry: RetryPolicy.optional().describe('Default: no retry'),
    approval: ApprovalPolicy.optional().describe('Default: none (runs start without asking)'),
    budget: Budget.optional().describe('Default: {} (no limit)'),
    instanceId: z.string().optional().describe('Default: the default instance'),
  })
  .superRefine(checkScheduleOrTrigger);

/** An automation starts on a cron schedule or on a trigger: exactly one of the two. */
export function checkScheduleOrTrigger(value: { cronExpression?: string | undefined; trigger?: unknown }, ctx: z.RefinementCtx): void {
  if ((value.cronExpression === undefined) === (value.trigger === undefined)) {
    ctx.addIssue({ code: 'custom', path: ['cronExpression'], message: 'Give either cronExpression (a cron schedule) or trigger (after, at, every, watch, git, mail or feed), not both and not neither', params: { code: 'invalid_trigger' } });
  }
}

export const AutomationUpdate = z.strictObject({
  name: Name.optional(),
  prompt: Prompt.optional(),
  cronExpression: CronExpression.optional().describe('Switches a chained automation to this schedule'),
  trigger: AutomationTrigger.optional().describe('Switches a cron-scheduled automation to this trigger (or one trigger to another)'),
  timezone: Timezone.optional(),
  enabled: z.boolean().optional(),
  catchUp: CatchUp.optional(),
  notify: NotifyOverride.optional(),
  memory: Memory.optional(),
  retry: RetryPolicy.optional(),
  approval: ApprovalPolicy.optional(),
  budget: Budget.optional().describe('The whole budget, replaced'),
  instanceId: z.string().optional(),
}).refine((value) => value.cronExpression === undefined || value.trigger === undefined, { message: 'Give cronExpression or trigger, not both', path: ['cronExpression'], params: { code: 'invalid_trigger' } });

export const SchedulerState = z.object({
  paused: z.boolean().describe('true: no automation fires until resumed; fires missed meanwhile are not caught up'),
  nextFireAt: Timestamp.nullable().describe('When the next automation fires'),
  enabledAutomations: z.int(),
});
export type SchedulerState = z.infer<typeof SchedulerState>;

export const SchedulerUpdate = z.strictObject({ paused: z.boolean() });

const AutomationEnvelope = z.object({ automation: Automation });

export const automationOperations = {
  'automations.list': defineOperation({
    name: 'automations.list', method: 'GET', path: '/api/automations', summary: 'List automations',
    auth: true, runKey: 'own', status: 200, params: NoInput, query: NoQuery, body: z.undefined(),
    output: z.object({ automations: z.array(Automation) }),
  }),
  'automations.create': defineOperation({
    name: 'automations.create', method: 'POST', path: '/api/automations', summary: 'Create an automation',
    auth: true, runKey: 'own', status: 201, params: NoInput, query: NoQuery, body: AutomationCreate, output: AutomationEnvelope,
  }),
  'automations.get': defineOperation({
    name: 'automations.get', method: 'GET', path: '/api/automations/{id}', summary: 'Get an automation',
    auth: true, runKey: 'own', status: 200, params: IdParams, query: NoQuery, body: z.undefined(), output: AutomationEnvelope,
  }),
  'automations.update': defineOperation({
    name: 'automations.update', method: 'PUT', path: '/api/automations/{id}', summary: 'Update an automation; omitted fields stay unchanged',
    auth: true, runKey: 'own', status: 200, params: IdParams, query: NoQuery, body: AutomationUpdate, output: AutomationEnvelope,
  }),
  'automations.delete': defineOperation({
    name: 'automations.delete', method: 'DELETE', path: '/api/automations/{id}', summary: 'Delete an automation, its thread and its runs',
    auth: true, runKey: 'own', status: 204, params: IdParams, query: NoQuery, body: z.undefined(), output: null,
  }),
  'scheduler.get': defineOperation({
    name: 'scheduler.get', method: 'GET', path: '/api/scheduler', summary: 'Whether automations are paused, and the next fire',
    auth: true, status: 200, params: NoInput, query: NoQuery, body: z.undefined(), output: z.object({ scheduler: SchedulerState }),
  }),
  'scheduler.update': defineOperation({
    name: 'scheduler.update', method: 'PUT', path: '/api/scheduler', summary: 'Pause or resume all automations',
    auth: true, status: 200, params: NoInput, query: NoQuery, body: SchedulerUpdate, output: z.object({ scheduler: SchedulerState }),
  }),
  'automations.preview': defineOperation({
    name: 'automations.preview', method: 'POST', path: '/api/automations/preview', summary: "What an event trigger (watch, git, mail, feed) would have fired in the last 24 h, newest first, read from its source now: a folder's recent files, a branch's recent commits, a mailbox's recent messages, a feed's items",
    auth: true, status: 200, params: NoInput, query: NoQuery,
    body: z.strictObject({ trigger: AutomationTrigger, timezone: Timezone.default('UTC') }),
    output: z.object({ events: z.array(PreviewedEvent).describe('At most 50') }),
  }),
  'automations.run': defineOperation({
    name: 'automations.run', method: 'POST', path: '/api/automations/{id}/run', summary: 'Queue a run of the automation now',
    auth: true, status: 202, params: IdParams, query: NoQuery, body: NoInput, output: z.object({ run: Run }),
  }),
};

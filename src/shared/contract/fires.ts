// Every due fire of an automation accounted for, and what that says of its health.
import { z } from 'zod';
import { Id, IdParams, Timestamp, defineOperation } from './common';
import { RunStatus } from './runs';

export const fireStates = ['fired', 'caught-up', 'skipped', 'missed'] as const;
export const FireState = z
  .enum(fireStates)
  .describe('fired: ran on time; caught-up: ran late after Steward was off; skipped: not run, see reason; missed: Steward was not running');
export type FireState = z.infer<typeof FireState>;

export const fireReasons = ['overlap', 'catch_up', 'budget', 'instance_stopped', 'steward_off', 'filter'] as const;
export const FireReason = z
  .enum(fireReasons)
  .describe("overlap: its previous run was still queued or running; catch_up: the automation's catch-up policy left it unrun; budget: over its budget; instance_stopped: its instance was stopped; steward_off: Steward was not running; filter: the event did not pass the trigger's filter");
export type FireReason = z.infer<typeof FireReason>;

export const Fire = z.object({
  automationId: Id('aut'),
  dueAt: Timestamp,
  state: FireState,
  reason: FireReason.nullable(),
  detail: z.string().nullable().describe('Why, in words, when it did not run'),
  event: z.string().nullable().describe('For an event trigger: what happened, in words ("invoice.pdf created", "3 commits pushed to main")'),
  runId: z.string().nullable(),
  runStatus: RunStatus.nullable().describe("Its run's status now"),
  recordedAt: Timestamp,
});
export type Fire = z.infer<typeof Fire>;

export const healthStates = ['healthy', 'failing', 'missing'] as const;

export const AutomationHealth = z.object({
  state: z
    .enum(healthStates)
    .describe('failing: its last runs failed, as many in a row as the notifications.unhealthyAfter setting or more; missing: a fire was missed (Steward off, or the machine asleep) after its last on-time fire; else healthy'),
  lastFireAt: Timestamp.nullable(),
  lastRunId: z.string().nullable(),
  lastRunStatus: RunStatus.nullable(),
  consecutiveFailures: z.int().min(0),
  missedLast30Days: z.int().min(0).describe('Fires missed or skipped in the last 30 days'),
  nextFireAt: Timestamp.nullable(),
});
export type AutomationHealth = z.infer<typeof AutomationHealth>;

export const FiresQuery = z.strictObject({
  since: Timestamp.optional().describe('Fires due at or after this time; default: 7 days ago'),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});

export const fireOperations = {
  'automations.fires': defineOperation({
    name: 'automations.fires', method: 'GET', path: '/api/automations/{id}/fires', summary: "An automation's due fires and what became of each (fired, caught-up, skipped, missed), newest first",
    auth: true, runKey: 'own', status: 200, params: IdParams, query: FiresQuery, body: z.undefined(), output: z.object({ fires: z.array(Fire) }),
  }),
};

// The agenda: every automation's due fires in a window, past ones with what became of them and
// future ones with what they are expected to cost.
import { z } from 'zod';
import { Id, NoInput, Timestamp, defineOperation } from './common';
import { FireReason, FireState } from './fires';
import { RunStatus } from './runs';

export const AgendaEntry = z.object({
  automationId: Id('aut'),
  automationName: z.string(),
  instanceId: Id('ins'),
  dueAt: Timestamp,
  state: z.union([FireState, z.literal('due')]).describe('What became of a past fire; "due" for one still to come'),
  reason: FireReason.nullable(),
  detail: z.string().nullable(),
  event: z.string().nullable().describe('For an event trigger\'s fire: what happened, in words'),
  runId: z.string().nullable(),
  runStatus: RunStatus.nullable(),
  forecastUsd: z.number().nullable().describe("For a fire still to come: the automation's average cost per run; null when its runs reported no cost"),
});
export type AgendaEntry = z.infer<typeof AgendaEntry>;

export const maxAgendaDays = 35;

export const AgendaQuery = z
  .strictObject({
    from: Timestamp.optional().describe('Default: the start of today (UTC)'),
    to: Timestamp.optional().describe(`Default: 8 days after from; at most ${maxAgendaDays} days after it`),
    after: z.string().regex(/^[^|]+\|aut_[0-9A-Za-z]+$/, 'must be the nextAfter of a previous page').optional().describe("The previous page's nextAfter: entries after it"),
    limit: z.coerce.number().int().min(1).max(10_000).default(2000),
  })
  .refine((query) => query.from === undefined || query.to === undefined || query.from < query.to, { message: 'must be after from', path: ['to'] });

export const Agenda = z.object({
  from: Timestamp,
  to: Timestamp,
  entries: z.array(AgendaEntry).describe('Oldest first (by due time, then automation id)'),
  nextAfter: z.string().nullable().describe('More entries follow in the window: pass this as after for the next page; null: this was the last'),
  forecastMonthUsd: z.number().nullable().describe('Every enabled automation\'s forecast spend for the next 30 days; null when none reported a cost'),
});
export type Agenda = z.infer<typeof Agenda>;

export const agendaOperations = {
  'agenda.get': defineOperation({
    name: 'agenda.get', method: 'GET', path: '/api/agenda', summary: "Every automation's due fires in a window: past ones with what became of them, future ones with their forecast cost",
    auth: true, status: 200, params: NoInput, query: AgendaQuery, body: z.undefined(), output: z.object({ agenda: Agenda }),
  }),
};

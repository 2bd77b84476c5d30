// Spending limits of instances and automations: a run that would start over budget does not.
import { z } from 'zod';
import { IdParams, NoQuery, defineOperation } from './common';

const Usd = z.number().positive().max(1_000_000);

export const Budget = z
  .strictObject({
    usdPerDay: Usd.optional().describe("US dollars a day (in the automation's timezone; UTC for an instance)"),
    usdPerMonth: Usd.optional().describe('US dollars a calendar month'),
    tokensPerDay: z.int().positive().optional().describe('Tokens (in and out) a day: for agents that report no cost'),
    usdPerRun: Usd.optional().describe('A run whose reported spend passes it is cancelled'),
  })
  .describe('Empty: no limit. Spend is what runs reported (cost, tokens); a run whose agent reports no cost counts its tokens only');
export type Budget = z.infer<typeof Budget>;

export const SpendDay = z.object({
  date: z.string().describe("YYYY-MM-DD in the automation's timezone"),
  costUsd: z.number(),
  tokens: z.int(),
  runs: z.int(),
  succeeded: z.int(),
  failed: z.int().describe('Failed, timed out or interrupted'),
  nothingToReport: z.int(),
  needsAttention: z.int(),
});

export const Spend = z.object({
  averageCostUsd: z.number().nullable().describe('Per run, over its runs of the last 30 days that reported a cost; null when none did'),
  averageTokens: z.number().nullable(),
  forecast30DaysUsd: z.number().nullable().describe('The average cost times its fires in the next 30 days'),
  firesNext30Days: z.int(),
  reportsCost: z.boolean().describe("Whether its agent reports cost (else only tokens count toward budgets)"),
  days: z.array(SpendDay).describe('The last 30 days, oldest first'),
});
export type Spend = z.infer<typeof Spend>;

export const spendOperations = {
  'automations.spend': defineOperation({
    name: 'automations.spend', method: 'GET', path: '/api/automations/{id}/spend', summary: "An automation's spend and outcomes per day over the last 30 days, its average cost per run and its forecast",
    auth: true, runKey: 'own', status: 200, params: IdParams, query: NoQuery, body: z.undefined(), output: z.object({ spend: Spend }),
  }),
};

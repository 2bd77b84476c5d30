// Spending limits of instances and automations: a run that would start over budget does not.
import { z } from 'zod';

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

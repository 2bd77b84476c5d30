// Budgets over the real HTTP API and a real SQLite file seeded with runs that reported their
// spend: a run asked for by hand over budget is refused (409 over_budget, naming the budget and
// its reset); a webhook's sender still gets 202 and its run ends cancelled, saying why; and an
// automation's spend, day by day in its timezone, with its average and forecast.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueRun } from '../../src/main/core/services/run-queue';
import type { Automation, Outcome, Spend } from '../../src/shared/contract';
import { ManualClock } from '../support/clock';
import { type TestCore, request, startTestCore } from '../support/core';
import type { EndedStatus } from '../../src/main/core/store/repositories/runs';

let t: TestCore;
let instanceId: string;
beforeAll(async () => {
  t = await startTestCore({ clock: new ManualClock('2026-11-25T10:00:00.000Z') });
  instanceId = (await t.api('GET', '/api/instances')).body.instances.find((instance: { isDefault: boolean }) => instance.isDefault).id;
});
afterAll(() => t.close());

/** A finished run of an automation (or of none) as its agent left it: created at `at`, with what it reported. */
function seed(at: string, fields: { automation?: Automation; status?: EndedStatus; costUsd?: number | null; tokens?: number | null; outcome?: Outcome }): void {
  const { store } = t.core;
  store.transaction(() => {
    const { automation } = fields;
    const threadId = automation?.threadId ?? store.threads.list({ limit: 1 })[0]?.id ?? 'thr_none';
    const run = enqueueRun(store, { instanceId: automation?.instanceId ?? instanceId, threadId, source: automation ? 'automation' : 'api', sourceId: automation?.id ?? null, prompt: 'seeded' }, new Date(at));
    const tokens = fields.tokens ?? null;
    store.runs.setUsage(run.id, { costUsd: fields.costUsd ?? null, inputTokens: tokens, outputTokens: tokens === null ? null : 0 });
    if (fields.outcome) store.runs.setOutcome(run.id, fields.outcome, null);
    store.runs.claim(run.id, at);
    store.runs.finish(run.id, fields.status ?? 'succeeded', at, null, null);
  });
}

const automationNamed = async (name: string, fields: Record<string, unknown> = {}): Promise<Automation> =>
  (await t.api('POST', '/api/automations', { name, prompt: 'digest', cronExpression: '0 9 * * *', ...fields })).body.automation;

const noticesOf = async () =>
  (await t.api('GET', `/api/instances/${instanceId}/activity?limit=1000`)).body.events
    .map((line: { raw: string }) => JSON.parse(line.raw))
    .filter((raw: { type: string }) => raw.type === 'notice');

describe('by hand, over budget', () => {
  it('refuses "Run now" with 409 over_budget, naming the budget and when it resets, and starts nothing', async () => {
    const automation = await automationNamed('Daily digest', { timezone: 'Europe/Berlin', budget: { usdPerDay: 2 } });
    seed('2026-11-25T08:00:00.000Z', { automation, costUsd: 2.04 });
    const response = await t.api('POST', `/api/automations/${automation.id}/run`);
    expect(response.status).toBe(409);
    expect(response.body.error).toMatchObject({
      code: 'over_budget',
      message: 'Over budget: automation "Daily digest" spent $2.04 of its $2.00 a day; it resets at 2026-11-26T00:00:00+01:00.',
    });
    expect(t.core.store.runs.list({ sourceId: automation.id, limit: 10 })).toHaveLength(1);
  });

  it("refuses a prompt, a webhook test and a replay over the instance's budget; a webhook's sender still gets 202 and its run ends cancelled, with one notice", async () => {
    const webhook = (await t.api('POST', '/api/webhooks', { name: 'hook', promptTemplate: 'Got {{payload}}' })).body.webhook;
    const accepted = await request(`${t.url}/api/webhooks/trigger/${webhook.token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":0}' });
    expect(accepted.status).toBe(202);

    expect((await t.api('PATCH', `/api/instances/${instanceId}`, { budget: { tokensPerDay: 1000 } })).status).toBe(200);
    seed('2026-11-25T09:00:00.000Z', { tokens: 1500 });
    const message = 'Over budget: instance "Steward" spent 1,500 tokens of its 1,000 tokens a day; it resets at 2026-11-26T00:00:00+00:00';

    const prompt = await t.api('POST', '/api/runs', { instanceId, prompt: 'hello' });
    expect(prompt.status).toBe(409);
    expect(prompt.body.error).toMatchObject({ code: 'over_budget', message: `${message}.` });
    expect((await t.api('POST', `/api/webhooks/${webhook.id}/test`, { payload: '{}' })).body.error).toMatchObject({ code: 'over_budget', message: `${message}.` });
    const [delivery] = (await t.api('GET', `/api/webhooks/${webhook.id}/deliveries`)).body.deliveries;
    expect((await t.api('POST', `/api/deliveries/${delivery.id}/replay`)).status).toBe(409);

    for (const n of [1, 2]) {
      const triggered = await request(`${t.url}/api/webhooks/trigger/${webhook.token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"n":${n}}` });
      expect(triggered.status).toBe(202);
      expect(triggered.body.run.status).toBe('cancelled');
      const { run } = (await t.api('GET', `/api/runs/${triggered.body.run.id}`)).body;
      expect(run).toMatchObject({ status: 'cancelled', error: `${message}.`, prompt: `Got {"n":${n}}`, startedAt: null });
    }
    // Its delivery says it was accepted and why its run was cancelled at once, apart from the run's status.
    const [latest] = (await t.api('GET', `/api/webhooks/${webhook.id}/deliveries`)).body.deliveries;
    expect(latest).toMatchObject({ outcome: 'accepted', status: 202, message: `Its run was cancelled at once: ${message}.`, run: { status: 'cancelled' } });
    expect(await noticesOf()).toEqual([
      { type: 'notice', kind: 'over-budget', title: 'Instance "Steward" is over budget', body: `${message}. Its runs do not start until then.`, instanceId },
    ]);
    expect((await t.api('PATCH', `/api/instances/${instanceId}`, { budget: {} })).status).toBe(200);
    expect((await t.api('POST', '/api/runs', { instanceId, prompt: 'hello' })).status).toBe(202);
  });
});

describe('GET /api/automations/{id}/spend', () => {
  it("adds up its runs' spend and outcomes per day in its timezone, averages the cost per run and forecasts 30 days of its schedule", async () => {
    // Now is 05:00 on Nov 25 in New York; it fires daily at 09:00 there.
    const automation = await automationNamed('Spender', { timezone: 'America/New_York' });
    const other = await automationNamed('Other');
    seed('2026-11-25T09:30:00.000Z', { automation, costUsd: 0.1, tokens: 1000, outcome: 'done' }); // 04:30 on the 25th
    seed('2026-11-25T03:00:00.000Z', { automation, status: 'failed', costUsd: 0.3, tokens: 3000, outcome: 'needs_attention' }); // 22:00 on the 24th
    seed('2026-11-24T14:00:00.000Z', { automation, tokens: 500, outcome: 'nothing_to_report' }); // 09:00 on the 24th, no cost reported
    seed('2026-11-24T14:00:00.000Z', { automation, status: 'timed_out' });
    seed('2026-10-20T14:00:00.000Z', { automation, costUsd: 9 }); // older than 30 days
    seed('2026-11-25T09:00:00.000Z', { automation: other, costUsd: 4 });

    const response = await t.api('GET', `/api/automations/${automation.id}/spend`);
    expect(response.status).toBe(200);
    const spend = response.body.spend as Spend;
    expect(spend.days).toHaveLength(30);
    expect(spend.days[0]).toEqual({ date: '2026-10-27', costUsd: 0, tokens: 0, runs: 0, succeeded: 0, failed: 0, nothingToReport: 0, needsAttention: 0 });
    expect(spend.days.at(-2)).toEqual({ date: '2026-11-24', costUsd: 0.3, tokens: 3500, runs: 3, succeeded: 1, failed: 2, nothingToReport: 1, needsAttention: 1 });
    expect(spend.days.at(-1)).toEqual({ date: '2026-11-25', costUsd: 0.1, tokens: 1000, runs: 1, succeeded: 1, failed: 0, nothingToReport: 0, needsAttention: 0 });
    expect(spend.averageCostUsd).toBeCloseTo(0.2);
    expect(spend.averageTokens).toBe(1500);
    expect(spend.firesNext30Days).toBe(30);
    expect(spend.forecast30DaysUsd).toBeCloseTo(6);
    // The default instance runs Claude Code, which reports cost.
    expect(spend.reportsCost).toBe(true);
  });

  it('forecasts a chained automation by the fires of the one it follows, and nothing for one with no runs', async () => {
    const head = await automationNamed('Every six hours', { cronExpression: '0 */6 * * *' });
    const chained = (await t.api('POST', '/api/automations', { name: 'After it', prompt: 'then', trigger: { after: { automationId: head.id, on: ['succeeded'] } } })).body.automation as Automation;
    const { spend } = (await t.api('GET', `/api/automations/${chained.id}/spend`)).body as { spend: Spend };
    expect(spend).toMatchObject({ firesNext30Days: 120, averageCostUsd: null, forecast30DaysUsd: null });
    expect((await t.api('GET', '/api/automations/aut_nope/spend')).status).toBe(404);
    // Every minute: 43,200 fires in 30 days, counted without walking each one.
    const busy = await automationNamed('Every minute', { cronExpression: '* * * * *' });
    expect((await t.api('GET', `/api/automations/${busy.id}/spend`)).body.spend.firesNext30Days).toBe(43_200);
  });
});

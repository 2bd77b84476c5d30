// @vitest-environment jsdom
// Automation cards on a real core: the health badge (failing after three failed runs in a row,
// "Missed fires" after a missed fire, nothing while healthy), the spend line and its 30-day chart
// with the same figures as a table, and History listing the automation's runs. Spend is answered by
// a client double in front of the real client until its handler lands.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { Automations } from '../../src/renderer/src/features/automations/Automations';
import { HealthBadge } from '../../src/renderer/src/features/automations/HealthBadge';
import { ApiError, type CallInput, type StewardClient } from '../../src/renderer/src/lib/api';
import { createAppStore } from '../../src/renderer/src/store';
import type { AutomationHealth, Spend } from '../../src/shared/contract';
import { type TestCore, startTestCore } from '../support/core';
import { settled } from '../support/runs';
import { connectStore, ipcClientOf, renderWith } from './harness';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore({ clock: systemClock });
});
afterAll(() => t.close());
afterEach(cleanup);

const failing = { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'echo no; exit 3'] };

/** The real client, with automations.spend answered from `spendOf` (by automation id; it may throw). */
function withSpend(client: StewardClient, spendOf: (id: string) => Spend): StewardClient {
  return {
    subscribe: (listener) => client.subscribe(listener),
    call: (async (name: Parameters<StewardClient['call']>[0], input?: CallInput) =>
      name === 'automations.spend' ? { spend: spendOf(input!.params!.id) } : client.call(name, input)) as StewardClient['call'],
  };
}

function days(count: number, of: (index: number) => Partial<Spend['days'][number]>): Spend['days'] {
  const start = Date.UTC(2026, 9, 27);
  return Array.from({ length: count }, (_, index) => ({
    date: new Date(start + index * 86_400_000).toISOString().slice(0, 10),
    costUsd: 0, tokens: 0, runs: 0, succeeded: 0, failed: 0, nothingToReport: 0, needsAttention: 0,
    ...of(index),
  }));
}

describe('the health badge', () => {
  it('says "Failing: 3 runs in a row" after three failed runs, "Missed fires" after a missed fire, and nothing while healthy', async () => {
    const { instance } = (await t.api('POST', '/api/instances', { name: 'Broken', agent: failing, sandbox: { mode: 'off' } })).body;
    await t.core.services.instances.idle();
    const { automation: flaky } = (await t.api('POST', '/api/automations', { name: 'Flaky', prompt: 'Try.', cronExpression: '@yearly', instanceId: instance.id })).body;
    for (let index = 0; index < 3; index++) expect((await settled(t, (await t.api('POST', `/api/automations/${flaky.id}/run`)).body.run.id)).status).toBe('failed');
    const { automation: sleepy } = (await t.api('POST', '/api/automations', { name: 'Sleepy', prompt: 'Wake.', cronExpression: '0 3 * * *' })).body;
    t.core.store.fires.record({ automationId: sleepy.id, dueAt: new Date(Date.now() - 3_600_000).toISOString(), state: 'missed', reason: 'steward_off', detail: 'Steward was not running', runId: null, recordedAt: new Date().toISOString() });
    await t.api('POST', '/api/automations', { name: 'Fine', prompt: 'Rest.', cronExpression: '0 4 * * *' });

    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadInstances(), store.getState().loadAutomations()]);
    renderWith(store, <Automations />);
    const badgeOf = (name: string) => screen.getByRole('article', { name }).querySelector('.badge.health');
    expect(badgeOf('Flaky')?.textContent).toBe('✕ Failing: 3 runs in a row');
    expect(badgeOf('Sleepy')?.textContent).toBe('! Missed fires');
    expect(badgeOf('Sleepy')?.getAttribute('title')).toMatch(/^1 fire missed or skipped in the last 30 days\. Last fire: /);
    expect(badgeOf('Fine')).toBeNull();

    // History: the automation's runs, each linked to its page.
    const card = within(screen.getByRole('article', { name: 'Flaky' }));
    fireEvent.click(card.getByRole('button', { name: 'History' }));
    const history = await card.findByRole('region', { name: 'History of Flaky' });
    await waitFor(() => expect(within(history).getAllByRole('listitem')).toHaveLength(3));
    expect(within(history).getAllByText('failed')).toHaveLength(3);
    const runIds = ((await t.api('GET', `/api/runs?sourceId=${flaky.id}`)).body.runs as { id: string }[]).map((run) => `#/runs/${run.id}`);
    expect(within(history).getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual([...runIds, `#/threads/${flaky.threadId}`]);
    expect(card.getByRole('button', { name: 'History' }).getAttribute('aria-expanded')).toBe('true');
    disconnect();
  });

  it('shows nothing for a healthy automation, in words for one failing once', () => {
    const health: AutomationHealth = { state: 'healthy', lastFireAt: null, lastRunId: null, lastRunStatus: null, consecutiveFailures: 0, missedLast30Days: 0, nextFireAt: null };
    const { container } = render(<HealthBadge health={health} />);
    expect(container.textContent).toBe('');
    cleanup();
    render(<HealthBadge health={{ ...health, state: 'failing', consecutiveFailures: 1 }} />);
    expect(screen.getByText('Failing: 1 run in a row')).toBeTruthy();
  });
});

describe('the spend line and chart', () => {
  it('gives the average and the forecast in dollars, or in tokens when the agent reports no cost, with the days as a table', async () => {
    const { automation: paid } = (await t.api('POST', '/api/automations', { name: 'Paid', prompt: 'Spend.', cronExpression: '0 9 * * *' })).body;
    const { automation: counted } = (await t.api('POST', '/api/automations', { name: 'Counted', prompt: 'Count.', cronExpression: '0 10 * * *' })).body;
    const spends: Record<string, Spend> = {
      [paid.id]: {
        averageCostUsd: 0.12, averageTokens: 3000, forecast30DaysUsd: 3.6, firesNext30Days: 30, reportsCost: true,
        days: days(30, (index) => (index === 28 ? { costUsd: 0.24, tokens: 6000, runs: 2, succeeded: 1, failed: 1 } : index === 29 ? { costUsd: 0.12, tokens: 3000, runs: 1, succeeded: 1, needsAttention: 1 } : {})),
      },
      [counted.id]: { averageCostUsd: null, averageTokens: 1500, forecast30DaysUsd: null, firesNext30Days: 30, reportsCost: false, days: days(30, (index) => (index === 29 ? { tokens: 1500, runs: 1, succeeded: 1 } : {})) },
    };
    const { client, unregister } = ipcClientOf(t);
    const store = createAppStore(withSpend(client, (id) => spends[id] ?? { averageCostUsd: null, averageTokens: null, forecast30DaysUsd: null, firesNext30Days: 0, reportsCost: false, days: days(30, () => ({})) }));
    await Promise.all([store.getState().loadInstances(), store.getState().loadAutomations()]);
    renderWith(store, <Automations />);

    const card = within(screen.getByRole('article', { name: 'Paid' }));
    await waitFor(() => expect(card.getByTestId('spend-line').textContent).toBe('avg $0.12 a run · about $3.60 in the next 30 days'));
    expect(card.getByRole('img').getAttribute('aria-label')).toBe('Last 30 days: 3 runs, 1 failed, $0.36 in all.');
    const bars = [...card.getByRole('img').querySelectorAll('rect')];
    expect(bars).toHaveLength(30);
    expect(bars.slice(28).map((bar) => bar.getAttribute('class'))).toEqual(['day failed', 'day attention']);
    // The higher day's bar is the taller.
    expect(Number(bars[28].getAttribute('height'))).toBeGreaterThan(Number(bars[29].getAttribute('height')));
    const rows = within(card.getByRole('table')).getAllByRole('row').map((row) => row.textContent);
    expect(rows).toEqual(['DayRunsFailedNeeds attentionSpend', 'Tue 24 Nov210$0.24', 'Wed 25 Nov101$0.12']);

    const tokens = within(screen.getByRole('article', { name: 'Counted' }));
    await waitFor(() => expect(tokens.getByTestId('spend-line').textContent).toBe('avg 1,500 tokens a run · about 45,000 tokens in the next 30 days (its agent reports no cost)'));
    expect(tokens.getByRole('img').getAttribute('aria-label')).toBe('Last 30 days: 1 run, 0 failed, 1,500 tokens in all.');
    unregister();
  });

  it('says so quietly when the spend cannot be loaded', async () => {
    const { client, unregister } = ipcClientOf(t);
    const store = createAppStore(withSpend(client, () => {
      throw new ApiError('internal_error', 'Spend is not built yet.');
    }));
    await Promise.all([store.getState().loadInstances(), store.getState().loadAutomations()]);
    renderWith(store, <Automations />);
    const card = within(screen.getByRole('article', { name: 'Paid' }));
    expect((await card.findByText(/^Spend not available: /)).textContent).toBe('Spend not available: Spend is not built yet.');
    expect(card.queryByRole('img')).toBeNull();
    // The rest of the card stands.
    expect(card.getByRole('button', { name: 'Run now' })).toBeTruthy();
    unregister();
  });
});

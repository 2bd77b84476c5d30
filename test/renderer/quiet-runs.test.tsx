// @vitest-environment jsdom
// Quiet runs stay quiet, on a real core whose agent reports outcomes through Steward's MCP server:
// the run list and the activity feed fold an automation's nothing_to_report runs of a day into one
// line that opens to show them; a run that needs attention stays in plain sight; Settings offers
// the attention policy.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { Run } from '../../src/shared/contract';
import { Activity } from '../../src/renderer/src/features/activity/Activity';
import { RunList } from '../../src/renderer/src/features/runs/Runs';
import { Settings } from '../../src/renderer/src/features/settings/Settings';
import { type TestCore, startTestCore } from '../support/core';
import { reportingAgent } from '../support/reporting-agent';
import { settled } from '../support/runs';
import { connectStore, renderWith } from './harness';

let t: TestCore;
const quiet: Run[] = [];
let attention: Run;

beforeAll(async () => {
  t = await startTestCore({ clock: systemClock });
  const instanceId = (await t.api('POST', '/api/instances', { name: 'Reporter', agent: reportingAgent })).body.instance.id;
  const automation = async (name: string, prompt: string) => (await t.api('POST', '/api/automations', { name, prompt, cronExpression: '0 9 * * *', instanceId })).body.automation.id as string;
  const digest = await automation('Daily digest', 'nothing_to_report: No new mail.');
  const alerts = await automation('Disk alerts', 'needs_attention: The disk is 97% full.');
  const runNow = async (id: string) => settled(t, (await t.api('POST', `/api/automations/${id}/run`)).body.run.id);
  for (let index = 0; index < 3; index++) quiet.push(await runNow(digest));
  attention = await runNow(alerts);
  expect([...quiet, attention].map((run) => run.outcome)).toEqual(['nothing_to_report', 'nothing_to_report', 'nothing_to_report', 'needs_attention']);
});
afterAll(() => t.close());
afterEach(cleanup);

const runLinks = () => [...document.querySelectorAll('a[href^="#/runs/"]')].map((link) => link.getAttribute('href')!.slice('#/runs/'.length));

describe('quiet runs', () => {
  it('fold into one row of the run list per automation and day, which opens to show them', async () => {
    const { store, disconnect } = connectStore(t);
    await store.getState().loadAutomations();
    renderWith(store, <RunList />);
    const fold = await screen.findByRole('button', { name: 'Daily digest: 3 runs, nothing to report' });
    expect(new Set(runLinks())).toEqual(new Set([attention.id]));
    expect(screen.getByRole('row', { name: /Needs attention/ }).textContent).toContain('The disk is 97% full.');

    fireEvent.click(fold);
    expect(fold.getAttribute('aria-expanded')).toBe('true');
    expect(new Set(runLinks())).toEqual(new Set([attention.id, ...quiet.map((run) => run.id)]));
    disconnect();
  });

  it('fold into one line of the feed, with every line of those runs inside it', async () => {
    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadAutomations(), store.getState().loadInstances(), store.getState().loadActivity()]);
    renderWith(store, <Activity />);
    const log = await screen.findByRole('log', { name: 'Activity stream' });
    const fold = await within(log).findByRole('button', { name: 'Daily digest: 3 runs, nothing to report' });
    expect(log.textContent).toContain('Outcome: needs attention — The disk is 97% full.');
    expect(log.textContent).not.toContain('No new mail');

    fireEvent.click(fold);
    await waitFor(() => expect(log.textContent?.match(/Outcome: nothing to report — No new mail\./g)).toHaveLength(3));
    disconnect();
  });
});

describe('the attention policy', () => {
  it('is offered in Settings and saved', async () => {
    const { store, disconnect } = connectStore(t);
    await store.getState().loadSettings();
    renderWith(store, <Settings />);
    const policy = await screen.findByLabelText('Notify me when a run finishes');
    expect(within(policy).getByRole('option', { name: 'When it fails or needs attention' })).toBeTruthy();
    fireEvent.change(policy, { target: { value: 'attention' } });
    await waitFor(async () => expect((await t.api('GET', '/api/settings')).body.settings.notifications.on).toBe('attention'));
    disconnect();
  });
});

// @vitest-environment jsdom
// Live everywhere, on a real core: what changes through the API (an automation created, renamed,
// run, deleted; a webhook and an instance renamed) reaches the shown UI without a reload, and an
// automation's next run never stays in the past.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { Automations } from '../../src/renderer/src/features/automations/Automations';
import { type TestCore, startTestCore } from '../support/core';
import { settled } from '../support/runs';
import { connectStore, renderWith } from './harness';

let t: TestCore;
let instanceId: string;

beforeAll(async () => {
  t = await startTestCore({ clock: systemClock });
  instanceId = (await t.api('POST', '/api/instances', { name: 'Echo', agent: { provider: 'command', preset: 'custom', command: 'cat' } })).body.instance.id;
  await t.core.services.instances.idle();
});
afterAll(() => t.close());
afterEach(cleanup);

describe('live everywhere', () => {
  it('shows automations created, renamed, run and deleted through the API', async () => {
    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadInstances(), store.getState().loadAutomations()]);
    renderWith(store, <Automations />);
    const { automation } = (await t.api('POST', '/api/automations', { name: 'Digest', prompt: 'hello', cronExpression: '0 7 * * *', instanceId })).body;
    await screen.findByRole('article', { name: 'Digest' });
    expect((await t.api('PUT', `/api/automations/${automation.id}`, { name: 'Morning digest' })).status).toBe(200);
    const card = await screen.findByRole('article', { name: 'Morning digest' });
    expect(screen.queryByRole('article', { name: 'Digest' })).toBeNull();

    // A run of it: its last run's status reaches the card.
    await settled(t, (await t.api('POST', `/api/automations/${automation.id}/run`)).body.run.id);
    await waitFor(() => expect(within(card).getByText('succeeded')).toBeTruthy());

    await t.api('DELETE', `/api/automations/${automation.id}`);
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Morning digest' })).toBeNull());
    disconnect();
  });

  it('updates webhooks and instances renamed through the API', async () => {
    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadInstances(), store.getState().loadWebhooks()]);
    const { webhook } = (await t.api('POST', '/api/webhooks', { name: 'Deploys', promptTemplate: 'Deployed: {{payload}}', instanceId })).body;
    await waitFor(() => expect(store.getState().webhooks.map((each) => each.name)).toContain('Deploys'));
    expect((await t.api('PUT', `/api/webhooks/${webhook.id}`, { name: 'Releases' })).status).toBe(200);
    await waitFor(() => expect(store.getState().webhooks.find((each) => each.id === webhook.id)?.name).toBe('Releases'));
    expect((await t.api('PATCH', `/api/instances/${instanceId}`, { name: 'Parrot' })).status).toBe(200);
    await waitFor(() => expect(store.getState().instances.find((each) => each.id === instanceId)?.name).toBe('Parrot'));
    disconnect();
  });

  it('reloads an automation whose next runs have all passed', async () => {
    const { store, disconnect } = connectStore(t);
    await t.api('POST', '/api/automations', { name: 'Stale', prompt: 'p', cronExpression: '*/5 * * * *', instanceId });
    await Promise.all([store.getState().loadInstances(), store.getState().loadAutomations()]);
    const stale = store.getState().automations.find((each) => each.name === 'Stale')!;
    store.setState({ automations: [{ ...stale, nextRuns: [new Date(Date.now() - 60_000).toISOString()] }] });
    renderWith(store, <Automations />);
    await waitFor(() => expect(Date.parse(store.getState().automations[0].nextRuns[0])).toBeGreaterThan(Date.now()));
    expect(within(screen.getByRole('article', { name: 'Stale' })).getByTestId('next-run').textContent).not.toMatch(/ago/);
    disconnect();
  });
});

// @vitest-environment jsdom
// The webhook view on a real core: a webhook's deliveries with their status, the body viewer,
// Replay (a new run whose prompt is the original's), and a webhook made with a sender preset.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Webhook } from '../../src/shared/contract';
import { Webhooks } from '../../src/renderer/src/features/webhooks/Webhooks';
import { type TestCore, request, startTestCore } from '../support/core';
import { connectStore, renderWith } from './harness';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
  const instance = (await t.api('GET', '/api/instances')).body.instances[0];
  await t.api('POST', `/api/instances/${instance.id}/stop`);
});
afterAll(() => t.close());
afterEach(cleanup);

describe('deliveries in the UI', () => {
  it('lists them with status, shows a body, and replays one into a new run with the same prompt', async () => {
    const webhook = (await t.api('POST', '/api/webhooks', { name: 'CI', promptTemplate: 'CI {{payload.conclusion}}: {{payload}}', filter: [{ payload: 'conclusion', equals: 'failure' }] })).body.webhook as Webhook;
    const failed = await request(webhook.triggerUrl!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"conclusion":"failure","run":7}' });
    await request(webhook.triggerUrl!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"conclusion":"success","run":8}' });

    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadInstances(), store.getState().loadWebhooks()]);
    renderWith(store, <Webhooks />);
    const table = await screen.findByRole('table', { name: 'Deliveries of CI' });
    // A header row, then the deliveries.
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    expect(within(table).getAllByRole('columnheader').map((header) => header.textContent)).toEqual(['When', 'HTTP', 'Accepted / refused', 'Run', 'Actions']);
    const [, skippedRow, acceptedRow] = within(table).getAllByRole('row');
    expect(skippedRow.textContent).toContain('Filtered out');
    expect(skippedRow.textContent).toContain('no run');
    expect(skippedRow.textContent).toContain('payload conclusion is "success", not "failure"');
    expect(acceptedRow.textContent).toContain('202');
    expect(acceptedRow.textContent).toContain('Accepted');
    // The instance is stopped: accepted, and its run still queued.
    expect(acceptedRow.textContent).toContain('queued');

    const view = within(acceptedRow).getByRole('button', { name: /^View delivery/ });
    expect(view.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(view);
    const body = await screen.findByLabelText('Request body');
    expect(body.textContent).toBe(JSON.stringify({ conclusion: 'failure', run: 7 }, null, 2));
    expect(screen.getByLabelText('Request headers').textContent).toContain('content-type: application/json');
    // The viewer has the focus, View says it is open; Close gives the focus back to View.
    const viewer = screen.getByRole('region', { name: /^Delivery / });
    await waitFor(() => expect(document.activeElement).toBe(viewer));
    expect(view.getAttribute('aria-expanded')).toBe('true');
    expect(view.getAttribute('aria-controls')).toBe(viewer.id);
    fireEvent.click(within(viewer).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByLabelText('Request body')).toBeNull());
    expect(document.activeElement).toBe(view);
    expect(view.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(within(acceptedRow).getByRole('button', { name: /^Replay delivery/ }));
    // A loaded machine (two cores, the browser suites alongside) can take longer than waitFor's default second.
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Replayed: a new run, queued. Open the run'), { timeout: 10_000 });
    const replayRunId = within(screen.getByRole('status')).getByRole('link', { name: 'Open the run' }).getAttribute('href')!.replace('#/runs/', '');
    const [original, replay] = await Promise.all([failed.body.run.id, replayRunId].map(async (id) => (await t.api('GET', `/api/runs/${id}`)).body.run));
    expect(replay.prompt).toBe(original.prompt);
    expect(replay.replayOf).toMatch(/^dlv_/);
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Deliveries of CI' })).getAllByRole('row')[1].textContent).toMatch(/\(replay\).*Accepted/));
    disconnect();
  });

  it('creates a webhook from the GitHub preset: its template of fields and a 1 MiB limit', async () => {
    const { store, disconnect } = connectStore(t);
    await store.getState().loadInstances();
    renderWith(store, <Webhooks />);
    fireEvent.click(screen.getAllByRole('button', { name: 'New webhook' })[0]);
    const form = screen.getByRole('form', { name: 'New webhook' });
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'From GitHub' } });
    fireEvent.change(within(form).getByLabelText('Sender'), { target: { value: 'github' } });
    expect(within(form).getByLabelText<HTMLTextAreaElement>('Prompt template').value).toContain('{{payload.repository.full_name}}');
    fireEvent.change(within(form).getByLabelText('Filter'), { target: { value: '[{"header": "x-github-event", "equals": "workflow_run"}]' } });
    // The preset's scheme is shown, so its secret is needed (webhook-check.test.tsx).
    fireEvent.change(within(form).getByLabelText('Signing secret'), { target: { value: 'github-secret' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create webhook' }));
    await waitFor(() => expect(screen.getByRole('article', { name: 'From GitHub' })).toBeTruthy());
    const created = ((await t.api('GET', '/api/webhooks')).body.webhooks as Webhook[]).find((each) => each.name === 'From GitHub')!;
    expect(created).toMatchObject({ sender: 'github', maxPayloadBytes: 1_048_576, filter: [{ header: 'x-github-event', equals: 'workflow_run' }], idempotencyKey: '{{headers.x-github-delivery}}', signature: { scheme: 'github' } });
    disconnect();
  });
});

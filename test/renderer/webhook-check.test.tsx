// @vitest-environment jsdom
// What the webhook form shows is what is in force, on a real core: the GitHub preset shows its
// signature scheme, so saving it without the secret is refused in words (nothing is saved); with the
// secret, the card states the check and an unsigned request is refused (401); choosing None saves no
// check and the card says anyone with the URL can trigger it. The API's read model says the same.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Webhooks } from '../../src/renderer/src/features/webhooks/Webhooks';
import type { Webhook } from '../../src/shared/contract';
import { type TestCore, request, startTestCore } from '../support/core';
import { connectStore, renderWith } from './harness';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
  // Triggers that pass the check queue runs that never start: nothing here needs an agent.
  const instance = (await t.api('GET', '/api/instances')).body.instances[0];
  await t.api('POST', `/api/instances/${instance.id}/stop`);
});
afterAll(() => t.close());
afterEach(cleanup);

async function newGitHubWebhook(name: string) {
  const { store, disconnect } = connectStore(t);
  await Promise.all([store.getState().loadInstances(), store.getState().loadWebhooks()]);
  renderWith(store, <Webhooks />);
  fireEvent.click(screen.getAllByRole('button', { name: 'New webhook' })[0]);
  const form = screen.getByRole('form', { name: 'New webhook' });
  fireEvent.change(within(form).getByLabelText('Name'), { target: { value: name } });
  fireEvent.change(within(form).getByLabelText('Sender'), { target: { value: 'github' } });
  return { form, disconnect };
}

const saved = async (name: string) => ((await t.api('GET', '/api/webhooks')).body.webhooks as Webhook[]).find((each) => each.name === name);
const unsigned = (webhook: Webhook) => request(webhook.triggerUrl!, { method: 'POST', headers: { 'content-type': 'application/json', 'x-github-event': 'push' }, body: '{"zen":"hi"}' });

describe('the webhook form’s signature check', () => {
  it('refuses to save the GitHub preset’s scheme without its secret, in words, and saves nothing', async () => {
    const { form, disconnect } = await newGitHubWebhook('No secret yet');
    expect(within(form).getByLabelText<HTMLSelectElement>('Scheme').value).toBe('github');
    fireEvent.click(within(form).getByRole('button', { name: 'Create webhook' }));
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toBe('Type the signing secret, or choose None: GitHub (X-Hub-Signature-256) without its secret would check nothing.');
    expect(await saved('No secret yet')).toBeUndefined();
    disconnect();
  });

  it('with the secret, saves the check the form shows: the card states it and an unsigned request is refused', async () => {
    const { form, disconnect } = await newGitHubWebhook('Signed');
    fireEvent.change(within(form).getByLabelText('Signing secret'), { target: { value: 'a-github-secret' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create webhook' }));
    const card = await screen.findByRole('article', { name: 'Signed' });
    const webhook = (await saved('Signed'))!;
    expect(webhook.signature).toEqual({ scheme: 'github' });
    expect(webhook.checkInForce).toBe('Signature GitHub (X-Hub-Signature-256): a request without a valid one is refused (401).');
    await waitFor(() => expect(within(card).getByTestId('check-in-force').textContent).toContain(webhook.checkInForce));
    const refused = await unsigned(webhook);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('invalid_signature');
    disconnect();
  });

  it('with None chosen, saves no check, and both the card and the API say so', async () => {
    const { form, disconnect } = await newGitHubWebhook('Open');
    fireEvent.change(within(form).getByLabelText('Scheme'), { target: { value: 'none' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create webhook' }));
    const card = await screen.findByRole('article', { name: 'Open' });
    const webhook = (await saved('Open'))!;
    expect(webhook.signature).toBeNull();
    expect(webhook.checkInForce).toBe('None: anyone with the trigger URL can trigger it. GitHub signs its requests: give this webhook the signing secret to check them.');
    expect(within(card).getByTestId('check-in-force').textContent).toContain('None: anyone with the trigger URL can trigger it.');
    expect((await unsigned(webhook)).status).toBe(202);
    disconnect();
  });
});

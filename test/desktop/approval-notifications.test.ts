// The desktop notification of an approval (src/main/shell/notifications.ts) on the faithful fake of
// Electron's Notification, with a real core: on macOS and Windows it has Allow and Deny buttons that
// decide as the app does (decidedBy 'ui', the run started or cancelled); decided elsewhere, it goes;
// on Linux it has no buttons and a click opens the Needs-you list. A remote Steward's approval is
// asked here too, and decided there.
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { showNotifications } from '../../src/main/shell/notifications';
import { ManualClock } from '../support/clock';
import { type TestCore, request, startTestCore, tempDir } from '../support/core';
import { runCli, startDaemon } from '../support/processes';
import { fakeNotifications } from '../support/fake-electron';
import { waitFor } from '../support/wait';

const echo = { provider: 'command', preset: 'custom', command: 'echo', args: ['done'] };
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A core whose webhook's runs wait for a person, with desktop notifications as on `platform`. */
async function desktop(platform: NodeJS.Platform) {
  const t: TestCore = await startTestCore({ clock: new ManualClock('2026-11-25T10:00:00.000Z') });
  cleanups.push(() => t.close());
  const instance = (await t.api('POST', '/api/instances', { name: 'Deployer', agent: echo, sandbox: { mode: 'off', network: [], readDeny: [], writeAllow: [] } })).body.instance;
  await t.core.services.instances.idle();
  const webhook = (await t.api('POST', '/api/webhooks', { name: 'Deploy', promptTemplate: 'Deploy {{payload}}', instanceId: instance.id, approval: { mode: 'before-run', timeoutSeconds: 3600 } })).body.webhook;
  const fake = fakeNotifications({ platform });
  const opened: string[] = [];
  cleanups.push(showNotifications(t.core, { Notification: fake.Notification, platform, open: (route) => opened.push(route) }));
  const ask = async (payload: string) => {
    const before = fake.shown.length;
    const fired = await request(webhook.triggerUrl, { method: 'POST', body: payload, headers: { 'content-type': 'text/plain' } });
    const runId = fired.body.run.id as string;
    const [approval] = (await t.api('GET', `/api/approvals?status=pending&runId=${runId}`)).body.approvals;
    await waitFor(() => fake.shown.length, { what: 'the notification', timeoutMs: 10_000, until: (count) => count > before });
    return { runId, approvalId: approval.id as string, notification: fake.shown[fake.shown.length - 1] };
  };
  return { t, ask, opened };
}

const approvalOf = async (t: TestCore, id: string) => (await t.api('GET', `/api/approvals/${id}`)).body.approval;
const runOf = async (t: TestCore, id: string) => (await t.api('GET', `/api/runs/${id}`)).body.run;

describe('the desktop notification of an approval', () => {
  it('on macOS, Allow starts the run and Deny cancels it, decided in the app', async () => {
    const { t, ask } = await desktop('darwin');
    const first = await ask('v2');
    expect(first.notification.options).toEqual({ title: 'Steward asks: Start a run of webhook "Deploy"?', body: 'Deploy v2', actions: [{ type: 'button', text: 'Allow' }, { type: 'button', text: 'Deny' }] });

    first.notification.act(0);
    expect(await waitFor(() => approvalOf(t, first.approvalId), { what: 'the decision', timeoutMs: 10_000, until: (approval) => approval.status !== 'pending' })).toMatchObject({ status: 'allowed', decidedBy: 'ui' });
    await waitFor(() => runOf(t, first.runId), { what: 'the run', timeoutMs: 10_000, until: (run) => run.status === 'succeeded' });
    expect(first.notification.visible).toBe(false);

    const second = await ask('v3');
    second.notification.act(1);
    expect(await waitFor(() => approvalOf(t, second.approvalId), { what: 'the decision', timeoutMs: 10_000, until: (approval) => approval.status !== 'pending' })).toMatchObject({ status: 'denied', decidedBy: 'ui' });
    expect(await runOf(t, second.runId)).toMatchObject({ status: 'cancelled', error: 'Not started: denied by you.' });
  });

  it('on Windows too; decided elsewhere, it is taken away', async () => {
    const { t, ask } = await desktop('win32');
    const { approvalId, notification } = await ask('v4');
    expect(notification.options.actions).toHaveLength(2);
    await t.api('POST', `/api/approvals/${approvalId}/decision`, { decision: 'deny', note: 'from the phone' });
    await waitFor(() => notification.visible, { what: 'the notification to close', timeoutMs: 10_000, until: (visible) => !visible });
    expect(() => notification.act(0)).toThrow(/not shown/);
  });

  it('on Linux has no buttons: a click opens the Needs-you list, and decides nothing', async () => {
    const { t, ask, opened } = await desktop('linux');
    const { approvalId, notification } = await ask('v5');
    expect(notification.options).toEqual({ title: 'Steward asks: Start a run of webhook "Deploy"?', body: 'Deploy v5\nClick to answer.' });
    expect(() => notification.act(0)).toThrow(/no actions on linux/);
    notification.click();
    expect(opened).toEqual(['/needs-you']);
    expect(await approvalOf(t, approvalId)).toMatchObject({ status: 'pending' });
  });

  it("asks on this machine for a remote Steward's approval, and Allow decides it there", async () => {
    const remoteDir = tempDir('steward-remote-');
    const key = runCli(['keys', 'create', '--name', 'laptop', '--data-dir', remoteDir]).trim().split('\n').at(-1)!;
    const remote = await startDaemon(remoteDir);
    cleanups.push(() => fs.rmSync(remoteDir, { recursive: true, force: true }), () => remote.stop());
    const there = (method: string, route: string, body?: unknown) =>
      request(`${remote.url}${route}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const instance = (await there('POST', '/api/instances', { name: 'Server deployer', agent: echo, sandbox: { mode: 'off', network: [], readDeny: [], writeAllow: [] } })).body.instance;
    const webhook = (await there('POST', '/api/webhooks', { name: 'Deploy', promptTemplate: 'Deploy {{payload}}', instanceId: instance.id, approval: { mode: 'before-run', timeoutSeconds: 3600 } })).body.webhook;

    const t = await startTestCore({ remoteTiming: { minBackoffMs: 200, maxBackoffMs: 1_000, checkEveryMs: 1_000, stallMs: 20_000 } });
    cleanups.push(() => t.close());
    await t.api('PUT', '/api/secrets/server-key', { value: key });
    const { remote: added } = (await t.api('POST', '/api/remotes', { name: 'Server', url: remote.url, apiKeyRef: 'server-key' })).body;
    await waitFor(async () => (await t.api('GET', `/api/remotes/${added.id}`)).body.remote.state, { what: 'the remote', timeoutMs: 10_000, until: (state) => state === 'connected' });
    const fake = fakeNotifications({ platform: 'darwin' });
    cleanups.push(showNotifications(t.core, { Notification: fake.Notification, platform: 'darwin', open: () => {} }));

    const fired = await request(webhook.triggerUrl, { method: 'POST', body: 'v9', headers: { 'content-type': 'text/plain' } });
    const runId = fired.body.run.id as string;
    await waitFor(() => fake.shown.length, { what: 'the notification', timeoutMs: 10_000, until: (count) => count > 0 });
    expect(fake.shown[0].options).toMatchObject({ title: 'Steward asks: Start a run of webhook "Deploy"?', body: 'Deploy v9' });
    fake.shown[0].act(0);
    await waitFor(async () => (await there('GET', `/api/runs/${runId}`)).body.run.status, { what: 'the run there', timeoutMs: 10_000, until: (status) => status === 'succeeded' });
    const [approval] = (await there('GET', `/api/approvals?runId=${runId}`)).body.approvals;
    // Decided here, over the remote's API with its key: the remote records it as `api`.
    expect(approval).toMatchObject({ status: 'allowed', decidedBy: 'api' });
    await waitFor(() => fake.shown[0].visible, { what: 'the notification to close', timeoutMs: 10_000, until: (visible) => !visible });
  }, 60_000);
});

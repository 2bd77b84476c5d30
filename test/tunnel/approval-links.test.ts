// An approval's decision link through the real tunnel listener, with the SSH provider against a
// real OpenSSH server on loopback: while the tunnel is up the links (and the ntfy buttons that
// carry them) point at its public URL; through it a GET shows the page and decides nothing, a POST
// decides once, the next POST is 410; and nothing else about approvals is served there (the
// management routes are 404 through it even with a valid key). Then the same in real Chromium: the
// tunnel's public link opened in a fresh context at 390×844 with no login, and Allow clicked (the
// page's form POST carries `Origin: null`). Skipped, with a line naming what to install, where
// OpenSSH (or, for the browser test, Chromium) is missing (requirements.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TunnelState } from '../../src/shared/contract';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { type TestCore, request, startTestCore } from '../support/core';
import { type Receiver, startReceiver } from '../support/receiver';
import { lacks } from '../support/requirements';
import { launchChromiumBrowser, phoneViewport } from '../support/phone-browser';
import { type TestSshd, createTestSshd, freePort } from '../support/sshd';
import { waitFor } from '../support/wait';

const skip = lacks('sshd');
const noBrowser = skip || lacks('chromium');
const echo = { provider: 'command', preset: 'custom', command: 'echo', args: ['done'] };

let t: TestCore;
let sshd: TestSshd;
let ntfy: Receiver;
let publicUrl: string;
// Only what beforeAll got as far as starting, newest first.
const cleanups: (() => Promise<void>)[] = [];

function tunnelUp(): Promise<TunnelState> {
  const tunnel = async () => ((await t.api('GET', '/api/tunnel')).body as { tunnel: TunnelState }).tunnel;
  return waitFor(tunnel, { what: 'the tunnel to be up', timeoutMs: 20_000, intervalMs: 100, until: (state) => state.state === 'up' });
}

beforeAll(async () => {
  if (skip) return;
  sshd = await createTestSshd();
  cleanups.unshift(() => sshd.stop());
  await sshd.start();
  const remotePort = await freePort();
  publicUrl = `http://127.0.0.1:${remotePort}`;
  // The tunnel retries and health-checks on real timers.
  t = await startTestCore({ clock: systemClock, notificationTiming: { retryDelaysMs: [20], attemptTimeoutMs: 2_000 } });
  cleanups.unshift(() => t.close());
  ntfy = await startReceiver();
  cleanups.unshift(() => ntfy.close());
  const config = { provider: 'ssh', host: '127.0.0.1', port: sshd.port, user: sshd.user, remotePort, identityFile: sshd.identityFile, knownHostsFile: sshd.knownHostsFile, publicUrl };
  expect((await t.api('PUT', '/api/tunnel', config)).status).toBe(200);
  await t.api('POST', '/api/tunnel/start');
  await tunnelUp();
}, 40_000);
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

describe.skipIf(skip)('a decision link through the tunnel', () => {
  it('GET decides nothing, POST decides once, the second POST is 410; nothing else new is served there', async () => {
    await t.api('POST', '/api/notification-channels', { name: 'Phone', kind: 'ntfy', url: `${ntfy.url}/steward` });
    const instance = (await t.api('POST', '/api/instances', { name: 'Deployer', agent: echo, sandbox: { mode: 'off', network: [], readDeny: [], writeAllow: [] } })).body.instance;
    await t.core.services.instances.idle();
    const webhook = (await t.api('POST', '/api/webhooks', { name: 'Deploy', promptTemplate: 'Deploy {{payload}}', instanceId: instance.id, approval: { mode: 'before-run', timeoutSeconds: 3600 } })).body.webhook;
    const fired = await request(webhook.triggerUrl, { method: 'POST', body: 'v2', headers: { 'content-type': 'text/plain' } });
    const runId = fired.body.run.id as string;
    const [approval] = (await t.api('GET', `/api/approvals?status=pending&runId=${runId}`)).body.approvals;
    expect(approval.links.allow.startsWith(`${publicUrl}/api/approvals/links/`)).toBe(true);

    // The phone gets the links as the tunnel serves them.
    const [message] = await ntfy.waitFor(1);
    const allow = message.headers.actions.split(';')[0].split(',').map((part) => part.trim())[2];
    expect(allow).toBe(approval.links.allow);

    const page = await request(allow, { method: 'GET' });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<form method="post"><button class="allow" type="submit">Allow</button></form>');
    expect((await t.api('GET', `/api/approvals/${approval.id}`)).body.approval.status).toBe('pending');
    expect((await t.api('GET', `/api/runs/${runId}`)).body.run.status).toBe('waiting');

    const decided = await request(allow, { method: 'POST' });
    expect(decided.status).toBe(200);
    expect(decided.text).toContain('The run is queued and starts now.');
    expect((await t.api('GET', `/api/approvals/${approval.id}`)).body.approval).toMatchObject({ status: 'allowed', decidedBy: 'link' });

    const again = await request(allow, { method: 'POST' });
    expect(again.status).toBe(410);
    expect(again.text).toContain('the request was allowed by a link');
    expect((await request(approval.links.deny, { method: 'POST' })).status).toBe(410);
    expect((await request(`${publicUrl}/api/approvals/links/${'x'.repeat(43)}`, { method: 'POST' })).status).toBe(404);

    const withKey = { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' };
    for (const [method, path] of [
      ['GET', '/api/approvals'], ['GET', `/api/approvals/${approval.id}`], ['POST', `/api/approvals/${approval.id}/decision`], ['GET', '/api/notification-channels'], ['GET', `/api/runs/${runId}`],
    ] as const) {
      const response = await request(`${publicUrl}${path}`, { method, headers: withKey, body: method === 'GET' ? undefined : '{"decision":"deny"}' });
      expect(response.status, `${method} ${path}`).toBe(404);
    }
  }, 30_000);

  it.skipIf(noBrowser)('in Chromium: the public link opened on a phone (no login) is allowed by its button', async () => {
    const instance = (await t.api('POST', '/api/instances', { name: 'Phone deployer', agent: echo, sandbox: { mode: 'off', network: [], readDeny: [], writeAllow: [] } })).body.instance;
    await t.core.services.instances.idle();
    const webhook = (await t.api('POST', '/api/webhooks', { name: 'Ship', promptTemplate: 'Ship {{payload}}', instanceId: instance.id, approval: { mode: 'before-run', timeoutSeconds: 3600 } })).body.webhook;
    const fired = await request(webhook.triggerUrl, { method: 'POST', body: 'v3', headers: { 'content-type': 'text/plain' } });
    const runId = fired.body.run.id as string;
    const [approval] = (await t.api('GET', `/api/approvals?status=pending&runId=${runId}`)).body.approvals;
    expect(approval.links.allow.startsWith(`${publicUrl}/api/approvals/links/`)).toBe(true);

    const browser = await launchChromiumBrowser();
    try {
      const phone = await browser.newContext({ viewport: phoneViewport });
      const page = await phone.newPage();
      await page.goto(approval.links.allow);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Start a run of webhook "Ship"?');
      const [decided] = await Promise.all([page.waitForResponse((response) => response.request().method() === 'POST'), page.getByRole('button', { name: 'Allow' }).click()]);
      expect(decided.status()).toBe(200);
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Allowed: Start a run of webhook "Ship"?');
      expect((await t.api('GET', `/api/approvals/${approval.id}`)).body.approval).toMatchObject({ status: 'allowed', decidedBy: 'link' });
      await expect.poll(async () => (await t.api('GET', `/api/runs/${runId}`)).body.run.status, { timeout: 15_000 }).toBe('succeeded');
      await page.goBack();
      expect(await page.textContent('body')).toContain('This link no longer decides anything');
    } finally {
      await browser.close();
    }
  }, 30_000);
});

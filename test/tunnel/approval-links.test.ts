// An approval's decision link through the real tunnel listener, with the SSH provider against a
// real OpenSSH server on loopback: while the tunnel is up the links (and the ntfy buttons that
// carry them) point at its public URL; through it a GET shows the page and decides nothing, a POST
// decides once, the next POST is 410; and nothing else about approvals is served there (the
// management routes are 404 through it even with a valid key). Skipped, with a line naming what to
// install, where OpenSSH is missing (requirements.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TunnelState } from '../../src/shared/contract';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { type TestCore, request, startTestCore } from '../support/core';
import { type Receiver, startReceiver } from '../support/receiver';
import { lacks } from '../support/requirements';
import { type TestSshd, createTestSshd, freePort } from '../support/sshd';

const skip = lacks('sshd');
const echo = { provider: 'command', preset: 'custom', command: 'echo', args: ['done'] };

let t: TestCore;
let sshd: TestSshd;
let ntfy: Receiver;
let publicUrl: string;
// Only what beforeAll got as far as starting, newest first.
const cleanups: (() => Promise<void>)[] = [];

async function tunnelUp(): Promise<TunnelState> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { tunnel } = (await t.api('GET', '/api/tunnel')).body as { tunnel: TunnelState };
    if (tunnel.state === 'up') return tunnel;
    if (Date.now() > deadline) throw new Error(`tunnel stayed ${tunnel.state} (${tunnel.reason})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
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
});

// The tunnel against a real OpenSSH server on loopback: it comes up, a trigger through the
// forwarded port creates a run, the management API is 404 through it even with a valid key, and
// it goes to error when the server goes away and comes back when the server does. Skipped, with a
// line naming what to install, where OpenSSH is missing (requirements.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TunnelConfig, TunnelState } from '../../src/shared/contract';
import { silentLogger } from '../../src/main/core/logger';
import { createSecretBox } from '../../src/main/core/secrets';
import { createTunnel } from '../../src/main/core/tunnel/tunnel';
import { type TestCore, request, startTestCore, tempStore } from '../support/core';
import { type TestSshd, createTestSshd, freePort } from '../support/sshd';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { lacks } from '../support/requirements';
import { waitFor } from '../support/wait';

let t: TestCore;
let sshd: TestSshd;
let remotePort: number;

const skip = lacks('sshd');

// Only what beforeAll got as far as starting, newest first: it may have failed half-way.
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  if (skip) return;
  sshd = await createTestSshd();
  cleanups.unshift(() => sshd.stop());
  await sshd.start();
  remotePort = await freePort();
  // The tunnel retries and health-checks on real timers.
  t = await startTestCore({ clock: systemClock });
  cleanups.unshift(() => t.close());
});
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

const sshConfig = (overrides: Partial<Extract<TunnelConfig, { provider: 'ssh' }>> = {}): Extract<TunnelConfig, { provider: 'ssh' }> => ({
  provider: 'ssh',
  host: '127.0.0.1',
  port: sshd.port,
  user: sshd.user,
  remotePort,
  identityFile: sshd.identityFile,
  knownHostsFile: sshd.knownHostsFile,
  publicUrl: `http://127.0.0.1:${remotePort}`,
  ...overrides,
});

function tunnelReaches(expected: TunnelState['state'], timeoutMs = 20_000): Promise<TunnelState> {
  const tunnel = async () => ((await t.api('GET', '/api/tunnel')).body as { tunnel: TunnelState }).tunnel;
  return waitFor(tunnel, { what: `the tunnel to be ${expected}`, timeoutMs, intervalMs: 100, until: (state) => state.state === expected });
}

describe.skipIf(skip)('ssh tunnel', () => {
  it('refuses to start before a provider is chosen', async () => {
    const response = await t.api('POST', '/api/tunnel/start');
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('tunnel_not_configured');
    expect((await t.api('GET', '/api/tunnel')).body.tunnel).toMatchObject({ state: 'off', config: null });
  });

  it('comes up, serves triggers through the forwarded port and nothing else', async () => {
    expect((await t.api('PUT', '/api/tunnel', sshConfig())).status).toBe(200);
    expect((await t.api('POST', '/api/tunnel/start')).body.tunnel.state).toMatch(/connecting|up/);
    const up = await tunnelReaches('up');
    expect(up.publicUrl).toBe(`http://127.0.0.1:${remotePort}`);

    const { webhook } = (await t.api('POST', '/api/webhooks', { name: 'CI', promptTemplate: 'CI says {{payload}}' })).body;
    expect(webhook.publicTriggerUrl).toBe(`http://127.0.0.1:${remotePort}/api/webhooks/trigger/${webhook.token}`);
    const triggered = await request(webhook.publicTriggerUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"via":"tunnel"}' });
    expect(triggered.status).toBe(202);
    expect((await t.api('GET', `/api/runs/${triggered.body.run.id}`)).body.run.prompt).toBe('CI says {"via":"tunnel"}');

    const through = (path: string, init: RequestInit = {}) => request(`http://127.0.0.1:${remotePort}${path}`, init);
    const withKey = { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' };
    expect((await through('/api/health')).status).toBe(200);
    for (const [method, path] of [
      ['GET', '/api/automations'], ['POST', '/api/automations'], ['GET', '/api/keys'], ['POST', '/api/keys'], ['GET', '/api/webhooks'],
      ['GET', `/api/webhooks/${webhook.id}`], ['PUT', '/api/tunnel'], ['POST', '/api/tunnel/stop'], ['GET', '/api/openapi.json'], ['GET', '/'],
    ] as const) {
      const response = await through(path, { method, headers: withKey, body: method === 'GET' ? undefined : '{"name":"x"}' });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
    expect((await t.api('GET', '/api/keys')).body.apiKeys).toHaveLength(1);
  });

  it('turns to error when the server goes away, and comes back when it returns', async () => {
    await tunnelReaches('up');
    await sshd.stop();
    const failed = await tunnelReaches('error');
    expect(failed.reason).toMatch(/lost|refused|exited/);
    expect((await t.api('POST', '/api/webhooks', { name: 'x', promptTemplate: '{{payload}}' })).body.webhook.publicTriggerUrl).toBeNull();
    await sshd.start();
    const back = await tunnelReaches('up', 45_000);
    expect(back.publicUrl).toBe(`http://127.0.0.1:${remotePort}`);
  }, 60_000);

  it('says clearly when the key is refused or the host key is unknown, without hanging', async () => {
    await t.api('PUT', '/api/tunnel', sshConfig({ identityFile: sshd.strangerIdentityFile }));
    expect((await tunnelReaches('error')).reason).toContain('refused the key');
    await t.api('PUT', '/api/tunnel', sshConfig({ knownHostsFile: `${sshd.dir}/empty_known_hosts` }));
    expect((await tunnelReaches('error')).reason).toContain('host key');
    await t.api('PUT', '/api/tunnel', sshConfig({ port: await freePort() }));
    expect((await tunnelReaches('error')).reason).toContain('refused the connection');
  });

  it('stops on request, and the forwarded port no longer answers', async () => {
    await t.api('PUT', '/api/tunnel', sshConfig());
    await tunnelReaches('up');
    expect((await t.api('POST', '/api/tunnel/stop')).body.tunnel).toMatchObject({ state: 'off', publicUrl: null });
    await expect(fetch(`http://127.0.0.1:${remotePort}/api/health`, { signal: AbortSignal.timeout(3_000) })).rejects.toThrow();
  });

  it('reports a missing cloudflared clearly', async () => {
    await t.api('PUT', '/api/tunnel', { provider: 'cloudflare', binary: '/nonexistent/cloudflared' });
    await t.api('POST', '/api/tunnel/start');
    const failed = await tunnelReaches('error');
    expect(failed.reason).toContain('/nonexistent/cloudflared was not found');
    await t.api('POST', '/api/tunnel/stop');
  });
});

describe.skipIf(skip)('health through the tunnel', () => {
  it('turns to error when the public URL does not reach Steward, though ssh is up', async () => {
    const wrongPort = await freePort();
    const temp = tempStore();
    const tunnel = createTunnel({
      store: temp.store,
      clock: systemClock,
      logger: silentLogger(),
      secrets: createSecretBox(temp.dir),
      startListener: async () => ({ port: await freePort(), close: async () => {} }),
      healthEveryMs: 300,
    });
    await tunnel.configure(sshConfig({ publicUrl: `http://127.0.0.1:${wrongPort}` }));
    await tunnel.start();
    const reason = await waitFor(() => tunnel.state(), { what: 'the tunnel to say its health check does not answer', intervalMs: 100, until: (state) => state.state === 'error' && state.reason?.includes('does not answer') === true })
      .then((state) => state.reason)
      .finally(async () => {
        await tunnel.stop();
        temp.remove();
      });
    expect(reason).toContain(`http://127.0.0.1:${wrongPort}/api/health does not answer through it`);
  });
});

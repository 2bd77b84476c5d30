// ngrok through the API: the authtoken is stored sealed and never shown, a missing token is a
// clear error, and a refused session is an error, not a hang.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { TunnelState } from '../../src/shared/contract';
import { type TestCore, startTestCore } from '../support/core';
import { waitFor } from '../support/wait';

let t: TestCore;
const savedToken = process.env.NGROK_AUTHTOKEN;
beforeAll(async () => {
  delete process.env.NGROK_AUTHTOKEN;
  t = await startTestCore({ clock: systemClock });
});
afterAll(async () => {
  await t.close();
  if (savedToken !== undefined) process.env.NGROK_AUTHTOKEN = savedToken;
});

function settled(): Promise<TunnelState> {
  const tunnel = async () => ((await t.api('GET', '/api/tunnel')).body as { tunnel: TunnelState }).tunnel;
  return waitFor(tunnel, { what: 'the tunnel to be up or in error', timeoutMs: 20_000, intervalMs: 100, until: (state) => state.state === 'error' || state.state === 'up' });
}

describe('ngrok', () => {
  it('without an authtoken fails at once and says what to do', async () => {
    await t.api('PUT', '/api/tunnel', { provider: 'ngrok' });
    await t.api('POST', '/api/tunnel/start');
    const failed = await settled();
    expect(failed.state).toBe('error');
    expect(failed.reason).toContain('ngrok needs an authtoken');
    await t.api('POST', '/api/tunnel/stop');
  });

  it('keeps the authtoken sealed, shows only that one is stored, and keeps it when omitted', async () => {
    const token = '2fakeNgrokAuthtoken_0123456789';
    const configured = await t.api('PUT', '/api/tunnel', { provider: 'ngrok', authtoken: token, domain: 'hooks.example.com' });
    expect(configured.body.tunnel.config).toEqual({ provider: 'ngrok', domain: 'hooks.example.com', authtokenStored: true });
    expect(configured.text).not.toContain(token);
    expect(JSON.stringify(t.core.store.db.prepare('SELECT * FROM settings').all())).not.toContain(token);
    const again = await t.api('PUT', '/api/tunnel', { provider: 'ngrok' });
    expect(again.body.tunnel.config).toEqual({ provider: 'ngrok', authtokenStored: true });
  });

  it('turns a session ngrok refuses (here: no network) into an error with its reason', async () => {
    await t.api('PUT', '/api/tunnel', { provider: 'ngrok', authtoken: '2fakeNgrokAuthtoken_0123456789' });
    await t.api('POST', '/api/tunnel/start');
    const failed = await settled();
    expect(failed.state).toBe('error');
    expect(failed.reason).toMatch(/^ngrok: /);
    await t.api('POST', '/api/tunnel/stop');
  });
});

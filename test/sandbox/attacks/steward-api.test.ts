// One rule for Steward's own port (issue 29, "Why" 2 and "What to build" 2): from a sandboxed run with
// Steward's tools, every way into Steward (the bridge it is told of in STEWARD_MCP_URL, the proxy by
// CONNECT and by absolute URL, the names of its host) serves /mcp and nothing else, whatever the
// path is made to look like; so the run's own key cannot read the system, list runs or approvals,
// nor cancel another instance's run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Instance, Run } from '../../../src/shared/contract';
import { lacks } from '../../support/requirements';
import { settled } from '../../support/runs';
import { type Lab, fixture, openLab } from './lab';
import { waitFor } from '../../support/wait';

const skip = lacks('sandbox');
let lab: Lab;
let victim: Instance;
let victimRun: Run;

beforeAll(async () => {
  if (skip) return;
  lab = await openLab();
  // Another instance's run, busy for a while: the attacker will try to cancel it.
  victim = await lab.instance({ provider: 'command', preset: 'custom', command: 'sleep', args: ['30'] }, { mode: 'sandbox' }, 'victim');
  victimRun = (await lab.t.api('POST', '/api/runs', { instanceId: victim.id, prompt: 'work' })).body.run as Run;
  await waitFor(async () => (await lab.t.api('GET', `/api/runs/${victimRun.id}`)).body.run.status === 'running', { what: "the victim's run to start" });
});
afterAll(async () => {
  if (victimRun) await lab.t.api('POST', `/api/runs/${victimRun.id}/cancel`);
  await lab?.close();
});

/** Reached: the last response was a success (the tunnel's own 200 does not count). */
const reached = (result: string | undefined) => result !== undefined && /(^|\/)2\d\d$/.test(result);

describe.skipIf(skip)("Steward's port, from a sandboxed run with its own key", () => {
  it('serves /mcp and no other path, by the bridge or through the proxy, however the path is spelled', async () => {
    const port = Number(new URL(lab.t.url).port);
    const cancel = `/api/runs/${victimRun.id}/cancel`;
    const apiPaths: Record<string, string> = {
      system: '/api/system',
      runs: '/api/runs',
      approvals: '/api/approvals',
      keys: '/api/keys',
      'dot-dot': '/mcp/../api/system',
      'encoded-dot-dot': '/mcp/%2e%2e/api/system',
      'double-slash': '//api/system',
      'query-mcp': '/api/system?/mcp',
      'upper-case': '/MCP/../api/runs',
      'mcp-prefix': '/mcpx/../api/runs',
      'backslash': '/mcp\\..\\api\\system',
    };
    const targets = [
      { name: 'bridge-mcp', via: 'direct', bridge: true, path: '/mcp', key: true, mcp: true },
      ...Object.entries(apiPaths).map(([name, path]) => ({ name: `bridge-${name}`, via: 'direct', bridge: true, path, key: true })),
      // The absolute form, sent to the bridge itself: a server that routes on it could miss the path check.
      { name: 'bridge-absolute-form', via: 'direct', bridge: true, path: '/mcp', target: `http://127.0.0.1:${port}/api/system`, key: true },
      { name: 'bridge-cancel', via: 'direct', bridge: true, path: cancel, key: true, body: '{}' },
      ...Object.entries(apiPaths).map(([name, path]) => ({ name: `connect-${name}`, via: 'connect', host: '127.0.0.1', port, path, key: true })),
      { name: 'connect-localhost-system', via: 'connect', host: 'localhost', port, path: '/api/system', key: true, hostHeader: `localhost:${port}` },
      { name: 'connect-cancel', via: 'connect', host: '127.0.0.1', port, path: cancel, key: true, body: '{}' },
      ...Object.entries(apiPaths).map(([name, path]) => ({ name: `absolute-${name}`, via: 'absolute', host: '127.0.0.1', port, path, key: true })),
      { name: 'absolute-localhost-runs', via: 'absolute', host: 'localhost', port, path: '/api/runs', key: true, hostHeader: `localhost:${port}` },
      { name: 'absolute-cancel', via: 'absolute', host: '127.0.0.1', port, path: cancel, key: true, body: '{}' },
    ];
    const env = { PROBE_TARGETS: JSON.stringify(targets) };
    const agent = { provider: 'command', preset: 'custom', command: fixture('reach-probe.mjs'), env, stewardTools: true };
    // A host in the list makes the proxy exist, as it does for any instance that reaches an API.
    const instance = await lab.instance(agent, { mode: 'sandbox', network: ['api.example.com'] });
    const run = await lab.run(instance);
    expect(run.status, run.error ?? '').toBe('succeeded');
    const said = await lab.said(run);
    expect(said.proxy).toBe('yes');
    // The way in it is given works: otherwise every refusal below would prove nothing.
    expect(said['bridge-mcp']).toBe('200');
    const through = targets.filter(({ name }) => name !== 'bridge-mcp' && reached(said[name])).map(({ name }) => `${name} ${said[name]}`);
    expect(through, JSON.stringify(said)).toEqual([]);
    // Seen from outside: the other instance's run still runs.
    expect((await lab.t.api('GET', `/api/runs/${victimRun.id}`)).body.run.status).toBe('running');
  });

  it("the victim's run is cancellable from outside: the cancel the attacker tried works for a caller entitled to it", async () => {
    expect((await lab.t.api('POST', `/api/runs/${victimRun.id}/cancel`)).status).toBe(202);
    expect(await settled(lab.t, victimRun.id)).toMatchObject({ status: 'cancelled' });
  });
});

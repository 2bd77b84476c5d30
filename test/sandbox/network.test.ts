// What leaves a sandboxed run, and what it leaves behind: through the proxy only the hosts given
// (a refusal is a line in the run's feed, once per host, with the fix); Steward's /mcp with the
// run's key, and no other path of its API; a cancel ends every process, setsid escapees included.
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { Instance, Run } from '../../src/shared/contract';
import { type TestCore, startTestCore } from '../support/core';
import { lacks } from '../support/requirements';
import { settled } from '../support/runs';
import { waitFor } from '../support/wait';

const networkProbe = path.resolve(import.meta.dirname, '../fixtures/sandbox/network-probe.mjs');
const skip = lacks('sandbox');

let t: TestCore;
let server: http.Server;
let allowedPort: number;

beforeAll(async () => {
  if (skip) return;
  t = await startTestCore({ clock: systemClock });
  server = http.createServer((_request, response) => response.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  allowedPort = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server?.close();
  await t?.close();
});

async function instanceWith(agent: object, sandbox: object): Promise<Instance> {
  const created = await t.api('POST', '/api/instances', { name: 'net', agent, sandbox });
  expect(created.status).toBe(201);
  return created.body.instance as Instance;
}

async function answerLines(run: Run): Promise<Record<string, string>> {
  const messages = (await t.api('GET', `/api/threads/${run.threadId}`)).body.thread.messages as { role: string; content: string }[];
  return Object.fromEntries(messages.filter((message) => message.role === 'assistant').map((message) => message.content.split(': ')));
}

describe.skipIf(skip)("a sandboxed run's network", () => {
  it('reaches the hosts given and Steward\'s /mcp; a refusal is a line in its feed, once, with the fix', async () => {
    const agent = { provider: 'command', preset: 'custom', command: process.execPath, args: [networkProbe], env: { PROBE_ALLOWED_PORT: String(allowedPort) }, stewardTools: true };
    // A name in the list makes the proxy exist; the loopback port is named with its port.
    const instance = await instanceWith(agent, { mode: 'sandbox', network: ['api.example.com', `127.0.0.1:${allowedPort}`] });
    const { run } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'go' })).body as { run: Run };
    const finished = await settled(t, run.id);
    expect(finished.status, finished.error ?? '').toBe('succeeded');
    expect(await answerLines(finished)).toEqual({
      'connect-given': '200',
      'connect-not-given': '403',
      'connect-not-given-again': '403',
      'steward-mcp': '200',
      'steward-api': '403',
    });
    const lines = (await t.api('GET', `/api/instances/${instance.id}/activity?limit=100`)).body.events as { displayText: string; runId: string | null; raw: string }[];
    const refusals = lines.filter((line) => line.runId === run.id && line.displayText.startsWith('The sandbox refused'));
    expect(refusals.map((line) => line.displayText)).toEqual([
      "The sandbox refused evil.example:443: it is not in this instance's network list. To allow it, add evil.example to the instance's sandbox network.",
    ]);
    expect(JSON.parse(refusals[0].raw)).toMatchObject({ type: 'system', runId: run.id, event: { type: 'sandbox.denied', host: 'evil.example', port: 443 } });
  });

  it('a cancel ends every process of the run, those that left its session too', async () => {
    // The CLI starts a command in a session of its own, then waits.
    const agent = { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', `setsid sleep 301.${process.pid} & exec sleep 300.${process.pid}`] };
    const instance = await instanceWith(agent, { mode: 'sandbox' });
    const { run } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'wait' })).body as { run: Run };
    const sleeping = () => spawnSync('pgrep', ['-f', `^sleep 30[01][.]${process.pid}$`], { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean);
    await waitFor(sleeping, { what: 'both sleeps to start', until: (pids) => pids.length === 2 });
    expect((await t.api('POST', `/api/runs/${run.id}/cancel`)).status).toBe(202);
    expect(await settled(t, run.id)).toMatchObject({ status: 'cancelled' });
    expect(sleeping()).toEqual([]);
  });
});

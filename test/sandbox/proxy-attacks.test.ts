// A sandboxed run with every host allowed (`*`) and Steward's tools, attacking the machine's own
// services as a stranger's prompt would: through the sandbox's proxy (CONNECT, then HTTP inside the
// tunnel; absolute URLs) and the bridge, in every spelling of this machine, including its own
// network addresses (a service on 0.0.0.0 answers there too). Steward's port answers /mcp and
// nothing else of its API, however it is reached; a port the run was not given answers nothing;
// cloud metadata never. The feed says each refusal once, naming only a fix that works, and the
// fix it names does work in the next run.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { Instance, Run } from '../../src/shared/contract';
import { type TestCore, startTestCore } from '../support/core';
import { lacks } from '../support/requirements';
import { settled } from '../support/runs';

const probe = path.resolve(import.meta.dirname, '../fixtures/sandbox/proxy-attack-probe.mjs');
const skip = lacks('sandbox');

let t: TestCore;
/** A service on every interface (dual-stack), on a port no run is given: what an attacker is after. */
let secret: http.Server;
let secretPort: number;
const secretHits: string[] = [];
let victim: Run;
/** This machine's own non-loopback, non-link-local addresses: they reach the secret service too. */
const ownAddresses = Object.values(os.networkInterfaces())
  .flatMap((entries) => entries ?? [])
  .filter((entry) => !entry.internal && !entry.address.startsWith('fe80'))
  .map((entry) => entry.address);

beforeAll(async () => {
  if (skip) return;
  t = await startTestCore({ clock: systemClock });
  secret = http.createServer((request, response) => {
    secretHits.push(`${request.method} ${request.url}`);
    response.end('the secret');
  });
  await new Promise<void>((resolve) => secret.listen(0, '::', resolve));
  secretPort = (secret.address() as AddressInfo).port;
  // Another instance's run, which a run key must not be able to cancel through the sandbox.
  const other = (await t.api('POST', '/api/instances', { name: 'victim', agent: { provider: 'command', preset: 'custom', command: 'sleep', args: [`60.${process.pid}`] }, sandbox: { mode: 'sandbox' } })).body.instance as Instance;
  victim = (await t.api('POST', '/api/runs', { instanceId: other.id, prompt: 'wait' })).body.run as Run;
}, 30_000);
afterAll(async () => {
  if (victim) await t.api('POST', `/api/runs/${victim.id}/cancel`);
  secret?.close();
  await t?.close();
});

/** The run's answers: `attempt` → final status. */
async function attempts(run: Run): Promise<Map<string, string>> {
  const messages = (await t.api('GET', `/api/threads/${run.threadId}?limit=1000`)).body.thread.messages as { role: string; content: string; runId: string | null }[];
  const lines = messages.filter((message) => message.role === 'assistant' && message.runId === run.id).flatMap((message) => message.content.split('\n'));
  return new Map(lines.map((line) => [line.slice(0, line.lastIndexOf(': ')), line.slice(line.lastIndexOf(': ') + 2)]));
}

async function refusalLines(instanceId: string, runId: string): Promise<string[]> {
  const lines = (await t.api('GET', `/api/instances/${instanceId}/activity?limit=1000`)).body.events as { displayText: string; runId: string | null }[];
  return lines.filter((line) => line.runId === runId && line.displayText.startsWith('The sandbox refused')).map((line) => line.displayText);
}

async function probeRun(instance: Instance): Promise<Run> {
  const { run } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'attack' })).body as { run: Run };
  const finished = await settled(t, run.id, 60_000);
  expect(finished.status, finished.error ?? '').toBe('succeeded');
  return finished;
}

describe.skipIf(skip)("a sandboxed run attacking this machine's services", () => {
  let instance: Instance;
  let first: Run;
  let answers: Map<string, string>;

  beforeAll(async () => {
    const agent = {
      provider: 'command',
      preset: 'custom',
      command: process.execPath,
      args: [probe],
      env: { PROBE_SECRET_PORT: String(secretPort), PROBE_VICTIM_RUN: victim.id, PROBE_OWN_ADDRESSES: ownAddresses.join(',') },
      stewardTools: true,
    };
    instance = (await t.api('POST', '/api/instances', { name: 'attacker', agent, sandbox: { mode: 'sandbox', network: ['*'] } })).body.instance as Instance;
    first = await probeRun(instance);
    answers = await attempts(first);
  }, 90_000);

  it('reaches Steward only at /mcp, by every way in and every spelling of this machine', () => {
    const steward = [...answers].filter(([attempt]) => attempt.includes(':steward '));
    // 17 spellings and the machine's own addresses, two ways each, three requests; and the bridge.
    expect(steward.length).toBe((15 + ownAddresses.length) * 2 * 3 + 3);
    // The API behind the gate is never asked; /mcp always is (and answers as it answers any client:
    // a Host that is not this machine's name is its own forbidden_host).
    expect(steward.filter(([attempt, status]) => !attempt.endsWith(' /mcp') && status !== '403 gate')).toEqual([]);
    expect(steward.filter(([attempt, status]) => attempt.endsWith(' /mcp') && !['200', '403 forbidden_host'].includes(status))).toEqual([]);
    const plainly = ['127.0.0.1', 'localhost', '[::1]'].flatMap((host) => [`connect ${host}:steward POST /mcp`, `absolute ${host}:steward POST /mcp`]);
    expect([...plainly, 'bridge 127.0.0.1:steward POST /mcp'].map((attempt) => [attempt, answers.get(attempt)])).toEqual([...plainly, 'bridge 127.0.0.1:steward POST /mcp'].map((attempt) => [attempt, '200']));
  });

  it('cannot take the proxy down with a port no connection can have', () => {
    expect([answers.get('connect 8.8.8.8:99999 GET /'), answers.get('connect 8.8.8.8:0 GET /'), answers.get('connect 127.0.0.1:secret after GET /')]).toEqual(['400', '400', '403']);
  });

  it("cannot cancel another instance's run through the proxy", async () => {
    expect(((await t.api('GET', `/api/runs/${victim.id}`)).body.run as Run).status).toBe('running');
  });

  it('reaches no port of this machine it was not given, nor cloud metadata, however written', () => {
    const others = [...answers].filter(([attempt]) => !attempt.includes(':steward ') && !attempt.startsWith('connect 8.8.8.8:'));
    expect(others.length).toBe((15 + ownAddresses.length) * 2 + 7);
    expect(others.filter(([, status]) => !status.startsWith('403'))).toEqual([]);
    expect(secretHits).toEqual([]);
  });

  it('says each refusal once, naming only fixes that work', async () => {
    const lines = await refusalLines(instance.id, first.id);
    // Every spelling of this machine at the secret port is one fix: one line.
    expect(lines.filter((line) => line.includes(`:${secretPort}: `))).toEqual([expect.stringMatching(new RegExp(`To allow it, add 127\\.0\\.0\\.1:${secretPort} to the instance's sandbox network\\.$`))]);
    const steward = new URL(t.url).port;
    expect(lines.filter((line) => line.includes(`add 127.0.0.1:${steward}`))).toEqual([]);
    const metadata = lines.filter((line) => /169\.254|a9fe/.test(line));
    expect(metadata.length).toBeGreaterThan(0);
    for (const line of metadata) expect(line).not.toContain('To allow it');
    for (const line of lines) expect(line).not.toMatch(/add (\[\[|127\.1\b|0x|\[::ffff)/);
  });

  it('lets through, in the next run, what the fix it named allows; and does not say again what it said today', async () => {
    const patched = await t.api('PATCH', `/api/instances/${instance.id}`, { sandbox: { mode: 'sandbox', network: ['*', `127.0.0.1:${secretPort}`] } });
    expect(patched.status).toBe(200);
    const second = await probeRun(instance);
    const secretAnswers = [...(await attempts(second))].filter(([attempt]) => attempt.includes(':secret '));
    expect(secretAnswers.filter(([, status]) => status !== '200')).toEqual([]);
    expect(secretHits.length).toBe(secretAnswers.length);
    // The metadata refusals were said in the first run: not again today.
    expect(await refusalLines(instance.id, second.id)).toEqual([]);
  }, 90_000);
});

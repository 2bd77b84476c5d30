// What a run's feed says of the sandbox's refusals: a host the CLI is known to phone home to
// (Gemini CLI's usage statistics) is counted in the run's end line, not said; another host is said
// once a day per instance, not once per run; nothing is said after the run's last line, however
// late the refusal comes. The CLI is a stand-in run by the gemini preset; the core is in this
// process, so its resolver can be made slow.
import dns from 'node:dns';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { Instance, Run } from '../../src/shared/contract';
import { type TestCore, startTestCore } from '../support/core';
import { lacks } from '../support/requirements';
import { settled } from '../support/runs';
import { quietFor } from '../support/wait';

const cli = path.resolve(import.meta.dirname, '../fixtures/sandbox/chatty-cli.mjs');
const skip = lacks('sandbox');

let t: TestCore;
let instance: Instance;
/** The slow lookups of late.example, each settled once it has answered (not found). */
const lateLookups: Promise<unknown>[] = [];

beforeAll(async () => {
  if (skip) return;
  t = await startTestCore({ clock: systemClock });
  // late.example is on the list, so the proxy looks it up: slowly, and it is not found.
  const lookup = dns.promises.lookup.bind(dns.promises);
  vi.spyOn(dns.promises, 'lookup').mockImplementation((async (host: string, options: dns.LookupAllOptions) => {
    if (host !== 'late.example') return lookup(host, options);
    // Slow on purpose: the answer comes after the run has ended.
    const answer = quietFor(1500).then(() => {
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    });
    lateLookups.push(answer.catch(() => undefined));
    return answer;
  }) as typeof dns.promises.lookup);
  const agent = { provider: 'command', preset: 'gemini', command: cli, env: { PROBE_TELEMETRY_HOST: 'play.googleapis.com', GEMINI_API_KEY: 'k' }, stewardTools: false };
  const created = await t.api('POST', '/api/instances', { name: 'chatty', agent, sandbox: { mode: 'sandbox', network: ['late.example'] } });
  expect(created.status).toBe(201);
  instance = created.body.instance as Instance;
  await t.core.services.instances.idle();
}, 30_000);
afterAll(async () => {
  vi.restoreAllMocks();
  await t?.close();
});

interface Line {
  displayText: string;
  runId: string | null;
  raw: string;
}

async function run(): Promise<{ run: Run; lines: Line[] }> {
  const { run: queued } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'go' })).body as { run: Run };
  const finished = await settled(t, queued.id, 30_000);
  // The slow lookup answers after the run ended: wait for its answer, so that a refusal it would
  // cause is written. Then a bounded wait, as nothing happens to be awaited for a line not said: a
  // line would be written within a turn or two of the answer (the proxy and the core are in this process).
  expect(lateLookups.length, 'the run asked for late.example').toBeGreaterThan(0);
  await Promise.all(lateLookups.splice(0));
  await quietFor(250);
  const all = (await t.api('GET', `/api/instances/${instance.id}/activity?limit=1000`)).body.events as Line[];
  return { run: finished, lines: all.filter((line) => line.runId === queued.id) };
}

const finishedLine = (lines: Line[]) => JSON.parse(lines.find((line) => line.displayText.startsWith("Run "))!.raw) as { type: string; sandboxRefusedQuietly?: unknown };

describe.skipIf(skip)("a run's refusals in its feed", () => {
  let first: Awaited<ReturnType<typeof run>>;

  beforeAll(async () => {
    first = await run();
  }, 60_000);

  it("count the CLI's telemetry instead of saying it, and say another host", () => {
    const refusals = first.lines.filter((line) => line.displayText.startsWith('The sandbox refused'));
    expect(refusals.map((line) => line.displayText)).toEqual(["The sandbox refused evil.example:443: it is not in this instance's network list. To allow it, add evil.example to the instance's sandbox network."]);
    expect(finishedLine(first.lines).sandboxRefusedQuietly).toEqual({ telemetry: { 'play.googleapis.com:443': 2 }, saidBefore: {} });
  });

  it("say nothing after the run's last line", () => {
    expect(first.lines.at(-1)?.displayText).toMatch(/^Run (succeeded|failed) after /);
    expect(first.lines.filter((line) => line.displayText.includes('late.example'))).toEqual([]);
  });

  it('say a host once a day per instance, not once per run', async () => {
    const second = await run();
    expect(second.lines.filter((line) => line.displayText.startsWith('The sandbox refused'))).toEqual([]);
    expect(finishedLine(second.lines).sandboxRefusedQuietly).toEqual({ telemetry: { 'play.googleapis.com:443': 2 }, saidBefore: { 'evil.example:443': 1 } });
  }, 60_000);
});

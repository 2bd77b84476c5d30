// GET /api/activity and /api/instances/{id}/activity: the seed's feed with exact cursors, over a
// real loopback HTTP server and a real SQLite file, with real concurrent writer processes.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityFeed, Cursors } from '../../src/shared/contract';
import type { ActivityKind, ActivityLabel } from '../../src/shared/contract';
import { type TestCore, startTestCore } from '../support/core';
import { root } from '../support/processes';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(() => t.close());

const encode = (cursors: Cursors) => Buffer.from(JSON.stringify(cursors)).toString('base64');
// Test lines are stamped after the real-time "Ready" lines provisioning writes.
let clockMs = Date.parse('2030-01-01T08:00:00.000Z');

function write(instanceId: string, text: string, kind: ActivityKind = 'system', label: ActivityLabel = '', at?: string): number {
  clockMs += 1000;
  return t.core.store.transaction(() => t.core.store.activity.append({ instanceId, runId: null, kind, label, displayText: text, raw: JSON.stringify({ text }), timestamp: at ?? new Date(clockMs).toISOString() })).line;
}

async function poll(query: string): Promise<ActivityFeed> {
  const response = await t.api('GET', `/api/activity${query}`);
  expect(response.status).toBe(200);
  return response.body as ActivityFeed;
}

async function instance(name: string): Promise<string> {
  const id = (await t.api('POST', '/api/instances', { name, agent: { provider: 'command', preset: 'custom', command: 'cat' } })).body.instance.id as string;
  // Provisioning writes the first line ("Ready: custom:cat").
  await t.core.services.instances.idle();
  return id;
}

describe('GET /api/activity', () => {
  let a: string;
  let b: string;
  let quiet: string;

  beforeAll(async () => {
    a = await instance('Alpha');
    b = await instance('Beta');
    quiet = await instance('Quiet');
  });

  it('without cursors: the latest lines oldest first, cursors at the end of every instance', async () => {
    write(a, 'a1', 'user', 'cron');
    write(b, 'b1', 'assistant', 'hook');
    write(a, 'a2', 'tool', 'cron');
    const feed = await poll('?limit=2');
    expect(feed.events.map((event) => event.displayText)).toEqual(['b1', 'a2']);
    expect(feed.events[0]).toEqual({
      instanceId: b, instanceName: 'Beta', avatarUrl: expect.stringMatching(/^data:image\/svg\+xml/), label: 'hook', kind: 'assistant',
      timestamp: expect.any(String), displayText: 'b1', raw: '{"text":"b1"}', line: 2, runId: null,
    });
    expect(feed.cursors).toMatchObject({ [a]: 3, [b]: 2, [quiet]: 1 });
    expect(feed.instances.map((summary) => summary.name)).toEqual(expect.arrayContaining(['Alpha', 'Beta', 'Quiet']));
    expect(feed.instances[0]).toEqual({ id: expect.any(String), name: expect.any(String), avatarUrl: expect.any(String) });
    expect(feed.hasMore).toBe(false);
  });

  it('with cursors: only newer lines; an instance absent from the map starts at 0; more than limit pages exactly', async () => {
    const start = (await poll('')).cursors;
    expect((await poll(`?cursors=${encode(start)}`)).events).toEqual([]);

    write(a, 'a3');
    write(b, 'b2');
    write(a, 'a4');
    write(b, 'b3');
    write(a, 'a5');
    const first = await poll(`?cursors=${encode(start)}&limit=3`);
    expect(first.events.map((event) => event.displayText)).toEqual(['a3', 'b2', 'a4']);
    expect(first.hasMore).toBe(true);
    expect(first.cursors).toMatchObject({ [a]: 5, [b]: 3 });
    const second = await poll(`?cursors=${encode(first.cursors)}&limit=3`);
    expect(second.events.map((event) => event.displayText)).toEqual(['b3', 'a5']);
    expect(second.hasMore).toBe(false);
    expect(second.cursors).toMatchObject({ [a]: 6, [b]: 4, [quiet]: 1 });

    // Only Beta in the map: Alpha is read from line 0.
    const fresh = await poll(`?cursors=${encode({ [b]: 4 })}&limit=1000`);
    expect(fresh.events.filter((event) => event.instanceId === a).map((event) => event.line)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(fresh.events.some((event) => event.instanceId === b)).toBe(false);
    // URL-safe Base64 works too.
    const urlSafe = encode(second.cursors).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expect((await poll(`?cursors=${urlSafe}`)).events).toEqual([]);
  });

  it('filters by kind, label, instance and time window, and the cursors still never skip a line', async () => {
    const start = (await poll('')).cursors;
    write(a, 'tool in cron', 'tool', 'cron', '2026-11-22T10:00:00.000Z');
    write(b, 'assistant in hook', 'assistant', 'hook', '2026-11-22T10:01:00.000Z');
    write(a, 'system no label', 'system', '', '2026-11-22T10:02:00.000Z');
    const since = encodeURIComponent('2026-11-22T10:00:30.000Z');
    expect((await poll(`?cursors=${encode(start)}&kinds=tool,assistant`)).events.map((event) => event.displayText)).toEqual(['tool in cron', 'assistant in hook']);
    expect((await poll(`?cursors=${encode(start)}&labels=none`)).events.map((event) => event.displayText)).toEqual(['system no label']);
    expect((await poll(`?cursors=${encode(start)}&instanceIds=${b}`)).events.map((event) => event.displayText)).toEqual(['assistant in hook']);
    expect((await poll(`?since=${since}&until=${encodeURIComponent('2026-11-22T10:01:30+00:00')}`)).events.map((event) => event.displayText)).toEqual(['assistant in hook']);
    const filtered = await poll(`?cursors=${encode(start)}&kinds=assistant`);
    expect(filtered.cursors[a]).toBe(start[a] + 2);
    expect((await poll(`?cursors=${encode(filtered.cursors)}`)).events).toEqual([]);
  });

  it('takes the cursors of 1,000 instances in one poll (a 48 KB query: its own and its remotes\' instances)', async () => {
    const many: Cursors = { [a]: 0 };
    for (let i = 0; i < 1000; i++) many[`ins_01KREM0TE${String(i).padStart(17, '0')}`] = 5;
    const query = `?cursors=${encode(many)}`;
    expect(query.length).toBeGreaterThan(40_000);
    const feed = await poll(query);
    expect(feed.events.filter((event) => event.instanceId === a).length).toBeGreaterThan(0);
  });

  it('refuses bad cursors and bad filters with a clear 400', async () => {
    for (const bad of ['%%%', encode([1, 2] as unknown as Cursors), Buffer.from('{"x":-1}').toString('base64'), Buffer.from('{"x":1.5}').toString('base64'), Buffer.from('not json').toString('base64')]) {
      const response = await t.api('GET', `/api/activity?cursors=${encodeURIComponent(bad)}`);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'invalid_cursors', field: 'cursors' });
    }
    expect((await t.api('GET', '/api/activity?kinds=shouting')).body.error).toMatchObject({ code: 'invalid_field', field: 'kinds.0' });
    expect((await t.api('GET', '/api/activity?limit=1001')).body.error).toMatchObject({ code: 'invalid_field', field: 'limit' });
    expect((await t.api('GET', '/api/activity?since=yesterday')).body.error).toMatchObject({ code: 'invalid_field', field: 'since' });
  });

  it('per instance: raw lines after a cursor with the line count', async () => {
    const response = await t.api('GET', `/api/instances/${a}/activity?cursor=3&limit=2`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ lineCount: 8, cursor: 5, hasMore: true, skipped: 0 });
    expect(response.body.events.map((event: { line: number }) => event.line)).toEqual([4, 5]);
    const rest = (await t.api('GET', `/api/instances/${a}/activity?cursor=5`)).body;
    expect(rest).toMatchObject({ lineCount: 8, cursor: 8, hasMore: false });
    expect((await t.api('GET', '/api/instances/ins_nope/activity')).status).toBe(404);
  });

  it('retention trims old lines; a cursor into them resumes at the oldest kept line and says what it skipped', async () => {
    const c = await instance('Chatty');
    for (let n = 1; n <= 10; n++) write(c, `c${n}`);
    expect((await t.api('PATCH', '/api/settings', { activity: { retentionLines: 4 } })).status).toBe(200);
    try {
      expect(t.core.services.activity.trim()).toBeGreaterThanOrEqual(7);
    } finally {
      await t.api('PATCH', '/api/settings', { activity: { retentionLines: 100_000 } });
    }
    const feed = await poll(`?cursors=${encode({ [c]: 2 })}&instanceIds=${c}`);
    expect(feed.events.map((event) => event.displayText)).toEqual(['c7', 'c8', 'c9', 'c10']);
    expect(feed.skipped).toEqual({ [c]: 5 });
    expect(feed.cursors[c]).toBe(11);
    expect((await t.api('GET', `/api/instances/${c}/activity?cursor=0`)).body).toMatchObject({ lineCount: 11, skipped: 7 });
    // New lines keep their numbers after a trim.
    expect(write(c, 'c11')).toBe(12);
  });

  it('under load: writer processes append to many instances while pollers poll; every poller sees every line exactly once, in order', async () => {
    const ids = await Promise.all(Array.from({ length: 12 }, (_, n) => instance(`Load ${n}`)));
    const base = (await poll('')).cursors;
    const writers = [1, 2].map(
      () =>
        new Promise<void>((resolve, reject) => {
          const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'test/fixtures/activity-writer.ts'), path.join(t.dataDir, 'steward.db'), ids.join(','), '1500'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
          child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer exited ${code}`))));
        }),
    );
    let writing = true;
    const allWritten = Promise.all(writers).finally(() => (writing = false));
    // In-process writes too, interleaved with the requests.
    const local = (async () => {
      for (let n = 0; n < 300; n++) {
        write(ids[n % ids.length], `local ${n}`);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();

    const poller = async (limit: number) => {
      const seen = new Map<string, number[]>();
      let cursors: Cursors = Object.fromEntries(ids.map((id) => [id, base[id] ?? 0]));
      for (;;) {
        const done = !writing;
        const feed = await poll(`?cursors=${encode(cursors)}&limit=${limit}&instanceIds=${ids.join(',')}`);
        for (const event of feed.events) seen.set(event.instanceId, [...(seen.get(event.instanceId) ?? []), event.line]);
        cursors = feed.cursors;
        if (done && !feed.hasMore && feed.events.length === 0) return seen;
      }
    };
    const [seenA, seenB, seenC] = await Promise.all([poller(50), poller(7), poller(1000), allWritten, local]);
    const heads = t.core.store.activity.heads();
    let total = 0;
    for (const id of ids) {
      const from = base[id];
      const expected = Array.from({ length: heads.get(id)!.lastLine - from }, (_, i) => from + i + 1);
      total += expected.length;
      for (const seen of [seenA, seenB, seenC]) expect(seen.get(id) ?? []).toEqual(expected);
    }
    expect(total).toBe(3300);
  }, 60_000);
});

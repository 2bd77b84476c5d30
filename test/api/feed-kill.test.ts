// The feed trigger's promise under kill -9: the real daemon (`steward serve`) is killed at moments
// the test does not choose (after a random delay, whatever it is doing), new items are published
// meanwhile, and it is started again on the same data folder, several times over. In the end each
// item published after the baseline ran exactly once: none twice (the cursor moved with the runs),
// none lost (a look that died before its emit is made again at the next start).
import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Run } from '../../src/shared/contract';
import { request, tempDir } from '../support/core';
import { type FeedServer, type TestItem, contentTypes, feedText, startFeedServer } from '../support/feed-server';
import { type Server, runCli, startDaemon } from '../support/processes';
import { waitFor } from '../support/wait';

let server: FeedServer;
let daemon: Server | undefined;
const dataDir = tempDir('steward-feed-kill-');
let key: string;

beforeAll(async () => {
  server = await startFeedServer();
  key = runCli(['keys', 'create', '--name', 'feed-kill', '--data-dir', dataDir]).trim().split('\n').at(-1)!;
});
afterAll(async () => {
  if (daemon && daemon.process.exitCode === null) daemon.process.kill('SIGKILL');
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const api = (method: string, route: string, body?: unknown) =>
  request(`${daemon!.url}${route}`, { method, headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });

function kill(): Promise<void> {
  const child = daemon!.process;
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

const items: TestItem[] = [];
const publish = () => server.routes.set('/feed.xml', { body: feedText('rss', 'Killed', items), type: contentTypes.rss });
const add = (n: number) => items.push({ id: `k-${n}`, title: `Item ${n}`, published: new Date(Date.now() - 60_000 + n * 1000).toISOString() });

it('runs each new item exactly once, however often the daemon is killed with -9', async () => {
  add(0);
  publish();
  daemon = await startDaemon(dataDir);
  const created = await api('POST', '/api/automations', { name: 'killed feed', prompt: 'Item: {{event.title}}', trigger: { feed: { url: server.url('/feed.xml'), pollMinutes: 1 } } });
  expect(created.status, created.text).toBe(201);
  const id = created.body.automation.id as string;
  await waitFor(async () => (await api('GET', `/api/automations/${id}`)).body.automation.source, { what: 'the baseline', until: (source) => source?.state === 'listening' });

  let next = 1;
  for (let round = 0; round < 4; round++) {
    await kill();
    add(next++);
    add(next++);
    publish();
    const hitsBefore = server.hitsOf('/feed.xml').length;
    daemon = await startDaemon(dataDir);
    // Killed at a moment of its own: before, during or after its first look.
    if (round % 2 === 0) await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 400)));
    else await waitFor(() => server.hitsOf('/feed.xml').length > hitsBefore, { what: 'the first look to start' });
  }
  await kill();
  daemon = await startDaemon(dataDir);
  await waitFor(async () => (await api('GET', `/api/automations/${id}`)).body.automation.source, { what: 'listening', timeoutMs: 30_000, until: (source) => source?.state === 'listening' });

  // Every item started a run, once. A run the kill interrupted is queued once more by the runner (its
  // own rule, for every automation's first attempt), and that repeat may be interrupted by the next
  // kill too: so an item has at most two runs, and at most one that was not interrupted.
  const runs = (await api('GET', `/api/runs?sourceId=${id}&limit=500`)).body.runs as Run[];
  const byItem = new Map<string, Run[]>();
  for (const run of runs) {
    const title = /\n(Item \d+)\n/.exec(run.prompt)?.[1] ?? '(none)';
    byItem.set(title, [...(byItem.get(title) ?? []), run]);
  }
  // Each prompt holds its title fenced; none for the baseline's item 0.
  expect([...byItem.keys()].sort()).toEqual(items.slice(1).map((item) => item.title).sort());
  for (const [title, ofItem] of byItem) {
    expect(ofItem.length, title).toBeLessThanOrEqual(2);
    expect(ofItem.filter((run) => run.status !== 'interrupted').length, title).toBeLessThanOrEqual(1);
    if (ofItem.length === 2) expect(ofItem.some((run) => run.status === 'interrupted'), title).toBe(true);
  }
  await daemon.stop();
}, 240_000);

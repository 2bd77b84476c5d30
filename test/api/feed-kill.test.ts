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

  // A run the kill interrupted is queued once more by the runner (its own rule, for every run): the
  // interrupted one is left out, its repeat stands for it.
  const prompts = ((await api('GET', `/api/runs?sourceId=${id}&limit=500`)).body.runs as Run[]).filter((run) => run.status !== 'interrupted').map((run) => run.prompt);
  // Each prompt holds its title fenced; one run per item, none for the baseline's item 0.
  expect(prompts.map((prompt) => /\n(Item \d+)\n/.exec(prompt)?.[1]).sort()).toEqual(items.slice(1).map((item) => item.title).sort());
  await daemon.stop();
}, 240_000);

// The merged feed with remote Stewards: four real `steward serve` processes, each with 100
// instances of 20 lines; the local one follows the other three (POST /api/remotes). Measures how
// long it takes to catch up their 6,000 lines, then, side by side while every daemon keeps writing
// (runs of `cat`, a few lines a second each), a cursor poll of the merged feed over all 400
// instances against the local feed's poll over its own 100 on the same daemon; checks afterwards
// that the merged polls saw every line exactly once, and reports the local process's memory.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCore } from '../src/main/core';
import { silentLogger } from '../src/main/core/logger';
import type { ActivityFeed, Cursors } from '../src/shared/contract';
import { type Server, startDaemon } from '../test/support/processes';

const remoteCount = 3;
const instancesEach = 100;
const linesEach = 20;
const runEveryMs = 400;
const measureMs = 15_000;
const catchUpLimitMs = 60_000;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] * 100) / 100;
};
const encode = (cursors: Cursors) => Buffer.from(JSON.stringify(cursors)).toString('base64url');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const rssMiB = (pid: number) => Math.round(Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) / 1024);

interface Steward {
  dataDir: string;
  key: string;
  instanceIds: string[];
  server?: Server;
}

/** A data folder with 100 instances (the default one and 99 of `cat`) of 20 lines each, and an API key. */
async function prepare(name: string): Promise<Steward> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `steward-bench-remotes-${name}-`));
  const core = await createCore({ dataDir, listen: false, logger: silentLogger() });
  try {
    for (let i = 1; i < instancesEach; i++) core.services.instances.create({ name: `${name} agent ${i}`, agent: { provider: 'command', preset: 'custom', command: 'cat' } });
    await core.services.instances.idle();
    const instanceIds = core.store.instances.list().map((instance) => instance.id);
    const start = Date.now() - 60_000;
    core.store.transaction(() => {
      for (let n = 0; n < linesEach; n++) {
        for (const [k, instanceId] of instanceIds.entries()) {
          const stamp = new Date(start + n * instancesEach + k).toISOString();
          core.store.activity.append({ instanceId, runId: null, kind: 'assistant', label: 'cron', displayText: `${name}: line ${n + 1}`, raw: `{"n":${n + 1}}`, timestamp: stamp });
        }
      }
    });
    return { dataDir, key: core.services.apiKeys.create('bench').key, instanceIds };
  } finally {
    await core.close();
  }
}

async function api<T>(steward: Steward, method: string, route: string, body?: unknown): Promise<{ status: number; body: T; bytes: number }> {
  const response = await fetch(`${steward.server!.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${steward.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T, bytes: Buffer.byteLength(text) };
}

/** Each instance's last line, as the feed's cursors without a cursor given. */
async function heads(steward: Steward, location: 'local' | 'all'): Promise<Cursors> {
  return (await api<ActivityFeed>(steward, 'GET', `/api/activity?limit=1&location=${location}`)).body.cursors;
}

/** The last line of each of their own instances, as each says. */
async function headsOfAll(stewards: Steward[]): Promise<Cursors> {
  const each = await Promise.all(stewards.map((steward) => heads(steward, 'local')));
  return Object.fromEntries(each.flatMap((cursors) => Object.entries(cursors)));
}

/** A run of `cat` now and then on each daemon, one instance after another, until stopped. */
function trickle(stewards: Steward[]): { stop: () => Promise<number> } {
  let running = true;
  let runs = 0;
  const loops = stewards.map(async (steward, s) => {
    for (let n = 0; running; n++) {
      const instanceId = steward.instanceIds[1 + (n % (instancesEach - 1))];
      const { status } = await api(steward, 'POST', '/api/runs', { instanceId, prompt: `tick ${n} on ${s}` });
      if (status === 202) runs++;
      await sleep(runEveryMs);
    }
  });
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
      return runs;
    },
  };
}

async function timedPoll(steward: Steward, query: string): Promise<{ ms: number; feed: ActivityFeed; bytes: number }> {
  const started = performance.now();
  const { status, body, bytes } = await api<ActivityFeed>(steward, 'GET', `/api/activity?${query}`);
  if (status !== 200) throw new Error(`GET /api/activity answered ${status}: ${JSON.stringify(body)}`);
  return { ms: performance.now() - started, feed: body, bytes };
}

export async function remotesFeedBench(): Promise<Record<string, unknown>> {
  const stewards: Steward[] = [];
  try {
    for (const name of ['local', ...Array.from({ length: remoteCount }, (_, i) => `remote${i + 1}`)]) stewards.push(await prepare(name));
    const [local, ...remotes] = stewards;
    // All settled before going on: a daemon that failed to start leaves none of the others behind.
    const started = await Promise.allSettled(stewards.map(async (steward) => (steward.server = await startDaemon(steward.dataDir, ['--port', '0']))));
    for (const outcome of started) if (outcome.status === 'rejected') throw outcome.reason;
    await sleep(1_000);
    const rssStarted = rssMiB(local.server!.process.pid!);

    // Follow the three; time until the local copy holds every remote instance's last line.
    const remoteHeads = await headsOfAll(remotes);
    for (const [i, remote] of remotes.entries()) {
      await api(local, 'PUT', `/api/secrets/remote${i + 1}`, { value: remote.key });
    }
    const followStarted = performance.now();
    for (const [i, remote] of remotes.entries()) {
      const created = await api(local, 'POST', '/api/remotes', { name: `remote ${i + 1}`, url: remote.server!.url, apiKeyRef: `remote${i + 1}` });
      if (created.status !== 201) throw new Error(`POST /api/remotes answered ${created.status}: ${JSON.stringify(created.body)}`);
    }
    const caughtUp = async (want: Cursors) => {
      const have = await heads(local, 'all');
      return Object.entries(want).every(([id, line]) => (have[id] ?? 0) >= line);
    };
    while (!(await caughtUp(remoteHeads))) {
      if (performance.now() - followStarted > catchUpLimitMs) throw new Error('The local Steward did not catch up the remote lines in time.');
      await sleep(10);
    }
    const catchUpMs = Math.round(performance.now() - followStarted);

    // Both polls with the cursors they last returned, alternating, while every daemon writes.
    const writing = trickle(stewards);
    await sleep(1_000);
    let mergedCursors = await heads(local, 'all');
    let localCursors = await heads(local, 'local');
    const startCursors = { ...mergedCursors };
    const merged: number[] = [];
    const localOnly: number[] = [];
    const mergedBytes: number[] = [];
    const localBytes: number[] = [];
    const seen = new Set<string>();
    let duplicates = 0;
    let newLines = 0;
    const pollMerged = async () => {
      const { ms, feed, bytes } = await timedPoll(local, `cursors=${encode(mergedCursors)}&limit=100`);
      mergedBytes.push(bytes);
      for (const event of feed.events) {
        const key = `${event.instanceId}:${event.line}`;
        if (seen.has(key)) duplicates++;
        seen.add(key);
      }
      newLines += feed.events.length;
      mergedCursors = feed.cursors;
      return ms;
    };
    const pollLocal = async () => {
      const { ms, feed, bytes } = await timedPoll(local, `location=local&cursors=${encode(localCursors)}&limit=100`);
      localBytes.push(bytes);
      localCursors = feed.cursors;
      return ms;
    };
    const measureStarted = performance.now();
    for (let i = 0; performance.now() - measureStarted < measureMs; i++) {
      if (i % 2 === 0) {
        merged.push(await pollMerged());
        localOnly.push(await pollLocal());
      } else {
        localOnly.push(await pollLocal());
        merged.push(await pollMerged());
      }
      await sleep(20);
    }
    const runs = await writing.stop();
    const rssFollowing = rssMiB(local.server!.process.pid!);

    // Every line written since the polls began, on all four, seen once by the merged polls.
    await sleep(1_000);
    const finalHeads = await headsOfAll(stewards);
    while (!(await caughtUp(finalHeads))) {
      if (performance.now() - measureStarted > measureMs + catchUpLimitMs) throw new Error('The local Steward did not catch up the trickle in time.');
      await sleep(50);
    }
    while (Object.entries(finalHeads).some(([id, line]) => (mergedCursors[id] ?? 0) < line)) {
      if (performance.now() - measureStarted > measureMs + catchUpLimitMs) throw new Error('The merged polls did not reach the heads in time.');
      await pollMerged();
    }
    const written = Object.entries(finalHeads).reduce((sum, [id, line]) => sum + line - (startCursors[id] ?? 0), 0);
    // A run still ending may have written past the heads taken: those lines are not counted.
    const seenUpToHeads = [...seen].filter((key) => {
      const [id, line] = key.split(':');
      return Number(line) <= (finalHeads[id] ?? 0);
    }).length;
    const everyLineOnce = duplicates === 0 && seenUpToHeads === written;


    const mergedP50 = percentile(merged, 50);
    const localP50 = percentile(localOnly, 50);
    const ratio = Math.round((mergedP50 / localP50) * 100) / 100;
    return {
      benchmark: 'remotes-feed',
      stewards: { local: 1, remotes: remoteCount, instancesEach, linesEach },
      catchUpMs: { lines: remoteCount * instancesEach * linesEach, ms: catchUpMs },
      mergedPollMs: { p50: mergedP50, p95: percentile(merged, 95), samples: merged.length, cursors: Object.keys(mergedCursors).length, cursorsQueryBytes: encode(mergedCursors).length, answerKB: Math.round(percentile(mergedBytes, 50) / 1024) },
      localPollMs: { p50: localP50, p95: percentile(localOnly, 95), samples: localOnly.length, cursors: Object.keys(localCursors).length, answerKB: Math.round(percentile(localBytes, 50) / 1024) },
      mergedOverLocalP50: ratio,
      whileWriting: { runs, newLinesSeen: newLines, linesWritten: written, everyLineOnce },
      localRssMiB: { started: rssStarted, following: rssFollowing },
      targets: { mergedOverLocalP50Below: 3 },
      met: everyLineOnce && ratio < 3,
    };
  } finally {
    await Promise.all(stewards.flatMap((steward) => (steward.server ? [steward.server.stop()] : [])));
    for (const steward of stewards) fs.rmSync(steward.dataDir, { recursive: true, force: true });
  }
}

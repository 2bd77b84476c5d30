// Nothing a run leaves behind can stall Steward: a FIFO where Steward reads after the run (Gemini's
// project registry in the run's own Gemini home, at its end) or before the next one (Claude Code's
// .claude/settings.local.json in the workspace, when the next run's sandbox is made). While the
// planting run ends and the next starts and ends, /api/health answers within a second.
// The core runs in this process, so a blocked read blocks the test too: a separate process opens
// the planted FIFOs for writing after 4 s, and a blocked read shows as a slow health answer.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { Instance, Run } from '../../src/shared/contract';
import { type TestCore, startTestCore, tempDir } from '../support/core';
import { lacks } from '../support/requirements';
import { settled } from '../support/runs';

const skip = lacks('sandbox');

let t: TestCore;
let bin: string;
let releaser: ChildProcess | undefined;

beforeAll(async () => {
  if (skip) return;
  t = await startTestCore({ clock: systemClock });
  bin = tempDir('steward-stall-bin-');
  // A CLI that does what its prompt says: plants a FIFO where its preset's files are, or nothing.
  const cli = [
    '#!/bin/sh',
    'prompt=$(cat)',
    'case "$prompt" in',
    '  plant-claude) mkdir -p .claude && mkfifo .claude/settings.local.json ;;',
    '  plant-gemini) rm -f "$GEMINI_CLI_HOME/.gemini/projects.json" && mkfifo "$GEMINI_CLI_HOME/.gemini/projects.json" ;;',
    'esac',
    'exit 0',
  ].join('\n');
  fs.writeFileSync(path.join(bin, 'planting-cli'), `${cli}\n`, { mode: 0o755 });
});
afterEach(() => {
  releaser?.kill('SIGKILL');
  releaser = undefined;
});
afterAll(async () => {
  await t?.close();
});

/** From 4 s on, for 30 s, opens every FIFO under `folders` for writing, so that a read blocked on one ends. */
function releaseFifosLater(folders: string[]): void {
  const script = 'sleep 4; n=0; while [ $n -lt 150 ]; do find "$@" -type p 2>/dev/null | while IFS= read -r f; do timeout 0.5 sh -c \': > "$0"\' "$f"; done; n=$((n+1)); sleep 0.2; done';
  releaser = spawn('sh', ['-c', script, 'sh', ...folders], { stdio: 'ignore' });
}

/**
 * Times GET /api/health every 100 ms from another process (a blocked event loop here would stop a
 * watcher in this process too, and hide itself between its ticks): each answer's time in ms, a
 * request unanswered after 10 s counting as 10,000.
 */
function watchHealth(): { stop(): Promise<number[]> } {
  const script = `const url = process.argv[1];
let on = true;
process.on('SIGTERM', () => (on = false));
(async () => {
  while (on) {
    const started = performance.now();
    const ok = await fetch(url, { signal: AbortSignal.timeout(10_000) }).then((r) => r.ok, () => false);
    process.stdout.write(\`\${ok ? Math.round(performance.now() - started) : 10_000}\\n\`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
})();`;
  const watcher = spawn(process.execPath, ['-e', script, `${t.url}/api/health`], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  watcher.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise((resolve) => watcher.on('close', resolve));
  return {
    async stop() {
      watcher.kill('SIGTERM');
      await exited;
      return out.split('\n').filter(Boolean).map(Number);
    },
  };
}

/** Runs `prompts` one after the other on `instance` while /api/health is timed: the runs, and the slowest answer and how many there were. */
async function runsWatchingHealth(instance: Instance, prompts: string[]): Promise<{ runs: Run[]; slowestMs: number; answers: number }> {
  const watch = watchHealth();
  const runs: Run[] = [];
  for (const prompt of prompts) {
    const { run } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt })).body as { run: Run };
    runs.push(await settled(t, run.id, 30_000));
  }
  const times = await watch.stop();
  return { runs, slowestMs: Math.max(...times), answers: times.length };
}

async function sandboxedInstance(preset: string, env: Record<string, string> = {}): Promise<Instance> {
  const created = await t.api('POST', '/api/instances', { name: preset, agent: { provider: 'command', preset, command: path.join(bin, 'planting-cli'), env }, sandbox: { mode: 'sandbox' } });
  expect(created.status).toBe(201);
  return created.body.instance as Instance;
}

describe.skipIf(skip)('a FIFO a run planted', () => {
  it("as Gemini's projects.json in its own home: the run's end, the next run and /api/health keep going", async () => {
    const geminiHome = tempDir('steward-gemini-user-');
    const instance = await sandboxedInstance('gemini', { GEMINI_CLI_HOME: geminiHome });
    releaseFifosLater([path.join(t.dataDir, 'runs'), geminiHome]);
    const { runs, slowestMs, answers } = await runsWatchingHealth(instance, ['plant-gemini', 'nothing']);
    expect(runs.map((run) => run.status)).toEqual(['succeeded', 'succeeded']);
    expect(answers).toBeGreaterThan(0);
    expect(slowestMs).toBeLessThan(1_000);
  });

  it('as .claude/settings.local.json in the workspace: the next run starts and ends, and /api/health keeps going', async () => {
    const instance = await sandboxedInstance('claude-code');
    releaseFifosLater([instance.workspaceDir]);
    const { runs, slowestMs, answers } = await runsWatchingHealth(instance, ['plant-claude', 'nothing']);
    expect(runs.map((run) => run.status)).toEqual(['succeeded', 'succeeded']);
    expect(answers).toBeGreaterThan(0);
    expect(slowestMs).toBeLessThan(1_000);
  });
});

// usdPerRun through the real runner: a CLI on PATH streams its usage (OpenCode's step_finish
// costs) and the run is cancelled once its reported cost passes the smaller applicable limit;
// what a run used is stored on it; Claude Code is given the limit as its own --max-budget-usd.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { Budget, Run } from '../../src/shared/contract';
import { type TestCore, startTestCore, tempDir } from '../support/core';
import { settled } from '../support/runs';

const fixtures = path.resolve(import.meta.dirname, '../fixtures/agents');
let t: TestCore;
let bin: string;

const step = (cost: number, input: number, output: number) =>
  JSON.stringify({ type: 'step_finish', sessionID: 'ses_budget', part: { type: 'step-finish', reason: 'tool-calls', cost, tokens: { input, output } } });

beforeAll(async () => {
  t = await startTestCore({ clock: systemClock });
  bin = tempDir('steward-budget-cli-');
  // An OpenCode that spends $0.30, then $0.25 more, then works on for a minute.
  const lines = [JSON.stringify({ type: 'step_start', sessionID: 'ses_budget', part: { type: 'step-start' } }), step(0.3, 1000, 50), step(0.25, 2000, 70)];
  fs.writeFileSync(path.join(bin, 'opencode'), `#!/bin/sh\n[ "$1" = --version ] && echo 1.18.0 && exit 0\ncat > /dev/null\necho '${lines[0]}'\necho '${lines[1]}'\nsleep 0.2\necho '${lines[2]}'\nexec sleep 60\n`, { mode: 0o755 });
  fs.writeFileSync(path.join(bin, 'claude'), `#!/bin/sh\nexec "${process.execPath}" "${path.join(fixtures, 'fake-cli.mjs')}" "$@"\n`, { mode: 0o755 });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(bin, { recursive: true, force: true });
});

async function runOn(preset: string, budgets: { instance: Budget; automation: Budget }, env: Record<string, string> = {}): Promise<Run> {
  const agent = { provider: 'command', preset, env: { PATH: `${bin}:${process.env.PATH}`, ...env } };
  const { instance } = (await t.api('POST', '/api/instances', { name: `${preset} on a budget`, agent, budget: budgets.instance })).body;
  const { automation } = (await t.api('POST', '/api/automations', { name: 'Daily digest', prompt: 'digest', cronExpression: '@yearly', instanceId: instance.id, budget: budgets.automation })).body;
  const { run } = (await t.api('POST', `/api/automations/${automation.id}/run`)).body as { run: Run };
  return settled(t, run.id, 20_000);
}

describe('usdPerRun', () => {
  it("cancels a run once its streamed cost passes the smaller limit (the automation's), saying so, with what it used stored", async () => {
    const started = Date.now();
    const run = await runOn('opencode', { instance: { usdPerRun: 5 }, automation: { usdPerRun: 0.5 } });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(run).toMatchObject({ status: 'cancelled', error: 'Cancelled: it spent $0.55, past the per-run budget of $0.50 of automation "Daily digest"', inputTokens: 3000, outputTokens: 120 });
    expect(run.costUsd).toBeCloseTo(0.55);
    const lines = t.core.store.db.prepare<[string], { display_text: string }>('SELECT display_text FROM activity WHERE run_id = ? ORDER BY line').all(run.id);
    expect(lines.at(-1)!.display_text).toMatch(/^Run cancelled after [\d.]+ s: Cancelled: it spent \$0\.55, past the per-run budget of \$0\.50 of automation "Daily digest"$/);
  });

  it("lets a run under the limit finish, keeps its usage, and gives Claude Code the limit (the instance's, the smaller) as --max-budget-usd", async () => {
    const flags = ['-p', '--output-format', 'stream-json', '--max-budget-usd', '0.4'];
    const run = await runOn('claude-code', { instance: { usdPerRun: 0.4 }, automation: { usdPerRun: 2 } }, { FAKE_CLI_FIXTURE: path.join(fixtures, 'claude-code.jsonl'), FAKE_CLI_FLAGS: JSON.stringify(flags) });
    expect(run).toMatchObject({ status: 'succeeded', error: null, costUsd: 0.0123, inputTokens: 1234, outputTokens: 567 });
  });
});

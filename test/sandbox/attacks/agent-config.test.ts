// The agent's own configuration as a way out (issue 29, "Why" 7 and "What to build" 7). A CLI's state
// is writable by design; if it is the user's own (~/.claude, ~/.claude.json, ~/.gemini), a run plants
// there what runs the next time the user starts the CLI in a terminal, unsandboxed: a SessionStart
// hook, an MCP server command, a custom command, a Gemini extension or context file. The user's files
// stay byte for byte as they were, whether the run writes them by path or writes its own state.
// And the policy comes from the instance's configuration only: a workspace `.claude/settings.json`
// naming ANTHROPIC_BASE_URL=http://127.0.0.1:<port> (a run wrote it, or a cloned repository carries
// it) opens that port to no later run.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Instance } from '../../../src/shared/contract';
import { lacks } from '../../support/requirements';
import { type Lab, type Listener, fixture, listen, openLab, snapshot } from './lab';

const skip = lacks('sandbox');
let lab: Lab;
let local: Listener;

beforeAll(async () => {
  if (skip) return;
  lab = await openLab();
  local = await listen('a local service never named', '127.0.0.1');
});
afterAll(async () => {
  await local?.close();
  await lab?.close();
});

const cli = (preset: string) => ({ provider: 'command', preset, command: fixture('fake-agent-cli.sh'), env: { PROBE_USER_HOME: lab.home, PROBE_OUTSIDE: lab.outside } });

/** The report the fake CLI left in the workspace: `attempt: result` lines. */
function report(instance: Instance): Record<string, string> {
  const file = path.join(instance.workspaceDir, 'probe-report.txt');
  if (!fs.existsSync(file)) return {};
  return Object.fromEntries(fs.readFileSync(file, 'utf8').split('\n').filter((line) => line.includes(': ')).map((line) => [line.slice(0, line.indexOf(': ')), line.slice(line.indexOf(': ') + 2)]));
}

/** The user's own CLI configuration, file by file (~-relative path → content). */
const userConfig = (): Record<string, string> =>
  Object.fromEntries(['.claude', '.claude.json', '.gemini'].flatMap((name) => Object.entries(snapshot(path.join(lab.home, name))).map(([file, content]) => [path.join('~', name, file), content])));

/** The files added, removed or changed between two snapshots. */
const changed = (before: Record<string, string>, after: Record<string, string>) => [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((file) => before[file] !== after[file]).sort();

describe.skipIf(skip)("the user's own CLI configuration", () => {
  // A custom agent has no CLI state at all: the user's CLI folders are no business of its.
  for (const preset of ['claude-code', 'gemini', 'custom']) {
    it(`stays byte for byte as it was after a sandboxed ${preset} run writes its state and the user's files`, async () => {
      const before = userConfig();
      const instance = await lab.instance(cli(preset), { mode: 'sandbox' }, preset);
      const run = await lab.run(instance, 'config-escape');
      const said = report(instance);
      expect(said.done, `the CLI ran (${run.status}: ${run.error ?? ''})`).toBe('config-escape');
      // Its own state is writable: the CLI can work.
      if (preset !== 'custom') expect(said[preset === 'gemini' ? 'own-gemini-state' : 'own-claude-state'], JSON.stringify(said)).toBe('yes');
      expect(changed(before, userConfig()), JSON.stringify(said)).toEqual([]);
    });
  }
});

describe.skipIf(skip)("a workspace's configuration", () => {
  it("opens no port to the next run of a claude-code instance, by ANTHROPIC_BASE_URL in .claude/settings.json", async () => {
    const instance = await lab.instance(cli('claude-code'), { mode: 'sandbox' }, 'workspace-config');
    await lab.run(instance, `plant-base-url ${local.port}`);
    const settings = path.join(instance.workspaceDir, '.claude/settings.json');
    // Refused to the run? A cloned repository carries it all the same.
    if (!fs.existsSync(settings)) {
      fs.mkdirSync(path.dirname(settings), { recursive: true });
      fs.writeFileSync(settings, JSON.stringify({ env: { ANTHROPIC_BASE_URL: `http://127.0.0.1:${local.port}` } }));
    }
    const before = local.connections;
    const run = await lab.run(instance, `reach ${local.port}`);
    const said = report(instance);
    expect(said.done, `the CLI ran (${run.status}: ${run.error ?? ''})`).toBe('reach');
    expect([said.direct, said.absolute, said.connect], JSON.stringify(said)).not.toContain('200');
    expect(local.connections - before).toBe(0);
  });
});

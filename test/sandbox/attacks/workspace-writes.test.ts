// In its own workspace, a run cannot plant what starts programs later (issue 29, "What to build" 7):
// git's hooks and config, .gitmodules, .mcp.json, .claude's settings and commands, .vscode, .idea,
// .envrc and shell rc files stay as they were, whether the run writes them, replaces the folder
// that holds them or swaps in a link; its other files it writes as ever. Judged from outside by what
// the workspace holds afterwards (an empty file left where a guard was mounted starts nothing and
// does not count).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lacks } from '../../support/requirements';
import { type Lab, fixture, openLab, snapshot } from './lab';

const skip = lacks('sandbox');
let lab: Lab;

beforeAll(async () => {
  if (skip) return;
  lab = await openLab();
});
afterAll(async () => {
  await lab?.close();
});

const startsPrograms = ['.git', '.gitmodules', '.mcp.json', '.claude', '.vscode', '.idea', '.envrc', '.bashrc', '.profile', '.zshrc'];

/** What those paths hold in `workspace`, by relative path; empty files left out. */
function guarded(workspace: string): Record<string, string> {
  const held: Record<string, string> = {};
  for (const name of startsPrograms) {
    for (const [file, content] of Object.entries(snapshot(path.join(workspace, name)))) if (content !== '') held[path.join(name, file)] = content;
  }
  return held;
}

/** The paths whose content differs between two snapshots. */
const changed = (before: Record<string, string>, after: Record<string, string>) => [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((file) => before[file] !== after[file]).sort();

describe.skipIf(skip)("a sandboxed run's workspace", () => {
  const ways = { direct: 'written, appended, replaced or linked', swap: 'whose folder (.git, .claude, .vscode) is moved away and made anew' };
  for (const [way, how] of Object.entries(ways)) {
    it(`keeps what starts programs later as it was, ${how}, and takes the run's other files`, async () => {
      const instance = await lab.instance({ provider: 'command', preset: 'custom', command: fixture('workspace-writes.sh') }, { mode: 'sandbox' }, way);
      const workspace = instance.workspaceDir;
      fs.mkdirSync(workspace, { recursive: true });
      // A project as a user has it: a git repository, the CLI's and the editor's settings, direnv.
      expect(spawnSync('git', ['init', '-q', workspace]).status).toBe(0);
      fs.mkdirSync(path.join(workspace, '.claude'));
      fs.writeFileSync(path.join(workspace, '.claude/settings.json'), '{"permissions":{"deny":["Bash(rm:*)"]}}\n');
      fs.mkdirSync(path.join(workspace, '.vscode'));
      fs.writeFileSync(path.join(workspace, '.vscode/settings.json'), '{"editor.tabSize":2}\n');
      fs.writeFileSync(path.join(workspace, '.envrc'), 'use nix\n');
      fs.writeFileSync(path.join(workspace, '.git/hooks/pre-push.sample'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
      const before = guarded(workspace);

      const run = await lab.run(instance, way);
      const said = await lab.said(run);
      expect(said.done, `${run.status}: ${run.error ?? ''}`).toBe(way);
      expect(said['ordinary-file']).toBe('yes');
      expect(fs.readFileSync(path.join(workspace, 'notes.md'), 'utf8')).toBe('my notes\n');
      expect(changed(before, guarded(workspace)), JSON.stringify(said)).toEqual([]);
    });
  }
});

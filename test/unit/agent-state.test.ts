// An instance's CLI state is written by its runs: Steward brings the user's login and configuration
// into it without ever writing through, or reading through, a link or a FIFO a run left there, and
// without taking more of the user's files than the login (the account part of ~/.claude.json).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { carriedFiles } from '../../src/main/core/sandbox/agent-footprint';
import { prepareAgentHome, readStateFile, stateEnv, writeStateFile } from '../../src/main/core/sandbox/agent-state';
import { tempDir } from '../support/core';

const claude = { provider: 'command', preset: 'claude-code' } as const;

function userHome(): string {
  const home = tempDir('steward-user-');
  fs.mkdirSync(path.join(home, '.claude'));
  fs.writeFileSync(path.join(home, '.claude/.credentials.json'), '{"token":"user"}');
  fs.writeFileSync(path.join(home, '.claude/settings.json'), '{"model":"opus"}');
  fs.writeFileSync(path.join(home, '.claude.json'), JSON.stringify({ oauthAccount: { email: 'ada@example.com' }, projects: { '/secret/project': {} } }));
  return home;
}

describe("an instance's CLI state", () => {
  it("points every CLI's state variable into the instance's home", () => {
    expect(stateEnv('/d/agent-homes/ins_1')).toEqual({
      HOME: '/d/agent-homes/ins_1',
      CLAUDE_CONFIG_DIR: '/d/agent-homes/ins_1/.claude',
      CODEX_HOME: '/d/agent-homes/ins_1/.codex',
      GEMINI_CLI_HOME: '/d/agent-homes/ins_1',
      XDG_CONFIG_HOME: '/d/agent-homes/ins_1/.config',
      XDG_DATA_HOME: '/d/agent-homes/ins_1/.local/share',
      XDG_STATE_HOME: '/d/agent-homes/ins_1/.local/state',
      XDG_CACHE_HOME: '/d/agent-homes/ins_1/.cache',
    });
  });

  it('brings in the login, the settings and the account part of the global file, nothing else of it', () => {
    const home = userHome();
    const state = path.join(tempDir('steward-data-'), 'agent-homes/ins_1');
    prepareAgentHome(state, carriedFiles(claude, {}, home));
    expect(fs.statSync(state).mode & 0o777).toBe(0o700);
    expect(readStateFile(state, '.claude/.credentials.json')).toBe('{"token":"user"}');
    expect(readStateFile(state, '.claude/settings.json')).toBe('{"model":"opus"}');
    expect(JSON.parse(readStateFile(state, '.claude/.claude.json')!)).toEqual({ oauthAccount: { email: 'ada@example.com' } });
    for (const folder of ['.codex', '.gemini', '.config', '.local/share', '.cache']) expect(fs.statSync(path.join(state, folder)).isDirectory()).toBe(true);
  });

  it("never writes through a link a run left in a folder's or a file's place, nor into the user's files", () => {
    const home = userHome();
    const state = path.join(tempDir('steward-data-'), 'agent-homes/ins_1');
    fs.mkdirSync(state, { recursive: true });
    // The run made its .claude a link to the user's own, and its .codex/auth.json a link to a file of the user's.
    const victim = tempDir('steward-victim-');
    fs.symlinkSync(path.join(home, '.claude'), path.join(state, '.claude'));
    fs.mkdirSync(path.join(state, '.codex'));
    fs.writeFileSync(path.join(victim, 'precious'), 'keep me');
    fs.symlinkSync(path.join(victim, 'precious'), path.join(state, '.codex/auth.json'));
    const before = fs.readFileSync(path.join(home, '.claude/settings.json'), 'utf8');
    fs.writeFileSync(path.join(home, '.claude/settings.json'), '{"model":"sonnet"}');
    prepareAgentHome(state, carriedFiles(claude, {}, home));
    writeStateFile(state, '.codex/auth.json', '{"token":"instance"}');
    expect(fs.lstatSync(path.join(state, '.claude')).isDirectory()).toBe(true);
    expect(readStateFile(state, '.claude/settings.json')).toBe('{"model":"sonnet"}');
    expect(fs.readFileSync(path.join(home, '.claude/settings.json'), 'utf8')).toBe('{"model":"sonnet"}');
    expect(fs.readdirSync(path.join(home, '.claude')).sort()).toEqual(['.credentials.json', 'settings.json']);
    expect(fs.readFileSync(path.join(victim, 'precious'), 'utf8')).toBe('keep me');
    expect(readStateFile(state, '.codex/auth.json')).toBe('{"token":"instance"}');
    expect(before).toBe('{"model":"opus"}');
  });

  it('reads nothing through a link or from a FIFO a run left, without waiting', () => {
    const state = tempDir('steward-state-');
    fs.mkdirSync(path.join(state, '.gemini'));
    execFileSync('mkfifo', [path.join(state, '.gemini/settings.json')]);
    fs.symlinkSync('/etc', path.join(state, '.claude'));
    expect(readStateFile(state, '.gemini/settings.json')).toBeUndefined();
    expect(readStateFile(state, '.claude/passwd')).toBeUndefined();
  });

  it("keeps a login the CLI refreshed inside, until the user's is newer", () => {
    const home = userHome();
    const state = path.join(tempDir('steward-data-'), 'agent-homes/ins_1');
    prepareAgentHome(state, carriedFiles(claude, {}, home));
    writeStateFile(state, '.claude/.credentials.json', '{"token":"refreshed"}');
    prepareAgentHome(state, carriedFiles(claude, {}, home));
    expect(readStateFile(state, '.claude/.credentials.json')).toBe('{"token":"refreshed"}');
    fs.writeFileSync(path.join(home, '.claude/.credentials.json'), '{"token":"user again"}');
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(home, '.claude/.credentials.json'), later, later);
    prepareAgentHome(state, carriedFiles(claude, {}, home));
    expect(readStateFile(state, '.claude/.credentials.json')).toBe('{"token":"user again"}');
  });
});

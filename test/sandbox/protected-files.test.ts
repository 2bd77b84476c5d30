// What a sandboxed run may not plant in what it may write: the files that start programs later,
// outside the sandbox, when the user runs git, opens an editor or a CLI, or a shell in the folder
// (git hooks and config, .mcp.json, .envrc, .gitmodules, a CLI's project settings and commands, an
// editor's tasks, a home folder's shell files). Existing or not, moved aside or not, they stay as
// they were, and nothing is left behind in the workspace; ordinary work (a source file, a git
// object) goes on. writeAllow that names one opens it; with the sandbox off, every probe succeeds.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { Instance, Run } from '../../src/shared/contract';
import { type TestCore, startTestCore, tempDir } from '../support/core';
import { type OpenAiServer, startOpenAiServer } from '../support/openai-server';
import { lacks } from '../support/requirements';
import { settled } from '../support/runs';

const probe = path.resolve(import.meta.dirname, '../fixtures/sandbox/workspace-probe.sh');
const skip = lacks('sandbox');

let t: TestCore;
let model: OpenAiServer;

beforeAll(async () => {
  if (skip) return;
  t = await startTestCore({ clock: systemClock });
  model = await startOpenAiServer();
});

afterAll(async () => {
  await model?.close();
  await t?.close();
});

/** Every file under `dir` with its content ('<dir>' for folders), links not followed. */
function tree(dir: string): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const file = path.join(dir, entry);
    const stat = fs.lstatSync(file);
    entries[entry] = stat.isDirectory() ? '<dir>' : stat.isSymbolicLink() ? `-> ${fs.readlinkSync(file)}` : fs.readFileSync(file, 'utf8');
  }
  return entries;
}

async function probeFrom(sandboxOf: (workspace: string) => Record<string, unknown>, setUp: (workspace: string) => void = () => {}) {
  const home = tempDir('steward-home-');
  fs.writeFileSync(path.join(home, '.bashrc'), '# the user\'s own\n');
  const workspace = tempDir('steward-workspace-');
  const agent = { provider: 'command', preset: 'custom', command: probe, env: { HOME: home, PROBE_HOME: home } };
  const created = await t.api('POST', '/api/instances', { name: 'workspace probe', agent, workspaceDir: workspace, sandbox: sandboxOf(workspace) });
  expect(created.status).toBe(201);
  const instance = created.body.instance as Instance;
  // A repository with a commit, and an editor's settings in it.
  const git = (...args: string[]) => execFileSync('git', ['-C', workspace, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(workspace, 'README.md'), 'hello\n');
  fs.mkdirSync(path.join(workspace, '.vscode'));
  fs.writeFileSync(path.join(workspace, '.vscode/settings.json'), '{}\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'first');
  fs.writeFileSync(path.join(workspace, '.git/hooks/pre-commit.sample'), '#!/bin/sh\n');
  setUp(workspace);
  const before = { workspace: tree(workspace), bashrc: fs.readFileSync(path.join(home, '.bashrc'), 'utf8') };
  const { run } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'plant' })).body as { run: Run };
  const finished = await settled(t, run.id);
  const messages = finished.status === 'succeeded' ? ((await t.api('GET', `/api/threads/${run.threadId}`)).body.thread.messages as { role: string; content: string }[]) : [];
  const said = Object.fromEntries(messages.filter((message) => message.role === 'assistant').map((message) => message.content.split(': ')));
  return { run: finished, said, before, after: { workspace: tree(workspace), bashrc: fs.readFileSync(path.join(home, '.bashrc'), 'utf8') }, workspace };
}

const planted = ['hook', 'git-config', 'mcp', 'envrc', 'gitmodules', 'claude-settings', 'claude-command', 'vscode-tasks', 'vscode-replace', 'git-aside'];

describe.skipIf(skip)("a sandboxed run's workspace", () => {
  it('keeps the files that start programs later as they were, existing or not, and leaves nothing behind; ordinary work goes on', async () => {
    const { run, said, before, after } = await probeFrom(() => ({ mode: 'sandbox' }));
    expect(run.status, run.error ?? '').toBe('succeeded');
    // git inside takes the placeholders of the files it may not create for nothing: a run's `git add -A` does not commit them.
    expect(said).toEqual({ 'untracked-at-start': '', ...Object.fromEntries(planted.map((what) => [what, 'no'])), bashrc: 'no', code: 'yes', 'git-object': 'yes' });
    // What the run did write, and nothing else: no placeholder of the sandbox's is left. git's index
    // is git's cache of the files' stat data: inside, the files' owner is the sandbox's uid, so git
    // inside rewrites it (the entries stay the same files).
    const { '.git/index': _indexAfter, ...afterWorkspace } = after.workspace;
    const { '.git/index': _indexBefore, ...beforeWorkspace } = before.workspace;
    expect(afterWorkspace).toEqual({ ...beforeWorkspace, src: '<dir>', 'src/main.txt': 'ok\n', '.git/objects/ab': '<dir>', '.git/objects/ab/probe': 'blob\n' });
    expect(after.bashrc).toBe(before.bashrc);
  });

  it("lets the run write a home folder it was given, but not the home's shell files", async () => {
    const { run, said, after, before } = await probeFrom(() => ({ mode: 'sandbox', writeAllow: ['~'] }));
    expect(run.status, run.error ?? '').toBe('succeeded');
    expect(said.bashrc).toBe('no');
    expect(after.bashrc).toBe(before.bashrc);
  });

  it('lets the run write a startup file that writeAllow names, and only that one', async () => {
    const { run, said, after } = await probeFrom((workspace) => ({ mode: 'sandbox', writeAllow: [path.join(workspace, '.git/hooks')] }));
    expect(run.status, run.error ?? '').toBe('succeeded');
    expect(said).toMatchObject({ hook: 'yes', 'git-config': 'no', mcp: 'no', 'git-aside': 'no' });
    expect(after.workspace['.git/hooks/pre-commit']).toBe('#!/bin/sh\necho pwned\n');
  });

  it("refuses to start where a startup file is a link a run could replace, saying what to do", async () => {
    const elsewhere = tempDir('steward-editor-settings-');
    const { run } = await probeFrom(() => ({ mode: 'sandbox' }), (workspace) => {
      fs.rmSync(path.join(workspace, '.vscode'), { recursive: true });
      fs.symlinkSync(elsewhere, path.join(workspace, '.vscode'));
    });
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/^The sandbox cannot protect \S+\/\.vscode: \S+\/\.vscode is a symbolic link, which a run could replace\. Replace the link with what it points to, or add \S+ to the instance's sandbox writeAllow to let runs change it\.$/);
  });

  it('where its sandbox is off, every probe succeeds', async () => {
    const { said } = await probeFrom(() => ({ mode: 'off' }));
    expect(said).toEqual({ 'untracked-at-start': '', ...Object.fromEntries(planted.map((what) => [what, 'yes'])), bashrc: 'yes', code: 'yes', 'git-object': 'yes' });
  });

  it("holds the built-in agent's write_file, which Steward runs for it, to the same files", async () => {
    const workspace = tempDir('steward-workspace-');
    fs.mkdirSync(path.join(workspace, '.git/hooks'), { recursive: true });
    const agent = { provider: 'openai', baseUrl: model.baseUrl, model: 'qwen3:8b', tools: ['files'] };
    const created = await t.api('POST', '/api/instances', { name: 'writer', agent, workspaceDir: workspace, sandbox: { mode: 'sandbox' } });
    expect(created.status).toBe(201);
    const write = (file: string) => ({ name: 'write_file', argumentPieces: [JSON.stringify({ path: file, content: 'echo pwned\n' })] });
    model.script([{ toolCalls: [write('.git/hooks/pre-commit'), write('.claude/settings.json'), write('notes.txt')] }, { text: ['Done.'] }]);
    const { run } = (await t.api('POST', '/api/runs', { instanceId: created.body.instance.id, prompt: 'write' })).body as { run: Run };
    expect((await settled(t, run.id)).status).toBe('succeeded');
    const results = model.requests.at(-1)!.body.messages.filter((message) => message.role === 'tool').map((message) => message.content ?? '');
    expect(results).toEqual([
      `Error: .git/hooks/pre-commit is a file that starts programs later (.git/hooks): the sandbox keeps runs from writing it. Add ${fs.realpathSync(workspace)}/.git/hooks to the instance's sandbox writeAllow to allow it.`,
      `Error: .claude/settings.json is a file that starts programs later (.claude/settings.json): the sandbox keeps runs from writing it. Add ${fs.realpathSync(workspace)}/.claude/settings.json to the instance's sandbox writeAllow to allow it.`,
      'Wrote 11 bytes to notes.txt.',
    ]);
    expect(fs.readdirSync(path.join(workspace, '.git/hooks'))).toEqual([]);
    expect(fs.existsSync(path.join(workspace, '.claude'))).toBe(false);
  });
});

// Real git repositories for the git source's tests: made with the `git` CLI in temp folders, with
// commits by named authors, and a real `git daemon` on a free loopback port serving a folder of
// bare repositories (its own process group, ended by the test).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from './sshd';
import { tempDir } from './temp';
import { waitFor } from './wait';

/** Runs git in `cwd` with a fixed identity and no user or system configuration; returns stdout. */
export function gitIn(cwd: string, args: string[], author: { name: string; email: string } = { name: 'Test', email: 'test@example.com' }): string {
  const env = {
    ...process.env,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: author.name,
    GIT_AUTHOR_EMAIL: author.email,
    GIT_COMMITTER_NAME: author.name,
    GIT_COMMITTER_EMAIL: author.email,
  };
  return execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export const ada = { name: 'Ada Lovelace', email: 'ada@example.com' };
export const bob = { name: 'Bob Builder', email: 'bob@example.com' };

/** A bare repository (the one watched, or served) and a clone to work in, with one first commit on main. */
export function repoPair(parent = tempDir('steward-git-')): { origin: string; work: string; parent: string } {
  const origin = path.join(parent, 'origin.git');
  const work = path.join(parent, 'work');
  gitIn(parent, ['init', '--quiet', '--bare', '--initial-branch=main', origin]);
  gitIn(parent, ['init', '--quiet', '--initial-branch=main', work]);
  gitIn(work, ['remote', 'add', 'origin', origin]);
  commitFiles(work, { 'README.md': 'hello\n' }, 'First commit');
  gitIn(work, ['push', '--quiet', 'origin', 'main']);
  return { origin, work, parent };
}

/** Writes the files and commits them; returns the new commit. */
export function commitFiles(work: string, files: Record<string, string>, message: string, author = ada): string {
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(work, name)), { recursive: true });
    fs.writeFileSync(path.join(work, name), text);
  }
  gitIn(work, ['add', '--all'], author);
  gitIn(work, ['commit', '--quiet', '-m', message], author);
  return gitIn(work, ['rev-parse', 'HEAD']).trim();
}

export const tipOf = (repo: string, branch = 'main') => gitIn(repo, ['rev-parse', `refs/heads/${branch}`]).trim();

export interface GitDaemon {
  port: number;
  /** git://127.0.0.1:port/<name> */
  url(name: string): string;
  stop(): Promise<void>;
}

/** `git daemon` serving every repository under `base` on 127.0.0.1, pushes allowed. */
export async function startGitDaemon(base: string, port?: number): Promise<GitDaemon> {
  const chosen = port ?? (await freePort());
  const child: ChildProcess = spawn('git', ['daemon', '--reuseaddr', `--base-path=${base}`, '--export-all', '--enable=receive-pack', `--port=${chosen}`, '--listen=127.0.0.1', base], {
    stdio: 'ignore',
    detached: true,
  });
  const url = (name: string) => `git://127.0.0.1:${chosen}/${name}`;
  const answers = () => {
    try {
      gitIn(base, ['ls-remote', url(fs.readdirSync(base).find((name) => name.endsWith('.git')) ?? 'none.git')]);
      return true;
    } catch {
      return child.exitCode !== null ? Promise.reject(new Error(`git daemon exited (${child.exitCode})`)) : false;
    }
  };
  await waitFor(answers, { what: `git daemon to answer on ${chosen}`, timeoutMs: 15_000, intervalMs: 100 });
  return {
    port: chosen,
    url,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        // Its group: the daemon and the upload-pack it forked for a fetch under way.
        process.kill(-child.pid!, 'SIGTERM');
      }),
  };
}

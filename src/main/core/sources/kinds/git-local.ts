// A repository on this machine for the git source: the branch's tip read with `git rev-parse`, and
// its ref watched by looking, once a second, at the files a ref move rewrites (the loose ref, which
// git replaces by a rename, packed-refs, reftable's table list): a stat of three files, no process,
// and no file watcher to miss a rename, run out of inotify watches or go quiet on a network share.
// A look that sees a change, and a full check every pollSeconds whatever it sees, read the tip.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git } from './git-cli';

/** How often the ref files are looked at. */
export const refLookMs = 1000;

export interface LocalRepository {
  /** The folder as given, ~ expanded. */
  folder: string;
  /** Where refs live (a worktree's are its main repository's). */
  commonDir: string;
  /** In words: ~/src/app. */
  where: string;
}

export function expandHome(repository: string): string {
  return repository === '~' ? os.homedir() : repository.startsWith('~/') ? path.join(os.homedir(), repository.slice(2)) : repository;
}

export function inWords(folder: string): string {
  const home = os.homedir();
  return folder === home ? '~' : folder.startsWith(home + path.sep) ? `~${folder.slice(home.length)}` : folder;
}

/** Checks the folder is a repository git reads; throws git's words when it is not. */
export async function openLocal(repository: string, signal: AbortSignal): Promise<LocalRepository> {
  const folder = expandHome(repository);
  if (!path.isAbsolute(folder)) throw new Error(`"${repository}" must be an absolute path (or ~/…) or a remote URL`);
  const where = inWords(path.resolve(folder));
  let commonDir: string;
  try {
    // -C rather than the working folder: git, not the process spawn, says what is wrong with it.
    commonDir = (await git(['-C', folder, 'rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: os.tmpdir(), signal })).stdout.trim();
  } catch (error) {
    throw new Error(`git cannot read ${where}: ${(error as Error).message}`, { cause: error });
  }
  return { folder, commonDir, where };
}

/** The branch's tip, or undefined when there is no such branch. */
export async function localTip(repo: LocalRepository, branch: string, signal: AbortSignal): Promise<string | undefined> {
  const { stdout, code } = await git(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`], { cwd: repo.folder, signal, answers: [1] });
  return code === 0 ? stdout.trim() : undefined;
}

async function stamp(file: string): Promise<string> {
  try {
    const stat = await fs.promises.stat(file, { bigint: true });
    return `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
  } catch {
    return '-';
  }
}

/** What the branch's ref files look like now: different whenever a ref move rewrote one of them. */
export async function refStamp(repo: LocalRepository, branch: string): Promise<string> {
  const files = [path.join(repo.commonDir, 'refs', 'heads', ...branch.split('/')), path.join(repo.commonDir, 'packed-refs'), path.join(repo.commonDir, 'reftable', 'tables.list')];
  return (await Promise.all(files.map(stamp))).join('|');
}

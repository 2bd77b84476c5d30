// The configuration folder as the source of truth: looked at every second, applied once what it
// holds has changed and stayed the same for one look (a `git pull` writing two files is one apply,
// not two), and not while git holds its index lock. A refused folder is not tried again until it
// changes; the last good state stays in force meanwhile.
import { execFile } from 'node:child_process';
import { constants as fsConstants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ConfigFile } from '../../../shared/contract';

export const configFileExtensions = ['.yaml', '.yml'];
const lookEveryMs = 1000;

/**
 * The configuration files under `folder`, by path; dot folders (.git) and symlinks are not read.
 * `singleLinks`: a file with another name (a hard link) is refused, for a folder applied on its own
 * (a sandboxed run could write the same file under a name it may write).
 */
export async function folderFiles(folder: string, options: { singleLinks?: boolean } = {}): Promise<ConfigFile[]> {
  const files: ConfigFile[] = [];
  const read = async (file: string): Promise<string> => {
    // One handle for the check and the read: the file cannot be swapped in between, nor be a symlink.
    const handle = await fs.open(file, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW);
    try {
      const stat = await handle.stat();
      if (options.singleLinks && stat.nlink > 1) {
        throw new Error(`${file} has ${stat.nlink} names (hard links): a file of the configuration folder must have only its own, or whoever may write the other could rewrite the configuration. Copy it instead.`);
      }
      return await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  };
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > 8) return;
    const entries = await fs.readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full, depth + 1);
      else if (entry.isFile() && configFileExtensions.includes(path.extname(entry.name).toLowerCase())) files.push({ path: full, text: await read(full) });
    }
  };
  await walk(folder, 0);
  return files;
}

/** What the folder holds, in one string: each file's path, size and time, and git's HEAD. */
async function fingerprint(folder: string): Promise<string> {
  const parts: string[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > 8) return;
    for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full, depth + 1);
      else if (configFileExtensions.includes(path.extname(entry.name).toLowerCase())) {
        const stat = await fs.stat(full).catch(() => undefined);
        if (stat) parts.push(`${full}\t${stat.size}\t${stat.mtimeMs}`);
      }
    }
  };
  await walk(folder, 0);
  parts.sort();
  parts.push(await headOf(folder));
  return parts.join('\n');
}

/** git's HEAD as its files say (no git process each look): the branch named and the commit it points to. */
async function headOf(folder: string): Promise<string> {
  const read = (file: string) => fs.readFile(file, 'utf8').then((text) => text.trim(), () => '');
  const head = await read(path.join(folder, '.git', 'HEAD'));
  const branch = /^ref: (refs\/\S+)$/.exec(head)?.[1];
  return `HEAD\t${head}\t${branch ? await read(path.join(folder, '.git', branch)) : ''}`;
}

const exists = (file: string) => fs.access(file).then(() => true, () => false);

/** The checkout's commit, or null when the folder is not one (or git is not installed). */
export function commitOf(folder: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('git', ['-C', folder, 'rev-parse', 'HEAD'], { timeout: 5000 }, (error, stdout) => resolve(error ? null : stdout.trim() || null));
  });
}

export interface FolderWatch {
  stop(): void;
  /** Looks now, whatever it last saw: applied if it can be. */
  applyNow(): Promise<void>;
}

/** Calls `apply` with the folder's files each time they have changed and settled. */
export function watchFolder(folder: string, apply: (files: ConfigFile[]) => Promise<void>, onUnreadable: (message: string) => void): FolderWatch {
  let stopped = false;
  let applied: string | undefined;
  let lastSeen: string | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let busy: Promise<void> = Promise.resolve();

  const look = async (force: boolean): Promise<void> => {
    let now: string;
    try {
      now = await fingerprint(folder);
    } catch (error) {
      const message = `The folder ${folder} cannot be read: ${(error as Error).message}`;
      if (applied !== message) onUnreadable(message);
      applied = message;
      return;
    }
    const settled = force || now === lastSeen;
    lastSeen = now;
    if (!settled || (now === applied && !force)) return;
    if (await exists(path.join(folder, '.git', 'index.lock'))) return; // git is still writing
    applied = now;
    let files: ConfigFile[];
    try {
      files = await folderFiles(folder, { singleLinks: true });
    } catch (error) {
      onUnreadable(`The folder was not applied: ${(error as Error).message}`);
      return;
    }
    await apply(files);
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      busy = look(false).catch(() => undefined).finally(schedule);
    }, lookEveryMs);
    timer.unref?.();
  };
  schedule();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
    applyNow: async () => {
      await busy;
      await look(true);
    },
  };
}

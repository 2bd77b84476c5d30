// What the watch source knows of a folder on disk: its path as the user wrote it and as Node opens
// it, which files count (the glob; hidden ones only when the glob names them), a walk of its tree
// that never follows a symbolic link, the errors said in the product's words, and a queue that lets
// one full walk run at a time in the whole process (a hundred folders of 10,000 files each must not
// all be statted at once).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import picomatch from 'picomatch';

/** A file as the cursor holds it: `<size>:<mtimeMs>`. */
export const fileValue = (stats: fs.Stats): string => `${stats.size}:${stats.mtimeMs}`;

export function parseValue(value: string): { size: number; mtimeMs: number } {
  const colon = value.indexOf(':');
  return { size: Number(value.slice(0, colon)), mtimeMs: Number(value.slice(colon + 1)) };
}

/** The folder the user named, as an absolute path: `~/Invoices` is under the home folder. */
export function expandFolder(folder: string): string {
  if (folder === '~' || folder.startsWith('~/')) return path.join(os.homedir(), folder.slice(1));
  if (!path.isAbsolute(folder)) throw new Error(`${folder} is not a folder path: give an absolute path, or one starting with ~/`);
  return path.resolve(folder);
}

/** A file-system error about `shown` (the folder as the user wrote it, or a file in it) in words. */
export function folderProblem(shown: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT') return new Error(`${shown} does not exist`);
  if (code === 'EACCES' || code === 'EPERM') return new Error(`cannot read ${shown}: permission denied`);
  if (code === 'ENOTDIR') return new Error(`${shown} is not a folder`);
  if (code === 'ENOSPC') return new Error(`cannot watch ${shown}: the system's limit of watched folders is reached (raise fs.inotify.max_user_watches)`);
  if (code === 'EMFILE' || code === 'ENFILE') return new Error(`cannot watch ${shown}: too many open files`);
  return new Error(`cannot read ${shown}: ${error instanceof Error ? error.message : String(error)}`);
}

/** The folder's own stats; throws the folder's problem in words. The folder itself may be a link the user chose. */
export function folderStats(root: string, shown: string): fs.Stats {
  try {
    const stats = fs.statSync(root);
    if (!stats.isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
    fs.accessSync(root, fs.constants.R_OK | fs.constants.X_OK);
    return stats;
  } catch (error) {
    throw folderProblem(shown, error);
  }
}

export interface Selection {
  /** Whether a file (path relative to the folder, `/`-separated) counts. */
  matches(relativePath: string): boolean;
  /** Whether a subfolder is walked and watched: hidden ones (.git) only when the glob names a hidden path. */
  descends(relativePath: string): boolean;
}

export function selection(glob: string): Selection {
  const matcher = picomatch(glob, { dot: false });
  const hiddenNamed = /(^|\/)\./.test(glob);
  return {
    matches: (relativePath) => matcher(relativePath),
    descends: (relativePath) => hiddenNamed || !path.basename(relativePath).startsWith('.'),
  };
}

export const joinRelative = (folder: string, name: string): string => (folder === '' ? name : `${folder}/${name}`);

export interface WalkHandlers extends Selection {
  signal: AbortSignal;
  /** Called for each folder (the root is '') before it is read, so that a watcher set there misses nothing. */
  onFolder?(relativePath: string): void;
  onFile(relativePath: string, stats: fs.Stats): void;
  /** A subfolder that cannot be read (the root's problem is thrown instead). */
  onUnreadable?(relativePath: string, error: unknown): void;
}

const entriesPerSlice = 256;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Every matching file under `root`, with its stats. Symbolic links are neither followed nor
 * counted: a link may lead out of the folder or round in a loop. Synchronous calls in slices of
 * 256 entries, the event loop served between them: a third of the CPU of the promise calls.
 */
export async function walkFolder(root: string, handlers: WalkHandlers): Promise<void> {
  const folders = [''];
  let sinceTurn = 0;
  while (folders.length > 0) {
    const folder = folders.pop()!;
    handlers.onFolder?.(folder);
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(folder === '' ? root : path.join(root, folder), { withFileTypes: true });
    } catch (error) {
      if (folder === '') throw error;
      handlers.onUnreadable?.(folder, error);
      continue;
    }
    for (const entry of entries) {
      const relativePath = joinRelative(folder, entry.name);
      if (entry.isDirectory()) {
        if (handlers.descends(relativePath)) folders.push(relativePath);
      } else if (entry.isFile() && handlers.matches(relativePath)) {
        const stats = fs.lstatSync(path.join(root, relativePath), { throwIfNoEntry: false });
        if (stats?.isFile()) handlers.onFile(relativePath, stats);
      }
      if (++sinceTurn >= entriesPerSlice) {
        sinceTurn = 0;
        await nextTurn();
        if (handlers.signal.aborted) return;
      }
    }
  }
}

let walks: Promise<unknown> = Promise.resolve();

/** Runs `walk` after every full walk queued before it: one at a time in the process. */
export function oneWalkAtATime<T>(walk: () => Promise<T>): Promise<T> {
  const mine = walks.then(walk, walk);
  walks = mine.catch(() => undefined);
  return mine;
}

/** The files every running watch source knows, by source: what paces the full walks. */
const knownFiles = new Map<object, number>();

export const countFiles = (source: object, files: number): void => void knownFiles.set(source, files);
export const forgetFiles = (source: object): void => void knownFiles.delete(source);

/** Files statted per second by the periodic full walks, all sources together, on average. */
export const fullWalkFilesPerSecond = 500;

/** How long between a source's walks of its whole folder: every file in the process once per (files / 500) s, at most every `livenessMs`. */
export function fullWalkEveryMs(livenessMs: number): number {
  let total = 0;
  for (const files of knownFiles.values()) total += files;
  return Math.max(livenessMs, (total / fullWalkFilesPerSecond) * 1000);
}

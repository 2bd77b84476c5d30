// The folder's watchers: one fs.watch (inotify) per folder of the tree, not per file, and not
// Node's recursive mode, which on Linux in Node 20 sets a watch on every file and stats them all.
// A watcher only says "look here": the source confirms each path by stat. Each folder's
// modification time is kept to find, cheaply, a folder whose entries changed unseen (the kernel
// drops events silently when its queue overflows, and Node does not say so).
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../logger';
import { folderProblem } from './watch-walk';

/** The most folders one source watches: a larger tree is refused rather than eating the system's watches. */
export const maxFolders = 10_000;

interface Watched {
  watcher: fs.FSWatcher;
  mtimeMs: number;
}

export interface FolderTree {
  /** Watches a folder (relative path, '' for the root); false when it is gone or unreadable. Throws when the limits are reached. */
  add(relativePath: string): boolean;
  has(relativePath: string): boolean;
  /** Stops watching a folder and every folder under it. */
  remove(relativePath: string): void;
  /** The watched folders whose modification time moved since last asked (a gone one counts). */
  moved(): string[];
  readonly size: number;
  close(): void;
}

export function folderTree(root: string, shown: string, logger: Logger, handlers: { noticed(relativePath: string, name: string | null): void; failed(error: Error): void }): FolderTree {
  const watched = new Map<string, Watched>();
  const absolute = (relativePath: string) => (relativePath === '' ? root : path.join(root, relativePath));
  const unreadable = new Set<string>();

  const tree: FolderTree = {
    add(relativePath) {
      if (watched.has(relativePath)) return true;
      if (watched.size >= maxFolders) throw new Error(`${shown} holds more than ${maxFolders} folders: watch a smaller folder`);
      const stats = fs.lstatSync(absolute(relativePath), { throwIfNoEntry: false });
      if (!stats?.isDirectory()) return false;
      let watcher: fs.FSWatcher;
      try {
        watcher = fs.watch(absolute(relativePath), { persistent: false }, (_type, name) => handlers.noticed(relativePath, name));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (relativePath === '' || code === 'ENOSPC' || code === 'EMFILE' || code === 'ENFILE') throw folderProblem(relativePath === '' ? shown : `${shown}/${relativePath}`, error);
        if (code !== 'ENOENT' && !unreadable.has(relativePath)) {
          unreadable.add(relativePath);
          logger.warn({ folder: relativePath, err: (error as Error).message }, 'watch: a subfolder cannot be watched; it is left out');
        }
        return false;
      }
      watcher.on('error', (error) => {
        // A folder removed meanwhile is the source's to notice; any other error restarts the source.
        if (fs.existsSync(absolute(relativePath))) handlers.failed(folderProblem(relativePath === '' ? shown : `${shown}/${relativePath}`, error));
      });
      watched.set(relativePath, { watcher, mtimeMs: stats.mtimeMs });
      return true;
    },
    has: (relativePath) => watched.has(relativePath),
    remove(relativePath) {
      const prefix = `${relativePath}/`;
      for (const [folder, entry] of watched) {
        if (folder === relativePath || folder.startsWith(prefix)) {
          entry.watcher.close();
          watched.delete(folder);
        }
      }
    },
    moved() {
      const found: string[] = [];
      for (const [folder, entry] of watched) {
        const stats = fs.lstatSync(absolute(folder), { throwIfNoEntry: false });
        if (stats?.isDirectory() && stats.mtimeMs === entry.mtimeMs) continue;
        if (stats) entry.mtimeMs = stats.mtimeMs;
        found.push(folder);
      }
      return found;
    },
    get size() {
      return watched.size;
    },
    close() {
      for (const entry of watched.values()) entry.watcher.close();
      watched.clear();
    },
  };
  return tree;
}

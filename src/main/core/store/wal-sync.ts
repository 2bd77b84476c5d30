// Group fsync of the write-ahead log, off the event loop. A group commit (commit-batcher.ts) commits
// with synchronous=NORMAL, which writes its pages to the WAL without waiting for the disk, and tells
// its callers only once a fdatasync of the WAL that began after that commit has finished. Every frame
// of the commit is then on disk, so an answered write survives a power cut as it would under FULL,
// but the event loop keeps serving requests during the ~1 ms the disk takes, and one sync covers
// every commit made while the one before it ran.
import fs from 'node:fs';
import path from 'node:path';

export function createWalSync(databaseFile: string) {
  const walFile = `${databaseFile}-wal`;
  let fd: number | undefined;
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;

  function open(): number {
    if (fd !== undefined) return fd;
    // The WAL exists from the first commit on and lives as long as this connection: SQLite deletes
    // it only when the last connection closes. Opened for writing, though nothing is written through
    // it: Windows flushes only a handle that may write.
    fd = fs.openSync(walFile, 'r+');
    // Its name is made durable once, with its folder's (Windows has no folder to sync: NTFS journals it).
    if (process.platform !== 'win32') {
      const dir = fs.openSync(path.dirname(walFile), 'r');
      try {
        fs.fsyncSync(dir);
      } finally {
        fs.closeSync(dir);
      }
    }
    return fd;
  }

  function syncNow(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      fs.fdatasync(open(), (error) => (error ? reject(error) : resolve()));
    }).finally(() => {
      running = undefined;
    });
  }

  function sync(): Promise<void> {
    if (running === undefined) return (running = syncNow());
    // The sync under way may have begun before the caller's commit: wait for the next, shared by
    // everyone who asks meanwhile.
    next ??= running
      .catch(() => undefined)
      .then(() => {
        next = undefined;
        return sync();
      });
    return next;
  }

  return {
    /** Resolves once everything written to the WAL before the call is on disk. */
    sync,
    /** After the database closed: nothing is synced after this. */
    close(): void {
      if (fd !== undefined) fs.closeSync(fd);
      fd = undefined;
    },
  };
}

export type WalSync = ReturnType<typeof createWalSync>;

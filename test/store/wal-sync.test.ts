// The WAL is synced off the event loop, and one sync serves everyone who asked while the one before
// it ran: a sync asked for during another begins only after it, so it covers the asker's commit.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Store } from '../../src/main/core/store';
import { tempStore } from '../support/core';

let temp: ReturnType<typeof tempStore>;
let store: Store;
beforeEach(() => {
  temp = tempStore();
  store = temp.store;
});
afterEach(() => {
  vi.restoreAllMocks();
  temp.remove();
});

describe('WAL sync', () => {
  it('syncs the WAL file, once for every caller that asked while a sync ran', async () => {
    store.transactionUnsynced(() => store.db.prepare("INSERT INTO settings (key, value) VALUES ('a', '1')").run());
    const started: { fd: number; done: () => void }[] = [];
    const real = fs.fdatasync;
    vi.spyOn(fs, 'fdatasync').mockImplementation(((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
      started.push({ fd, done: () => real(fd, callback) });
    }));
    const first = store.synced();
    const second = store.synced();
    const third = store.synced();
    expect(started).toHaveLength(1);
    expect(fs.readlinkSync(`/proc/self/fd/${started[0].fd}`)).toBe(`${path.join(temp.dir, 'steward.db')}-wal`);
    started[0].done();
    await first;
    await vi.waitFor(() => expect(started).toHaveLength(2)); // the second and third share the next sync
    started[1].done();
    await Promise.all([second, third]);
    expect(started).toHaveLength(2);
  });

  it('commits a group without waiting for the disk, and every other transaction with it', () => {
    store.transactionUnsynced(() => {
      expect(store.db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL: the commit does not fsync
      store.db.prepare("INSERT INTO settings (key, value) VALUES ('a', '1')").run();
    });
    expect(store.db.pragma('synchronous', { simple: true })).toBe(2); // FULL again for every other write
    expect(() => store.transaction(() => store.transactionUnsynced(() => undefined))).toThrow(/cannot be nested/);
  });
});

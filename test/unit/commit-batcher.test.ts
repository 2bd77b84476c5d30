// Group commit: concurrent writes share a transaction, as many as fit its budget; a refusal or a
// failure stays with its caller; a producer waiting for room goes on once batches made some.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCommitBatcher, queueBound } from '../../src/main/core/services/commit-batcher';
import type { Store } from '../../src/main/core/store';
import { AppError } from '../../src/shared/errors';
import { tempStore } from '../support/core';

let temp: ReturnType<typeof tempStore>;
let store: Store;
beforeEach(() => {
  temp = tempStore();
  store = temp.store;
});
afterEach(() => temp.remove());

const put = (key: string) => () => store.db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run(key, '1').changes;
const keys = () => store.db.prepare<[], { key: string }>('SELECT key FROM settings ORDER BY key').all().map((row) => row.key);

describe('commit batcher', () => {
  it('commits writes made in the same tick in one transaction', async () => {
    const batcher = createCommitBatcher(store);
    const transactions = vi.spyOn(store, 'transaction');
    const writes = Array.from({ length: 20 }, (_, i) => batcher.write(put(`k${String(i).padStart(2, '0')}`)));
    expect(keys()).toEqual([]); // nothing is written before the batch runs
    await Promise.all(writes);
    expect(keys()).toHaveLength(20);
    expect(transactions).toHaveBeenCalledTimes(1);
  });

  it('rejects a refused write alone and commits the rest', async () => {
    const batcher = createCommitBatcher(store);
    const results = await Promise.allSettled([
      batcher.write(put('a')),
      batcher.write(() => {
        throw new AppError('not_found', 'no such thing');
      }),
      batcher.write(put('b')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(keys()).toEqual(['a', 'b']);
  });

  it('retries the others alone when one write fails unexpectedly, leaving none of the failed one', async () => {
    const batcher = createCommitBatcher(store);
    const results = await Promise.allSettled([
      batcher.write(put('a')),
      batcher.write(() => {
        put('half')();
        put('a')(); // a duplicate key: the write fails after it wrote something
      }),
      batcher.write(put('b')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(keys()).toEqual(['a', 'b']);
  });

  it('tells no caller a write is done before the WAL is synced; a refusal is told at once', async () => {
    const batcher = createCommitBatcher(store);
    let release!: () => void;
    const synced = vi.spyOn(store, 'synced').mockReturnValue(new Promise<void>((resolve) => (release = resolve)));
    const settled: string[] = [];
    const a = batcher.write(put('a')).then(() => settled.push('a'));
    const refused = batcher
      .write(() => {
        throw new AppError('not_found', 'no such thing');
      })
      .catch(() => settled.push('refused'));
    await new Promise((resolve) => setImmediate(resolve));
    await refused;
    expect(keys()).toEqual(['a']); // committed…
    expect(settled).toEqual(['refused']); // …but not yet said to be done
    expect(synced).toHaveBeenCalledTimes(1);
    release();
    await a;
    expect(settled).toEqual(['refused', 'a']);
  });

  it('fails every write of a batch whose WAL could not be synced', async () => {
    const batcher = createCommitBatcher(store);
    vi.spyOn(store, 'synced').mockRejectedValue(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    const results = await Promise.allSettled([batcher.write(put('a')), batcher.write(put('b'))]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });

  it('takes no more writes into a transaction once its budget is spent (always one), and keeps the order', async () => {
    const batcher = createCommitBatcher(store, { budgetMs: 1 });
    const transactions = vi.spyOn(store, 'transaction');
    const slow = (key: string) => () => {
      const until = performance.now() + 3;
      while (performance.now() < until); // a write that costs 3 ms
      return put(key)();
    };
    await Promise.all(['a', 'b', 'c', 'd'].map((key) => batcher.write(slow(key))));
    expect(keys()).toEqual(['a', 'b', 'c', 'd']);
    expect(transactions).toHaveBeenCalledTimes(4); // each write alone is past 1 ms: the next waits for the next turn
  });

  it('is full at its bound; room comes once batches brought it down', async () => {
    const batcher = createCommitBatcher(store);
    const writes = Array.from({ length: queueBound }, (_, i) => batcher.write(put(`k${i}`)));
    expect(batcher.full()).toBe(true);
    expect(batcher.queued()).toEqual({ now: queueBound, most: queueBound });
    let roomed = false;
    const room = batcher.room().then(() => (roomed = true));
    expect(roomed).toBe(false);
    await room;
    expect(batcher.full()).toBe(false);
    expect(batcher.queued().now).toBeLessThanOrEqual(queueBound / 2);
    await Promise.all(writes);
    expect(batcher.queued()).toEqual({ now: 0, most: queueBound });
    await batcher.room(); // at once when there is room
  });
});

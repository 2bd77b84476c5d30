// Group commit: writes that arrive in the same turn of the event loop share one transaction, so
// one commit makes many triggers durable at once. The commit does not hold the event loop while the
// disk syncs: its callers hear of it once the WAL is synced (store.synced, wal-sync.ts). At most maxBatch writes go in one transaction; the
// rest wait for the next turn, so that an agent printing thousands of lines at once does not hold
// the event loop (and every other request) for the whole burst.
//
// Contract for `work`: it throws an AppError only before it writes anything (validate first, write
// last). Such a refusal rejects its own caller and the batch goes on. Any other error rolls the
// whole batch back, and each write is then retried in a transaction of its own, so one bad write
// never takes its neighbours down with it.
import { AppError } from '../../../shared/errors';
import type { Store } from '../store';

interface Pending {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

const maxBatch = 100;

export function createCommitBatcher(store: Store) {
  let pending: Pending[] = [];
  let scheduled = false;

  function together(batch: Pending[]): Outcome[] {
    return store.transactionUnsynced(() =>
      batch.map((item): Outcome => {
        try {
          return { ok: true, value: item.work() };
        } catch (error) {
          if (error instanceof AppError) return { ok: false, error };
          throw error;
        }
      }),
    );
  }

  function alone(batch: Pending[]): Outcome[] {
    return batch.map((item): Outcome => {
      try {
        return { ok: true, value: store.transactionUnsynced(item.work) };
      } catch (error) {
        return { ok: false, error };
      }
    });
  }

  function flush(): void {
    const batch = pending.length > maxBatch ? pending.splice(0, maxBatch) : pending;
    if (batch === pending) pending = [];
    if (pending.length > 0) setImmediate(flush);
    else scheduled = false;
    let outcomes: Outcome[];
    try {
      outcomes = together(batch);
    } catch {
      outcomes = alone(batch);
    }
    // A refusal wrote nothing and is told at once; nobody hears that a write is done before it is on disk.
    const written: [Pending, unknown][] = [];
    batch.forEach((item, index) => {
      const outcome = outcomes[index];
      if (outcome.ok) written.push([item, outcome.value]);
      else item.reject(outcome.error);
    });
    if (written.length === 0) return;
    store.synced().then(
      () => written.forEach(([item, value]) => item.resolve(value)),
      (error: unknown) => written.forEach(([item]) => item.reject(error)),
    );
  }

  return {
    /** Runs `work` inside the next group transaction; resolves once that transaction committed. */
    write<T>(work: () => T): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        pending.push({ work, resolve: resolve as (value: unknown) => void, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
  };
}

export type CommitBatcher = ReturnType<typeof createCommitBatcher>;

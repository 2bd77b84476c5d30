// Group commit: writes that arrive in the same turn of the event loop share one transaction, so
// one fsync makes many triggers durable. Each write runs in its own savepoint: one failing write
// rolls back alone and rejects only its own caller.
import type { Store } from '../store';

interface Pending {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export function createCommitBatcher(store: Store) {
  let pending: Pending[] = [];
  let scheduled = false;

  function flush(): void {
    scheduled = false;
    const batch = pending;
    pending = [];
    let outcomes: Outcome[];
    try {
      outcomes = store.transaction(() =>
        batch.map((item): Outcome => {
          try {
            return { ok: true, value: store.transaction(item.work) };
          } catch (error) {
            return { ok: false, error };
          }
        }),
      );
    } catch (error) {
      // The commit itself failed (disk full, I/O error): nothing of the batch was stored.
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.error);
    });
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

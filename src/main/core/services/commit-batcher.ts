// Group commit: writes that arrive in the same turn of the event loop share one transaction, so
// one commit makes many triggers durable at once. At most maxBatch writes, or as many as run in
// the budget given, go in one transaction; the rest wait for the next turn, so that an agent printing
// thousands of lines at once does not hold the event loop (and every other request) for the burst.
// The commit does not hold the event loop while the disk syncs either: its callers hear of it once
// the WAL is synced (store.synced, wal-sync.ts).
// A producer that can wait (an agent's output, read from a pipe) stops while the queue is full and
// goes on once there is room again: the agent then blocks on its pipe, and the queue stays bounded.
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
/** Writes queued from which the queue is full; a producer waiting for room goes on once batches brought it down to half. */
export const queueBound = 2 * maxBatch;

/**
 * `budgetMs`: a transaction takes no more writes once its writes took this long, so that, with the
 * commit's fsync after it, a turn stays short for the requests waiting behind it whatever a write
 * costs on a busy machine (the runner's: GET /api/health under chatty runs, bench/health-under-output.ts).
 */
export function createCommitBatcher(store: Store, { budgetMs = Infinity }: { budgetMs?: number } = {}) {
  const pending: Pending[] = [];
  let scheduled = false;
  let mostQueued = 0;
  let waitingForRoom: Array<() => void> = [];

  /** Runs the first queued writes in one transaction, as many as fit in a batch; their outcomes, or how many it tried when it rolled back. */
  function together(): Outcome[] | { failedAfter: number } {
    const outcomes: Outcome[] = [];
    const started = performance.now();
    try {
      store.transactionUnsynced(() => {
        for (const item of pending) {
          if (outcomes.length === maxBatch || (outcomes.length > 0 && performance.now() - started >= budgetMs)) break;
          try {
            outcomes.push({ ok: true, value: item.work() });
          } catch (error) {
            if (!(error instanceof AppError)) throw error;
            outcomes.push({ ok: false, error });
          }
        }
      });
      return outcomes;
    } catch {
      return { failedAfter: outcomes.length + 1 };
    }
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
    const tried = together();
    const batch = pending.splice(0, Array.isArray(tried) ? tried.length : tried.failedAfter);
    const outcomes = Array.isArray(tried) ? tried : alone(batch);
    if (pending.length > 0) setImmediate(flush);
    else scheduled = false;
    // A refusal wrote nothing and is told at once; nobody hears that a write is done before it is on disk.
    const written: [Pending, unknown][] = [];
    batch.forEach((item, index) => {
      const outcome = outcomes[index];
      if (outcome.ok) written.push([item, outcome.value]);
      else item.reject(outcome.error);
    });
    if (written.length > 0) {
      store.synced().then(
        () => written.forEach(([item, value]) => item.resolve(value)),
        (error: unknown) => written.forEach(([item]) => item.reject(error)),
      );
    }
    if (pending.length <= queueBound / 2 && waitingForRoom.length > 0) {
      const waiting = waitingForRoom;
      waitingForRoom = [];
      for (const go of waiting) go();
    }
  }

  return {
    /** Runs `work` inside the next group transaction; resolves once that transaction committed and its WAL is synced. */
    write<T>(work: () => T): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        pending.push({ work, resolve: resolve as (value: unknown) => void, reject });
        mostQueued = Math.max(mostQueued, pending.length);
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },

    /** The queue is full: a producer that can wait should, until `room()`. */
    full: (): boolean => pending.length >= queueBound,

    /** Resolves once the queue has room again (at once when it has). */
    room(): Promise<void> {
      if (pending.length < queueBound) return Promise.resolve();
      return new Promise((resolve) => waitingForRoom.push(resolve));
    },

    /** Writes waiting for their transaction now, and the most that ever waited at once. */
    queued: (): { now: number; most: number } => ({ now: pending.length, most: mostQueued }),
  };
}

export type CommitBatcher = ReturnType<typeof createCommitBatcher>;

// Work that must wait until a transaction commits: telling listeners about rows they could
// otherwise see and then lose to a rollback. Outside a transaction it runs at once.
import type Database from 'better-sqlite3';
import type { RunStatus } from '../../../shared/contract';

export type StoreChange =
  | { type: 'activity'; line: StoredActivityLine }
  /** `status`: the run moved into it (created in it, claimed, waiting, ended); absent for other changes. */
  | { type: 'run'; runId: string; status?: RunStatus }
  | { type: 'instance'; instanceId: string }
  | { type: 'changed'; resource: 'automation' | 'webhook' | 'approval'; id: string }
  /** A delivery was written: `id` is its webhook's. */
  | { type: 'changed'; resource: 'delivery'; id: string };

export interface StoredActivityLine {
  seq: number;
  instanceId: string;
  line: number;
  runId: string | null;
  kind: string;
  label: string;
  displayText: string;
  raw: string;
  timestamp: string;
}

export function createCommitHooks(db: Database.Database) {
  const listeners = new Set<(change: StoreChange) => void>();
  let waiting: StoreChange[] = [];
  let work: (() => void)[] = [];

  function emit(change: StoreChange): void {
    for (const listener of listeners) {
      try {
        listener(change);
      } catch {
        // a listener's failure is its own; the write has happened
      }
    }
  }

  return {
    /** Whether anyone listens: writers skip building changes nobody reads. */
    get wanted(): boolean {
      return listeners.size > 0;
    },
    /** Announces `change` once the current transaction commits. */
    announce(change: StoreChange): void {
      if (db.inTransaction) waiting.push(change);
      else emit(change);
    },
    /**
     * Runs `effect` once the current transaction commits, or at once outside one; a rollback drops
     * it. For what lives outside the database (timers, caches, probes, files), so that a change
     * rolled back (a configuration's dry run, a failed apply) leaves no trace there.
     */
    afterCommit(effect: () => void): void {
      if (db.inTransaction) work.push(effect);
      else effect();
    },
    committed(): void {
      const changes = waiting;
      const effects = work;
      waiting = [];
      work = [];
      for (const change of changes) emit(change);
      // Each effect runs, whatever another's failure; the first failure is the caller's.
      let failure: { error: unknown } | undefined;
      for (const effect of effects) {
        try {
          effect();
        } catch (error) {
          failure ??= { error };
        }
      }
      if (failure) throw failure.error;
    },
    rolledBack(): void {
      waiting = [];
      work = [];
    },
    subscribe(listener: (change: StoreChange) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type CommitHooks = ReturnType<typeof createCommitHooks>;

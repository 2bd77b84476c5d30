// A full or read-only disk under the data folder is a condition, not an internal error: writes
// answer 503 with Retry-After until one succeeds again, and /api/health reports it. Nothing is
// lost (a failed write changes nothing), and writes resume by themselves when space returns.
import { AppError } from '../../../shared/errors';

export type StorageProblemCode = 'storage_full' | 'storage_read_only';

export interface StorageProblem {
  code: StorageProblemCode;
  message: string;
  since: string;
}

/** Seconds a client should wait before writing again. */
const retryAfterSeconds = 30;

const messages: Record<StorageProblemCode, string> = {
  storage_full: 'The disk holding Steward’s data folder is full: nothing was changed. Free some space; writes resume by themselves.',
  storage_read_only: 'Steward’s data folder is read-only: nothing was changed. Make it writable again; writes resume by themselves.',
};

function problemCodeOf(error: unknown): StorageProblemCode | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') return 'storage_full';
  if (code.startsWith('SQLITE_READONLY') || code === 'EROFS') return 'storage_read_only';
  return undefined;
}

/** The 503 a write that failed on storage answers with; undefined for any other error. */
export function storageErrorOf(error: unknown): AppError | undefined {
  const code = problemCodeOf(error);
  return code && new AppError(code, messages[code], { headers: { 'retry-after': String(retryAfterSeconds) } });
}

/** Tracks whether writes fail on storage; `onChange` hears each change once (not once per failed request). */
export function createStorageCondition(now: () => Date = () => new Date()) {
  let problem: StorageProblem | undefined;
  const listeners = new Set<(problem: StorageProblem | undefined) => void>();
  const set = (next: StorageProblem | undefined) => {
    problem = next;
    for (const listener of listeners) listener(next);
  };
  return {
    current: (): StorageProblem | undefined => problem,
    /** A write failed: a storage problem starts (or goes on); other errors say nothing about storage. */
    failed(error: unknown): void {
      const code = problemCodeOf(error);
      if (code && problem?.code !== code) set({ code, message: messages[code], since: now().toISOString() });
    },
    /** A write committed: storage is fine again. */
    succeeded(): void {
      if (problem) set(undefined);
    },
    onChange(listener: (problem: StorageProblem | undefined) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type StorageCondition = ReturnType<typeof createStorageCondition>;

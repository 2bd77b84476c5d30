// What an event source is to Steward: a long-lived consumer (a folder watcher, an IMAP connection, a
// poller) that finds events after its cursor and hands them over with the cursor's move. The source
// manager (source-manager.ts) runs it, restarts it with backoff when it fails, judges its health
// from the signs of life it gives, and turns its events into fires and runs in one transaction with
// the cursor's move (event-fires.ts), so that nothing runs twice and nothing is missed.
import type { Logger } from '../logger';
import type { CursorChange } from '../store/repositories/source-state';
import type { EventKind } from '../../../shared/contract';

export type { CursorChange };

/** One thing that happened, as a source found it. */
export interface SourceEvent {
  /** Unique within the automation's source: a file's path and mtime, a commit range, a mailbox's UIDVALIDITY:UID, a feed item's id. */
  key: string;
  /** When it happened, ISO (a file's mtime, a push's newest commit, a message's date, an item's published time); the found time when the source cannot tell. */
  at: string;
  /** What happened, in words, one line: "invoice.pdf created in ~/Invoices", "3 commits pushed to main". */
  summary: string;
  /** What {{event}} and {{event.<field>}} read, and filters test: JSON values. */
  fields: Record<string, unknown>;
}

/**
 * Why the source is running now, which decides what its first look's events do:
 * - `first`: it never looked (no cursor): what it finds is the baseline, run for none;
 * - `start`: Steward was off: what it finds is handled by the automation's catch-up policy;
 * - `resume`: automations were paused: what came meanwhile is passed over, as paused cron fires are;
 * - `reconnect`: it failed and was started again: what it finds runs, as if live.
 */
export type SourcePhase = 'first' | 'start' | 'resume' | 'reconnect';

export interface SourceContext<Config> {
  automationId: string;
  config: Config;
  /** Steward's data folder: what a source keeps beyond its cursor goes under sources/ (a git remote's mirror). */
  dataDir: string;
  /** The automation's timezone (for words and times). */
  timezone: string;
  phase: SourcePhase;
  /** Aborted when the source must stop (disabled, changed, deleted, Steward stopping, no sign of life). */
  signal: AbortSignal;
  logger: Logger;
  now(): Date;
  cursor: {
    get(key: string): string | undefined;
    /** Every key and value, or those under `prefix`, in key order. */
    entries(prefix?: string): Map<string, string>;
  };
  /**
   * Hands over events found and moves the cursor, in one transaction with the fires and runs they
   * start. `initial`: these are what the first look after (re)starting found (the phase decides
   * what they do); otherwise they are live and each runs (unless filtered, over budget or its
   * instance is stopped). Returns once committed; throws when the store refuses (nothing moved).
   */
  emit(events: readonly SourceEvent[], change: CursorChange, options?: { initial?: boolean }): void;
  /** A sign of life: connected, a NOOP answered, a fetch or scan done. `how` says how it waits ("IDLE", "polled every 60 s"). */
  alive(how?: string): void;
  /** The value of a stored secret; throws a clear error when there is none of that name. */
  secret(name: string): string;
  /**
   * Checks a host the source is about to reach against the address rules (loopback and private
   * addresses only when the user named them), resolving it once; returns the address to dial.
   * Throws an Error whose message says why not.
   */
  reach(host: string, port: number, named: { host: string; port: number }): Promise<string>;
}

export interface SourceKind<Config> {
  kind: EventKind;
  /**
   * Runs until `ctx.signal` aborts (then resolves) or the source fails (then throws or rejects: the
   * manager records `failing` with the error's message and runs it again after a backoff, in phase
   * `reconnect`). It calls ctx.alive() when it is listening, and again at least every livenessMs.
   */
  run(ctx: SourceContext<Config>): Promise<void>;
  /** How often the running source proves itself alive at least (a NOOP, a poll, a scan); silence for three times this is a failure. */
  livenessMs(config: Config): number;
  /** What would have fired in the last 24 h (the form's preview), newest first, without a cursor; throws a clear error. */
  preview?(config: Config, tools: Pick<SourceContext<Config>, 'secret' | 'reach' | 'now' | 'timezone' | 'signal'>): Promise<SourceEvent[]>;
  /** After the run an event started ended (mail: mark as read or move after success). Failures are logged, not thrown. */
  afterRun?(ctx: Pick<SourceContext<Config>, 'config' | 'secret' | 'reach' | 'logger' | 'signal'>, eventKey: string, status: string): Promise<void>;
}

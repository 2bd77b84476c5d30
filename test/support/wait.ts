// Waiting for something to happen: the one helper tests poll with, instead of a deadline loop or a
// fixed sleep in each file. A test waits for the event it needs (a run's status, a line printed, a
// process gone), so it passes as soon as the event comes on a quiet machine and still passes, later,
// on a busy one; its error says what never came and what was seen last.

export interface WaitOptions<T> {
  /** Named in the error: "the run to succeed", "sleep 46 to start". */
  what: string;
  /** Generous by default: the machine may be busy; a wait that ends early costs nothing. */
  timeoutMs?: number;
  intervalMs?: number;
  /** When given, the value is done once this holds (the value itself may be falsy); otherwise once it is truthy. */
  until?: (value: T) => boolean;
}

export class WaitTimeout extends Error {
  constructor(
    readonly what: string,
    readonly timeoutMs: number,
    readonly last: unknown,
  ) {
    super(`waited ${timeoutMs} ms for ${what}; last saw ${describe(last)}`);
    this.name = 'WaitTimeout';
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 2000 ? `…${value.slice(-2000)}` : value);
  try {
    const text = JSON.stringify(value);
    if (text === undefined) return String(value);
    return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
  } catch {
    return String(value);
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Truthy<T> = Exclude<T, undefined | null | false | 0 | ''>;

/**
 * Calls `check` until its value is truthy (or `until` holds) and returns that value. Throws a
 * WaitTimeout naming `what` and the last value after `timeoutMs`; an error thrown by `check` ends
 * the wait at once (a check that may fail while it waits catches its own error).
 */
export function waitFor<T>(check: () => T | Promise<T>, options: WaitOptions<T> & { until: (value: T) => boolean }): Promise<T>;
export function waitFor<T>(check: () => T | Promise<T>, options: Omit<WaitOptions<T>, 'until'>): Promise<Truthy<T>>;
export async function waitFor<T>(check: () => T | Promise<T>, options: WaitOptions<T>): Promise<T> {
  const { what, timeoutMs = 15_000, intervalMs = 25, until = Boolean } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (until(value)) return value;
    if (Date.now() >= deadline) throw new WaitTimeout(what, timeoutMs, value);
    await pause(intervalMs);
  }
}

/**
 * True if `event` resolves within `ms`. For proving something does NOT happen: no event can be
 * awaited for an absence, so the caller waits a bounded time and says in a comment why that long.
 */
export async function within(event: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([event.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A bounded wait for proving an absence (see `within`); never a stand-in for an event that can be awaited. */
export const quietFor = (ms: number) => pause(ms);

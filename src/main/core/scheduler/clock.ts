// Time for the scheduler: the current instant and one-shot timers. Tests pass a clock they move
// by hand; everything else uses the system's.
export interface Clock {
  now(): Date;
  setTimer(callback: () => void, delayMs: number): unknown;
  clearTimer(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => new Date(),
  // unref: a pending fire alone does not keep the process alive; the HTTP server does that.
  setTimer: (callback, delayMs) => setTimeout(callback, delayMs).unref(),
  clearTimer: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

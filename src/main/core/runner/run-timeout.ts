// A run's timeout: it stands still while the run waits for a person, and once cleared (the run
// ending) nothing arms it again — a late "the person answered" cannot start it ticking.
import type { Clock } from '../scheduler/clock';

export interface RunTimeout {
  /** Ticks, for what is left of it. */
  resume(): void;
  /** Stands still, keeping what is left. */
  pause(): void;
  clear(): void;
}

export function createRunTimeout(clock: Clock, ms: number, onTimeout: () => void): RunTimeout {
  let left = ms;
  let since: number | undefined;
  let timer: unknown;
  let cleared = false;

  function pause(): void {
    if (since === undefined) return;
    clock.clearTimer(timer);
    left = Math.max(left - (clock.now().getTime() - since), 0);
    since = undefined;
  }

  return {
    resume() {
      if (cleared || since !== undefined) return;
      since = clock.now().getTime();
      timer = clock.setTimer(() => {
        cleared = true;
        since = undefined;
        onTimeout();
      }, left);
    },
    pause,
    clear() {
      pause();
      cleared = true;
    },
  };
}

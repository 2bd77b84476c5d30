// At most one call per interval: the first at once, and all that come during the interval folded
// into one at its end, so the last state is always shown. On the core's Clock, so tests move time.
import type { Clock } from '../core/scheduler/clock';

export interface Throttled {
  (): void;
  cancel(): void;
}

export function throttle(fn: () => void, intervalMs: number, clock: Clock): Throttled {
  let last = -Infinity;
  let pending: unknown;
  const run = () => {
    pending = undefined;
    last = clock.now().getTime();
    fn();
  };
  const throttled = () => {
    if (pending !== undefined) return;
    const wait = last + intervalMs - clock.now().getTime();
    if (wait <= 0) run();
    else pending = clock.setTimer(run, wait);
  };
  throttled.cancel = () => {
    if (pending !== undefined) clock.clearTimer(pending);
    pending = undefined;
  };
  return throttled;
}

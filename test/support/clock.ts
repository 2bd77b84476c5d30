// A clock the test moves by hand: timers fire, in order, only when the test advances time.
import type { Clock } from '../../src/main/core/scheduler/clock';

interface Timer {
  id: number;
  at: number;
  callback: () => void;
}

export class ManualClock implements Clock {
  private current: number;
  private timers: Timer[] = [];
  private lastId = 0;

  constructor(start: string | Date) {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  setTimer(callback: () => void, delayMs: number): unknown {
    const timer = { id: ++this.lastId, at: this.current + Math.max(0, delayMs), callback };
    this.timers.push(timer);
    return timer.id;
  }

  clearTimer(handle: unknown): void {
    this.timers = this.timers.filter((timer) => timer.id !== handle);
  }

  /** Moves time forward to `target`, firing every timer that falls due on the way, in order. */
  /** How many timers are armed and not yet rung or cleared. */
  get pendingTimers(): number {
    return this.timers.length;
  }

  advanceTo(target: string | Date): void {
    const end = new Date(target).getTime();
    for (;;) {
      const next = this.timers.filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!next) break;
      this.current = Math.max(this.current, next.at);
      this.clearTimer(next.id);
      next.callback();
    }
    this.current = Math.max(this.current, end);
  }

  advance(ms: number): void {
    this.advanceTo(new Date(this.current + ms));
  }

  /**
   * A suspended machine as Node sees it: the wall clock jumps, but timers count monotonic time,
   * which stood still, so each pending timer is as far away as before.
   */
  sleepThrough(target: string | Date): void {
    const shift = new Date(target).getTime() - this.current;
    this.current += shift;
    for (const timer of this.timers) timer.at += shift;
  }

  /** Jumps without firing anything on the way, as a machine waking from sleep sees it; then fires what is due. */
  jumpTo(target: string | Date): void {
    const end = new Date(target).getTime();
    const due = this.timers.filter((timer) => timer.at <= end);
    this.current = end;
    for (const timer of due.sort((a, b) => a.at - b.at)) {
      this.clearTimer(timer.id);
      timer.callback();
    }
  }

  /** Moves time with no timer running, as for a process that was frozen and has just thawed. */
  moveSilently(target: string | Date): void {
    this.current = new Date(target).getTime();
  }
}

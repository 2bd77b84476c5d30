// A run's timeout stands still while its run waits for a person and ticks on for what is left;
// once cleared (the run ending) a late "resume" arms nothing.
import { describe, expect, it } from 'vitest';
import { createRunTimeout } from '../../src/main/core/runner/run-timeout';
import { ManualClock } from '../support/clock';

describe('a run timeout', () => {
  it('keeps what is left while paused, and fires once it has all run', () => {
    const clock = new ManualClock(new Date('2026-11-27T10:00:00Z'));
    let fired = 0;
    const timeout = createRunTimeout(clock, 60_000, () => fired++);
    timeout.resume();
    clock.advanceTo(new Date('2026-11-27T10:00:40Z'));
    timeout.pause();
    clock.advanceTo(new Date('2026-11-27T10:30:00Z'));
    expect(fired).toBe(0);
    timeout.resume();
    clock.advanceTo(new Date('2026-11-27T10:30:19Z'));
    expect(fired).toBe(0);
    clock.advanceTo(new Date('2026-11-27T10:30:20Z'));
    expect(fired).toBe(1);
  });

  it('arms nothing once cleared', () => {
    const clock = new ManualClock(new Date('2026-11-27T10:00:00Z'));
    let fired = 0;
    const timeout = createRunTimeout(clock, 1_000, () => fired++);
    timeout.resume();
    timeout.pause();
    timeout.clear();
    timeout.resume();
    clock.advanceTo(new Date('2026-11-27T11:00:00Z'));
    expect(fired).toBe(0);
    expect(clock.pendingTimers).toBe(0);
  });
});

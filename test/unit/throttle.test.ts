// The tray's throttle on a hand-moved clock: the first call at once, a burst folded into one call
// at the end of the second, nothing after cancel.
import { describe, expect, it } from 'vitest';
import { throttle } from '../../src/main/shell/throttle';
import { ManualClock } from '../support/clock';

describe('throttle', () => {
  it('runs at most once a second, and always runs the last call of a burst', () => {
    const clock = new ManualClock('2026-11-21T10:00:00.000Z');
    const times: string[] = [];
    const refresh = throttle(() => times.push(clock.now().toISOString().slice(17, 23)), 1_000, clock);
    refresh();
    expect(times).toEqual(['00.000']);
    for (let ms = 100; ms <= 900; ms += 100) {
      clock.advanceTo(new Date(Date.parse('2026-11-21T10:00:00.000Z') + ms));
      refresh();
    }
    expect(times).toEqual(['00.000']);
    clock.advanceTo('2026-11-21T10:00:01.000Z');
    expect(times).toEqual(['00.000', '01.000']);
    // Quiet for longer than the interval: the next call runs at once again.
    clock.advanceTo('2026-11-21T10:00:05.500Z');
    refresh();
    refresh();
    expect(times).toEqual(['00.000', '01.000', '05.500']);
    clock.advanceTo('2026-11-21T10:00:10.000Z');
    expect(times).toEqual(['00.000', '01.000', '05.500', '06.500']);
  });

  it('runs nothing pending after cancel', () => {
    const clock = new ManualClock('2026-11-21T10:00:00.000Z');
    let runs = 0;
    const refresh = throttle(() => runs++, 1_000, clock);
    refresh();
    refresh();
    refresh.cancel();
    clock.advanceTo('2026-11-21T10:01:00.000Z');
    expect(runs).toBe(1);
  });
});

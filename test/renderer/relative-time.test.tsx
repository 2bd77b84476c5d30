// Times in words relative to now: the minutes count within a few hours ("in 1 h 33 min", not
// "in 2 hours"); further off, one unit.
import { describe, expect, it } from 'vitest';
import { relativeTime } from '../../src/renderer/src/ui/widgets';

const now = Date.parse('2026-11-25T10:00:00.000Z');
const at = (minutes: number) => new Date(now + minutes * 60_000).toISOString();

describe('relativeTime', () => {
  it('says hours and minutes within ten hours, either way', () => {
    expect(relativeTime(at(93), now)).toBe('in 1 h 33 min');
    expect(relativeTime(at(-120), now)).toBe('2 h ago');
    expect(relativeTime(at(-61), now)).toBe('1 h 1 min ago');
  });

  it('says one unit nearer and further', () => {
    expect(relativeTime(new Date(now + 5_000).toISOString(), now)).toBe('just now');
    expect(relativeTime(at(5), now)).toMatch(/5 minutes/);
    expect(relativeTime(at(60 * 30), now)).toMatch(/in 1 day|in 30 hours/);
  });
});

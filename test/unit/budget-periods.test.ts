// A budget's day and month in a timezone: their bounds as instants (a day of 23 or 25 hours where
// the clocks change), their keys, and when they end written in the zone's own offset.
import { describe, expect, it } from 'vitest';
import { dayOf, monthOf, zonedTime } from '../../src/main/core/services/budget-periods';

describe('budget periods', () => {
  it("takes the day of the zone's wall clock, not UTC's", () => {
    // 23:30 UTC on the 25th is already the 26th in Berlin.
    expect(dayOf(new Date('2026-11-25T23:30:00Z'), 'Europe/Berlin')).toEqual({ key: '2026-11-26', start: new Date('2026-11-25T23:00:00Z'), end: new Date('2026-11-26T23:00:00Z') });
    expect(dayOf(new Date('2026-11-25T23:30:00Z'), 'UTC').key).toBe('2026-11-25');
  });

  it('has a 23-hour day where the clocks go forward, and a month that starts and ends in local midnight', () => {
    const day = dayOf(new Date('2027-03-28T12:00:00Z'), 'Europe/Berlin');
    expect(day.end.getTime() - day.start.getTime()).toBe(23 * 60 * 60 * 1000);
    expect(monthOf(new Date('2026-11-30T23:30:00Z'), 'Europe/Berlin')).toEqual({ key: '2026-12', start: new Date('2026-11-30T23:00:00Z'), end: new Date('2026-12-31T23:00:00Z') });
    expect(monthOf(new Date('2026-12-31T23:59:59Z'), 'UTC')).toMatchObject({ key: '2026-12', end: new Date('2027-01-01T00:00:00Z') });
  });

  it("writes a reset time in the zone's offset", () => {
    expect(zonedTime(new Date('2026-11-25T23:00:00Z'), 'Europe/Berlin')).toBe('2026-11-26T00:00:00+01:00');
    expect(zonedTime(new Date('2026-11-25T05:00:00Z'), 'America/New_York')).toBe('2026-11-25T00:00:00-05:00');
    expect(zonedTime(new Date('2026-11-25T18:30:00Z'), 'Asia/Kolkata')).toBe('2026-11-26T00:00:00+05:30');
    expect(zonedTime(new Date('2026-11-26T00:00:00Z'), 'UTC')).toBe('2026-11-26T00:00:00+00:00');
  });
});

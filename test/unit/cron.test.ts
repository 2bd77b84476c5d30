// Cron expressions and timezones as DESIGN §4 defines them.
import { describe, expect, it } from 'vitest';
import { cronProblem, isValidTimezone, nextFireTimes } from '../../src/shared/cron';

const iso = (dates: Date[]) => dates.map((d) => d.toISOString());

describe('cronProblem', () => {
  it.each(['* * * * *', '0 9 * * MON-FRI', '*/5 * * * *', '0 0 1,15 * *', '0 0 * JAN,jul SUN', '0 12 * * 7', '@hourly', '@DAILY', '@weekly', '@monthly', '@yearly', '@annually', '  0 9 * * 1  '])(
    'accepts %j',
    (expression) => expect(cronProblem(expression)).toBeNull(),
  );

  it.each([
    ['', /expected 5 fields/],
    ['* * * *', /got 4/],
    ['0 * * * * *', /got 6/],
    ['60 * * * *', /minute/],
    ['* 24 * * *', /hour/],
    ['* * 32 * *', /day/],
    ['* * * 13 *', /month/],
    ['* * * * FOO', /./],
    ['@reboot', /unknown macro/],
  ])('rejects %j with a reason', (expression, reason) => {
    expect(cronProblem(expression)).toMatch(reason);
  });
});

describe('nextFireTimes', () => {
  const from = new Date('2026-11-21T10:00:00.000Z'); // a Saturday

  it('ORs day-of-month and day-of-week when both are restricted (Vixie)', () => {
    // The 1st of the month OR any Monday.
    expect(iso(nextFireTimes('0 0 1 * MON', 'UTC', 4, from))).toEqual([
      '2026-11-23T00:00:00.000Z',
      '2026-11-30T00:00:00.000Z',
      '2026-12-01T00:00:00.000Z',
      '2026-12-07T00:00:00.000Z',
    ]);
  });

  it('treats 0 and 7 as Sunday', () => {
    expect(iso(nextFireTimes('0 8 * * 0', 'UTC', 2, from))).toEqual(iso(nextFireTimes('0 8 * * 7', 'UTC', 2, from)));
    expect(iso(nextFireTimes('0 8 * * 0', 'UTC', 1, from))).toEqual(['2026-11-22T08:00:00.000Z']);
  });

  it('fires a local time skipped by a DST jump once, at the end of the gap', () => {
    // America/New_York springs forward at 02:00 on 2027-03-14: 02:30 does not exist.
    const runs = iso(nextFireTimes('30 2 * * *', 'America/New_York', 3, new Date('2027-03-13T00:00:00Z')));
    expect(runs).toEqual(['2027-03-13T07:30:00.000Z', '2027-03-14T07:00:00.000Z', '2027-03-15T06:30:00.000Z']);
  });

  it('fires a repeated local time once', () => {
    // Europe/Berlin falls back at 03:00 on 2027-10-31: 02:30 happens twice.
    const runs = iso(nextFireTimes('30 2 * * *', 'Europe/Berlin', 3, new Date('2027-10-30T00:00:00Z')));
    expect(runs).toEqual(['2027-10-30T00:30:00.000Z', '2027-10-31T00:30:00.000Z', '2027-11-01T01:30:00.000Z']);
  });

  it('handles a half-hour DST change (Lord Howe): the gap and the repeated half hour', () => {
    // 2027-10-03 02:00 → 02:30 (+10:30 → +11): 02:15 does not exist and fires at 02:30.
    expect(iso(nextFireTimes('15 2 * * *', 'Australia/Lord_Howe', 2, new Date('2027-10-02T00:00:00Z')))).toEqual([
      '2027-10-02T15:30:00.000Z',
      '2027-10-03T15:15:00.000Z',
    ]);
    // 2027-04-04 02:00 → 01:30 (+11 → +10:30): 01:45 happens twice and fires once, the first time.
    expect(iso(nextFireTimes('45 1 * * *', 'Australia/Lord_Howe', 2, new Date('2027-04-03T00:00:00Z')))).toEqual([
      '2027-04-03T14:45:00.000Z',
      '2027-04-04T15:15:00.000Z',
    ]);
  });

  it('fires every minute of a half-hour gap once, at its end, and each repeated minute once', () => {
    const spring = iso(nextFireTimes('*/10 * * * *', 'Australia/Lord_Howe', 4, new Date('2027-10-02T14:55:00Z')));
    // 01:30, 01:40, 01:50 local, then 02:00-02:20 fall in the gap and become one fire at 02:30 (15:30Z).
    expect(spring).toEqual(['2027-10-02T15:00:00.000Z', '2027-10-02T15:10:00.000Z', '2027-10-02T15:20:00.000Z', '2027-10-02T15:30:00.000Z']);
  });

  it('uses the timezone offset, including half-hour zones', () => {
    expect(iso(nextFireTimes('0 9 * * *', 'Asia/Kolkata', 1, from))).toEqual(['2026-11-22T03:30:00.000Z']);
  });
});

describe('isValidTimezone', () => {
  it.each(['UTC', 'Europe/Berlin', 'America/Argentina/Buenos_Aires', 'Etc/GMT+5', 'Asia/Calcutta'])('accepts %s', (tz) => expect(isValidTimezone(tz)).toBe(true));
  it.each(['', 'Mars/Base', '+01:00', 'UTC+1', 'Europe/Berlin ', '../etc/passwd'])('rejects %j', (tz) => expect(isValidTimezone(tz)).toBe(false));
});

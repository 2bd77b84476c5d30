// Differential test: Steward's fire times against an independent implementation (cron-parser,
// with luxon for zones) over many expressions and timezones through a year: the first fires of
// every month, and a stretch across each DST change. Away from DST changes the two must agree
// exactly; at the changes Steward follows its own rule (DESIGN §4), checked by hand in cron.test.ts
// and the scheduler tests.
import { CronExpressionParser } from 'cron-parser';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { compileSchedule } from '../../src/shared/cron';

const expressions = [
  '* * * * *', '*/7 * * * *', '0 * * * *', '15,45 * * * *', '0 9 * * *', '30 8 * * 1-5', '0 9 * * MON-FRI',
  '0 0 1 * *', '0 0 1,15 * MON', '0 12 * JAN,JUL *', '0 0 29 2 *', '0 0 31 * *', '5 4 * * SUN', '0 0 * * 7',
  '0 22 * * 0,6', '*/15 9-17 * * *', '0 0-23/3 * * *', '10 2 * * *', '30 2 * * *', '0 3 L * *'.replace(' L', ' 28'),
  '0 0 13 * 5', '59 23 31 12 *', '@hourly', '@daily', '@weekly', '@monthly', '@yearly',
];
// Not Australia/Lord_Howe: cron-parser gives up around its half-hour DST changes ("loop limit
// exceeded") for weeks at a time; Lord Howe is checked by hand in cron.test.ts.
const timezones = ['UTC', 'America/New_York', 'Europe/Berlin', 'Australia/Sydney', 'Asia/Kolkata', 'Pacific/Chatham', 'America/Santiago'];
const year = { start: Date.parse('2027-01-01T00:00:00Z'), end: Date.parse('2028-01-01T00:00:00Z') };
const hourMs = 3_600_000;
const dayMs = 24 * hourMs;

/** Instants where the zone's UTC offset changes during the year, to the minute, found with luxon. */
function transitions(zone: string): number[] {
  const offset = (t: number) => DateTime.fromMillis(t, { zone }).offset;
  const found: number[] = [];
  for (let day = year.start; day < year.end; day += dayMs) {
    if (offset(day) === offset(day + dayMs)) continue;
    let [before, after] = [day, day + dayMs];
    while (after - before > 60_000) {
      const middle = before + Math.floor((after - before) / 120_000) * 60_000;
      if (offset(middle) === offset(before)) before = middle;
      else after = middle;
    }
    found.push(after);
  }
  return found;
}

/**
 * Where to compare: the first fires of each month, so that every season and every sparse
 * expression is seen, and a stretch from before each DST change to well after it, so that the two
 * are seen to agree again once the clocks have changed. The fire limits keep the dense
 * expressions from costing more than they prove (every minute is every minute in any zone; every
 * 7 minutes still crosses the change).
 */
function windows(changes: number[]): { after: number; until: number; limit: number }[] {
  const months = Array.from({ length: 12 }, (_, month) => ({ after: Date.UTC(2027, month, 1), until: Date.UTC(2027, month + 1, 1), limit: 60 }));
  const acrossChanges = changes.map((change) => ({ after: change - 4 * hourMs, until: change + 2 * dayMs, limit: 150 }));
  return [...months, ...acrossChanges];
}

/**
 * cron-parser's fire times. It gives up ("loop limit exceeded") at some DST changes, such as Lord
 * Howe's half-hour one, when its search crosses the change; there it is restarted an hour later
 * and the stretch it skipped is returned as a hole, left out of the comparison.
 */
function reference(expression: string, zone: string, after: number, until: number, limit: number) {
  const fires: number[] = [];
  const holes: [number, number][] = [];
  let cursor = after;
  let parsed = CronExpressionParser.parse(expression, { currentDate: new Date(cursor), tz: zone });
  while (fires.length < limit) {
    let next: number;
    try {
      next = parsed.next().toDate().getTime();
    } catch {
      holes.push([cursor, cursor + hourMs]);
      cursor += hourMs;
      parsed = CronExpressionParser.parse(expression, { currentDate: new Date(cursor), tz: zone });
      continue;
    }
    if (next > until) break;
    fires.push(next);
    cursor = next;
  }
  return { fires, holes };
}

describe('fire times against cron-parser', () => {
  for (const zone of timezones) {
    it(`agree away from DST changes in ${zone}`, () => {
      const changes = transitions(zone);
      const nearChange = (t: number) => changes.some((change) => Math.abs(t - change) < 3 * hourMs);
      let compared = 0;
      for (const expression of expressions) {
        const schedule = compileSchedule(expression, zone);
        for (const { after, until, limit } of windows(changes)) {
          const ours = schedule.between(new Date(after), new Date(until), limit).map((d) => d.getTime());
          const { fires: theirs, holes } = reference(expression, zone, after, until, limit);
          const bound = Math.min(ours.at(-1) ?? until, theirs.at(-1) ?? until);
          const inHole = (t: number) => holes.some(([from, to]) => t > from && t <= to);
          const comparable = (fires: number[]) => fires.filter((t) => t <= bound && !nearChange(t) && !inHole(t));
          expect(comparable(ours).map((t) => new Date(t).toISOString()), `${expression} in ${zone} from ${new Date(after).toISOString()}`).toEqual(
            comparable(theirs).map((t) => new Date(t).toISOString()),
          );
          compared += comparable(ours).length;
        }
      }
      expect(compared).toBeGreaterThan(7_000);
    });
  }
});

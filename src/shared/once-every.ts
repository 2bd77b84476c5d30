// The `at` and `every` triggers as schedules (the same Schedule a cron expression compiles to), so
// the scheduler, its catch-up, fire records, health and the Agenda treat them as they treat cron.
// A time is a wall time in the automation's timezone (2026-11-28T09:00) or an instant with its
// offset. Minutes and hours step in real time; days step in wall time, so 09:00 stays 09:00
// across daylight saving.
import type { Schedule } from './cron';
import { instantToWallTime, wallTimeToInstant } from './timezone';

const wallPattern = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;
const offsetPattern = /(Z|[+-]\d{2}:\d{2})$/i;
const minuteMs = 60_000;
const dayMs = 24 * 60 * minuteMs;

function wallOf(value: string): number | undefined {
  const match = wallPattern.exec(value.trim());
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0));
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(wall);
  // 2026-02-30 rolls over in Date.UTC: refuse it rather than fire on March 2nd.
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return undefined;
  return wall;
}

/** Why `value` is not a time, or undefined when it is. */
export function localTimeProblem(value: string): string | undefined {
  const text = value.trim();
  if (offsetPattern.test(text)) return Number.isNaN(Date.parse(text)) ? `"${value}" is not a time` : undefined;
  return wallOf(text) === undefined ? `"${value}" is not a time: write it as 2026-11-28T09:00 (in the automation's timezone) or with an offset (…Z, …+01:00)` : undefined;
}

/** The instant `value` names: as written when it has an offset, else its wall time in `timezone`. */
export function instantOf(value: string, timezone: string): number {
  const text = value.trim();
  if (offsetPattern.test(text)) return Date.parse(text);
  const wall = wallOf(text);
  if (wall === undefined) throw new Error(localTimeProblem(value));
  return wallTimeToInstant(wall, timezone);
}

function scheduleOf(fireAfter: (after: number) => number | null): Schedule {
  return {
    next(after, count) {
      const out: Date[] = [];
      let from = after.getTime();
      while (out.length < count) {
        const at = fireAfter(from);
        if (at === null) break;
        out.push(new Date(at));
        from = at;
      }
      return out;
    },
    between(after, until, limit) {
      const out: Date[] = [];
      let from = after.getTime();
      while (out.length < limit) {
        const at = fireAfter(from);
        if (at === null || at > until.getTime()) break;
        out.push(new Date(at));
        from = at;
      }
      return out;
    },
  };
}

/** Once, at `value` in `timezone`. */
export function onceSchedule(value: string, timezone: string): Schedule {
  const at = instantOf(value, timezone);
  return scheduleOf((after) => (at > after ? at : null));
}

export interface Interval {
  minutes?: number | undefined;
  hours?: number | undefined;
  days?: number | undefined;
}

/** Every interval from `from` (an instant), in `timezone`: fires at from, from + step, …, never before from. */
export function everySchedule(interval: Interval, from: number, timezone: string): Schedule {
  if (interval.days !== undefined) {
    const days = interval.days;
    const anchorWall = instantToWallTime(from, timezone);
    return scheduleOf((after) => {
      if (after < from) return from;
      // The step count whose wall time lands after `after`: estimated from real time, then walked.
      let step = Math.max(0, Math.floor((instantToWallTime(after, timezone) - anchorWall) / (days * dayMs)));
      for (;;) {
        const at = wallTimeToInstant(anchorWall + step * days * dayMs, timezone);
        if (at > after) return at;
        step += 1;
      }
    });
  }
  const stepMs = ((interval.minutes ?? 0) + (interval.hours ?? 0) * 60) * minuteMs;
  return scheduleOf((after) => (after < from ? from : from + (Math.floor((after - from) / stepMs) + 1) * stepMs));
}

/** An interval in words: "every 90 minutes", "every 2 days". */
export function intervalWords(interval: Interval): string {
  const [count, unit] = interval.days !== undefined ? [interval.days, 'day'] : interval.hours !== undefined ? [interval.hours, 'hour'] : [interval.minutes ?? 0, 'minute'];
  return count === 1 ? `every ${unit}` : `every ${count} ${unit}s`;
}

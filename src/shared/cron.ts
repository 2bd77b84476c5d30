// Cron expressions and timezones as Steward accepts them (DESIGN §4 "Cron"): five fields with
// Vixie semantics or an @-macro, evaluated in an IANA timezone. Pure: runs in Node and the renderer.
//
// Fire times are local wall-clock times. croner matches the pattern against wall-clock time (it
// evaluates in UTC, which has no DST), and each matching wall time becomes an instant in the
// zone: a wall time skipped by a DST jump fires once, at the end of the gap; a wall time that
// occurs twice fires once, at its first occurrence.
import { Cron } from 'croner';
import { instantToWallTime, offsetAt, wallTimeToInstant } from './timezone';

export { isValidTimezone } from './timezone';

const macros: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const fieldNames = 'minute hour day-of-month month day-of-week';

/** DST shifts are at most this long; a wall time this far back can still map to a later instant. */
const maxShiftMs = 3 * 60 * 60 * 1000;

/** The five-field form of an expression (macros expanded), or a reason it is not one. */
function expandCron(expression: string): { fields: string } | { problem: string } {
  const trimmed = expression.trim();
  if (trimmed.startsWith('@')) {
    const fields = macros[trimmed.toLowerCase()];
    return fields ? { fields } : { problem: `unknown macro ${trimmed}; use one of ${Object.keys(macros).join(', ')}` };
  }
  const count = trimmed === '' ? 0 : trimmed.split(/\s+/).length;
  if (count !== 5) return { problem: `expected 5 fields (${fieldNames}), got ${count}` };
  return { fields: trimmed };
}

/** The pattern, matched against wall-clock time (UTC offset 0: no DST, and no Intl on the hot path).
 * domAndDow false: Vixie's day-of-month OR day-of-week. */
function compile(fields: string): Cron {
  return new Cron(fields, { mode: '5-part', utcOffset: 0, domAndDow: false, paused: true });
}

// A compiled croner pattern weighs about 80 KB (a table of 10,000 years), so schedules share
// them by expression, and only the most recently used few stay compiled.
const compiledPatterns = new Map<string, Cron>();
const maxCompiledPatterns = 1024;

function pattern(fields: string): Cron {
  let found = compiledPatterns.get(fields);
  if (found) {
    compiledPatterns.delete(fields);
  } else {
    found = compile(fields);
    if (compiledPatterns.size >= maxCompiledPatterns) compiledPatterns.delete(compiledPatterns.keys().next().value!);
  }
  compiledPatterns.set(fields, found);
  return found;
}

/** Why an expression is not a valid cron expression, or null when it is. */
export function cronProblem(expression: string): string | null {
  const expanded = expandCron(expression);
  if ('problem' in expanded) return expanded.problem;
  try {
    if (compile(expanded.fields).nextRun() === null) return 'it never fires (no date matches it, such as February 30)';
    return null;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return message.replace(/^CronPattern: /, '');
  }
}

/** A compiled schedule: an expression in a timezone. Expects both to be valid. */
export interface Schedule {
  /** Fire times strictly after `after`, in order, as many as asked (fewer if the pattern never matches). */
  next(after: Date, count: number): Date[];
  /** Fire times in (after, until], in order, at most `limit`. */
  between(after: Date, until: Date, limit: number): Date[];
}

export function compileSchedule(expression: string, timezone: string): Schedule {
  const expanded = expandCron(expression);
  if ('problem' in expanded) throw new Error(`Invalid cron expression: ${expanded.problem}`);
  const { fields } = expanded;
  pattern(fields); // fail now, not at the first fire

  function* fires(after: Date): Generator<Date> {
    const matcher = pattern(fields);
    // Near a DST change, start a little early in wall time: a wall time before `after`'s own can
    // then map to an instant after it (the end of a gap, or `after` inside a repeated hour).
    const start = after.getTime();
    const nearChange = offsetAt(start - maxShiftMs, timezone) !== offsetAt(start + maxShiftMs, timezone);
    let wall: Date | null = new Date(instantToWallTime(start, timezone) - (nearChange ? maxShiftMs : 0));
    let last = start;
    while ((wall = matcher.nextRun(wall))) {
      const instant = wallTimeToInstant(wall.getTime(), timezone);
      if (instant > last) {
        last = instant;
        yield new Date(instant);
      }
    }
  }

  return {
    next(after, count) {
      const result: Date[] = [];
      for (const fire of fires(after)) {
        if (result.push(fire) >= count) break;
      }
      return result;
    },
    between(after, until, limit) {
      const result: Date[] = [];
      for (const fire of fires(after)) {
        if (fire > until || result.push(fire) >= limit) break;
      }
      return result;
    },
  };
}

/** The next `count` fire times strictly after `from`. Expects a valid expression and timezone. */
export function nextFireTimes(expression: string, timezone: string, count: number, from: Date): Date[] {
  return compileSchedule(expression, timezone).next(from, count);
}

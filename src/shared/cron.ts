// Cron expressions and timezones as Steward accepts them (DESIGN §4 "Cron"): five fields with
// Vixie semantics or an @-macro, evaluated in an IANA timezone. Pure: runs in Node and the renderer.
import { Cron } from 'croner';

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

/** The five-field form of an expression (macros expanded), or a reason it is not one. */
function expandCron(expression: string): { fields: string } | { problem: string } {
  const trimmed = expression.trim();
  if (trimmed.startsWith('@')) {
    const fields = macros[trimmed.toLowerCase()];
    return fields
      ? { fields }
      : { problem: `unknown macro ${trimmed}; use one of ${Object.keys(macros).join(', ')}` };
  }
  const count = trimmed === '' ? 0 : trimmed.split(/\s+/).length;
  if (count !== 5) return { problem: `expected 5 fields (${fieldNames}), got ${count}` };
  return { fields: trimmed };
}

function compile(fields: string, timezone: string): Cron {
  // domAndDow false: day-of-month OR day-of-week when both are restricted, as Vixie cron does.
  return new Cron(fields, { mode: '5-part', timezone, domAndDow: false, paused: true });
}

/** Why an expression is not a valid cron expression, or null when it is. */
export function cronProblem(expression: string): string | null {
  const expanded = expandCron(expression);
  if ('problem' in expanded) return expanded.problem;
  try {
    compile(expanded.fields, 'UTC');
    return null;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return message.replace(/^CronPattern: /, '');
  }
}

const timezonePattern = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/** True for an IANA timezone name the runtime knows (offsets such as "+01:00" are not names). */
export function isValidTimezone(timezone: string): boolean {
  if (!timezonePattern.test(timezone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/** The next `count` fire times strictly after `from`. Expects a valid expression and timezone. */
export function nextFireTimes(expression: string, timezone: string, count: number, from: Date): Date[] {
  const expanded = expandCron(expression);
  if ('problem' in expanded) return [];
  return compile(expanded.fields, timezone).nextRuns(count, from);
}

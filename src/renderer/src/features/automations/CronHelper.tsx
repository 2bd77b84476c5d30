// The cron expression in words and its next 5 fire times in the chosen timezone, as one types:
// computed with the same rules the scheduler uses (src/shared/cron.ts).
import cronstrue from 'cronstrue';
import { cronProblem, isValidTimezone, nextFireTimes } from '../../../../shared/cron';

export function describeCron(expression: string): string {
  try {
    return cronstrue.toString(expression.trim(), { use24HourTimeFormat: true, verbose: false });
  } catch {
    return '';
  }
}

/** Why the expression cannot be saved, in the words the API uses; undefined when it can. */
export function cronExpressionProblem(expression: string): string | undefined {
  if (expression.trim() === '') return 'A schedule is required: type a cron expression, e.g. 0 9 * * 1-5.';
  const problem = cronProblem(expression);
  return problem ? `Invalid cron expression: ${problem}.` : undefined;
}

/** The schedule in words and its next fires; nothing while the expression is invalid (the field shows why, as an error). */
export function CronHelper({ expression, timezone }: { expression: string; timezone: string }) {
  if (cronExpressionProblem(expression)) return null;
  const zone = isValidTimezone(timezone) ? timezone : 'UTC';
  const times = nextFireTimes(expression, zone, 5, new Date());
  const format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: zone });
  return (
    <div className="hint" aria-live="polite">
      <div data-testid="cron-description">{describeCron(expression)} ({zone})</div>
      <ol className="times" aria-label="Next 5 runs">
        {times.map((time) => (
          <li key={time.toISOString()}>{format.format(time)}</li>
        ))}
      </ol>
    </div>
  );
}

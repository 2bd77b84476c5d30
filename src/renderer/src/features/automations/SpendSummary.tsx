// An automation's spend on its card: the average per run and the forecast for the next 30 days (in
// tokens when its agent reports no cost), and a small chart of its last 30 days (a bar per day, as
// high as that day's spend, coloured by how its runs ended) with the same figures as a table.
import { useEffect, useState } from 'react';
import type { Automation, Spend } from '../../../../shared/contract';
import { formatTokens, formatUsd } from '../reliability/drafts';
import { useApp } from '../../lib/app-context';

type SpendDay = Spend['days'][number];

export function spendLine(spend: Spend): string {
  if (spend.reportsCost && spend.averageCostUsd !== null) {
    const forecast = spend.forecast30DaysUsd === null ? '' : ` · about ${formatUsd(spend.forecast30DaysUsd)} in the next 30 days`;
    return `avg ${formatUsd(spend.averageCostUsd)} a run${forecast}`;
  }
  if (spend.averageTokens !== null) {
    const forecast = spend.firesNext30Days > 0 ? ` · about ${formatTokens(spend.averageTokens * spend.firesNext30Days)} in the next 30 days` : '';
    return `avg ${formatTokens(spend.averageTokens)} a run${forecast} (its agent reports no cost)`;
  }
  return 'No spend reported in the last 30 days.';
}

const weekday = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });

/** A calendar day ("2026-11-27") as a person reads it: "Fri 27 Nov". */
export function dayWords(date: string): string {
  // The day is a calendar date, not a moment: read and written in UTC so no zone shifts it.
  const at = new Date(`${date}T12:00:00Z`);
  return Number.isNaN(at.getTime()) ? date : weekday.format(at).replace(',', '');
}

/** How a day's runs ended, worst first: the bar's colour. */
export function dayOutcome(day: SpendDay): 'failed' | 'attention' | 'succeeded' | 'quiet' | 'none' {
  if (day.failed > 0) return 'failed';
  if (day.needsAttention > 0) return 'attention';
  if (day.nothingToReport > 0 && day.nothingToReport === day.runs) return 'quiet';
  return day.runs > 0 ? 'succeeded' : 'none';
}

function SpendChart({ spend }: { spend: Spend }) {
  const value = (day: SpendDay) => (spend.reportsCost ? day.costUsd : day.tokens);
  const highest = Math.max(...spend.days.map(value), 0);
  const runs = spend.days.reduce((sum, day) => sum + day.runs, 0);
  const failed = spend.days.reduce((sum, day) => sum + day.failed, 0);
  const total = spend.days.reduce((sum, day) => sum + value(day), 0);
  const summary = `Last 30 days: ${runs} ${runs === 1 ? 'run' : 'runs'}, ${failed} failed, ${spend.reportsCost ? formatUsd(total) : formatTokens(total)} in all.`;
  const shown = spend.days.filter((day) => day.runs > 0);
  return (
    <figure className="spend-chart">
      <svg viewBox={`0 0 ${spend.days.length * 10} 40`} preserveAspectRatio="none" role="img" aria-label={summary}>
        {spend.days.map((day, index) => {
          const height = day.runs === 0 ? 1 : Math.max(3, highest > 0 ? (value(day) / highest) * 38 : 3);
          return <rect key={day.date} className={`day ${dayOutcome(day)}`} x={index * 10 + 1} y={40 - height} width={8} height={height} />;
        })}
      </svg>
      <figcaption className="hint">
        {summary} <span className="legend"><span className="key succeeded" aria-hidden="true" />ok <span className="key attention" aria-hidden="true" />needs attention <span className="key failed" aria-hidden="true" />failed</span>
      </figcaption>
      {shown.length > 0 && (
        <details>
          <summary>Each day</summary>
          <table className="compact">
            <thead><tr><th scope="col">Day</th><th scope="col">Runs</th><th scope="col">Failed</th><th scope="col">Needs attention</th><th scope="col">{spend.reportsCost ? 'Spend' : 'Tokens'}</th></tr></thead>
            <tbody>
              {shown.map((day) => (
                <tr key={day.date}><th scope="row"><time dateTime={day.date}>{dayWords(day.date)}</time></th><td>{day.runs}</td><td>{day.failed}</td><td>{day.needsAttention}</td><td>{spend.reportsCost ? formatUsd(day.costUsd) : day.tokens.toLocaleString('en-US')}</td></tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </figure>
  );
}

export function SpendSummary({ automation }: { automation: Automation }) {
  const { spend, loadSpend } = useApp();
  const [problem, setProblem] = useState<string>();
  useEffect(() => {
    loadSpend(automation.id).then(() => setProblem(undefined), (error: Error) => setProblem(error.message));
  }, [automation.id, automation.lastRunAt, loadSpend]);
  const mine = spend[automation.id];
  // The box keeps its room while the figures load, so the card's buttons do not jump.
  if (!mine) return <div className="spend" aria-busy={problem ? undefined : true}>{problem && <div className="hint">Spend not available: {problem}</div>}</div>;
  return (
    <div className="spend">
      <div className="hint" data-testid="spend-line">{spendLine(mine)}</div>
      <SpendChart spend={mine} />
    </div>
  );
}

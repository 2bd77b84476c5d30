// The agenda: every automation's due fires in a window, in order. The past comes from the fire
// records, the future from the scheduler's schedules, each with the automation's average cost.
import type { Agenda, AgendaEntry } from '../../../shared/contract';
import { maxAgendaDays } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import type { Scheduler } from '../scheduler/scheduler';
import type { ServiceContext } from './context';

const dayMs = 24 * 60 * 60 * 1000;
/** Fires counted per automation for the month's forecast. */
const maxForecastFires = 50_000;

interface AgendaQuery {
  from?: string | undefined;
  to?: string | undefined;
  after?: string | undefined;
  limit: number;
}

const startOfUtcDay = (at: Date) => Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());

export function createAgendaService(context: ServiceContext, scheduler: Scheduler) {
  const { store } = context;

  function window(query: AgendaQuery): { from: number; to: number } {
    const from = query.from === undefined ? startOfUtcDay(context.now()) : Date.parse(query.from);
    const to = query.to === undefined ? from + 8 * dayMs : Date.parse(query.to);
    if (to - from > maxAgendaDays * dayMs) throw new AppError('invalid_field', `The window is longer than ${maxAgendaDays} days: ask for it in parts.`, { field: 'to' });
    return { from, to };
  }

  /** The month ahead's forecast: each automation's average cost times its fires in the next 30 days. */
  function forecastMonth(averages: Map<string, number>, now: Date): number | null {
    if (averages.size === 0) return null;
    let total = 0;
    for (const [automationId, average] of averages) {
      const automation = store.automations.get(automationId);
      if (!automation?.enabled || automation.cronExpression === null) continue;
      total += average * scheduler.firesWithin(automationId, now, new Date(now.getTime() + 30 * dayMs), maxForecastFires);
    }
    return Math.round(total * 100) / 100;
  }

  return {
    get(query: AgendaQuery): Agenda {
      const now = context.now();
      const { from, to } = window(query);
      const [afterDue, afterId] = query.after?.split('|') ?? [];
      const after = afterDue !== undefined && afterId !== undefined ? { dueAt: afterDue, automationId: afterId } : null;
      const averages = store.runs.averageCosts(new Date(now.getTime() - 30 * dayMs).toISOString());
      const iso = (ms: number) => new Date(ms).toISOString();

      const past: AgendaEntry[] =
        from < now.getTime()
          ? store.fires.page(iso(from), iso(Math.min(to, now.getTime())), after, query.limit + 1).map((fire) => ({
              automationId: fire.automationId,
              automationName: fire.automationName,
              instanceId: fire.instanceId,
              dueAt: fire.dueAt,
              state: fire.state,
              reason: fire.reason,
              detail: fire.detail,
              event: fire.event,
              runId: fire.runId,
              runStatus: fire.runStatus,
              forecastUsd: null,
            }))
          : [];
      const room = query.limit + 1 - past.length;
      const futureAfter = after && Date.parse(after.dueAt) >= now.getTime() ? { at: Date.parse(after.dueAt), id: after.automationId } : null;
      const future: AgendaEntry[] =
        room > 0 && to > now.getTime()
          ? scheduler.upcoming({ from, to, after: futureAfter }, room).map(({ automation, at }) => ({
              automationId: automation.id,
              automationName: automation.name,
              instanceId: automation.instanceId,
              dueAt: iso(at),
              state: 'due' as const,
              reason: null,
              detail: null,
              event: null,
              runId: null,
              runStatus: null,
              forecastUsd: averages.get(automation.id) ?? null,
            }))
          : [];
      const entries = [...past, ...future];
      const more = entries.length > query.limit;
      const page = more ? entries.slice(0, query.limit) : entries;
      const last = page.at(-1);
      return {
        from: iso(from),
        to: iso(to),
        entries: page,
        nextAfter: more && last ? `${last.dueAt}|${last.automationId}` : null,
        forecastMonthUsd: forecastMonth(averages, now),
      };
    },
  };
}

// The agenda as a grid: a row per automation, a column per day (in this computer's timezone), and
// in each cell its fires as marks saying what became of each (or, to come, what it may cost).
import type { AgendaEntry, FireReason } from '../../../../shared/contract';
import { formatUsd } from '../reliability/drafts';

export const markKinds = ['succeeded', 'failed', 'running', 'cancelled', 'fired', 'skipped', 'missed', 'due'] as const;
export type MarkKind = (typeof markKinds)[number];

export const markIcons: Record<MarkKind, string> = { succeeded: '✓', failed: '✕', running: '●', cancelled: '–', fired: '•', skipped: '↷', missed: '⊘', due: '◷' };
export const markWords: Record<MarkKind, string> = {
  succeeded: 'ran and succeeded',
  failed: 'ran and failed',
  running: 'running or queued',
  cancelled: 'ran and was cancelled',
  fired: 'ran',
  skipped: 'skipped',
  missed: 'missed (Steward was off)',
  due: 'due',
};

const reasonWords: Record<FireReason, string> = {
  overlap: 'its previous run was still going',
  catch_up: 'its catch-up policy skipped it',
  budget: 'over budget',
  instance_stopped: 'its instance was stopped',
  steward_off: 'Steward was off',
  filter: 'the event did not pass its filter',
};

export function kindOf(entry: AgendaEntry): MarkKind {
  if (entry.state === 'due' || entry.state === 'missed' || entry.state === 'skipped') return entry.state;
  switch (entry.runStatus) {
    case 'succeeded':
      return 'succeeded';
    case 'failed':
    case 'timed_out':
    case 'interrupted':
      return 'failed';
    case 'queued':
    case 'running':
      return 'running';
    case 'cancelled':
      return 'cancelled';
    default:
      return 'fired';
  }
}

/** What became of one fire, in words: "ran and failed", "skipped: over budget", "due, about $0.12". */
export function markText(entry: AgendaEntry): string {
  const kind = kindOf(entry);
  const late = entry.state === 'caught-up' ? ' (caught up late)' : '';
  // An event trigger's fire says what happened: "ran: invoice.pdf created in ~/Invoices".
  const what = entry.event ? ` (${entry.event})` : '';
  if (kind === 'skipped') return `skipped${what}: ${entry.detail ?? (entry.reason ? reasonWords[entry.reason] : 'not run')}`;
  if (kind === 'due') return entry.forecastUsd === null ? 'due' : `due, about ${formatUsd(entry.forecastUsd)}`;
  return `${markWords[kind]}${late}${what}`;
}

export interface Day {
  /** YYYY-MM-DD in this computer's timezone. */
  key: string;
  label: string;
}

const pad = (value: number) => String(value).padStart(2, '0');
export const dayKey = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

/** Midnight today and the `count` days from it, in this computer's timezone. */
export function daysFrom(today: Date, count: number): { days: Day[]; from: Date; to: Date } {
  const from = new Date(today.getFullYear(), today.getMonth(), today.getDate());
  const weekday = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
  const days = Array.from({ length: count }, (_, index) => {
    const date = new Date(from.getFullYear(), from.getMonth(), from.getDate() + index);
    return { key: dayKey(date), label: index === 0 ? `Today, ${weekday.format(date)}` : weekday.format(date) };
  });
  return { days, from, to: new Date(from.getFullYear(), from.getMonth(), from.getDate() + count) };
}

export interface AgendaRow {
  automationId: string;
  name: string;
  /** Its fires by day key, oldest first. */
  cells: Record<string, AgendaEntry[]>;
}

/** A row per automation (by name), its fires put in their days. */
export function agendaRows(entries: AgendaEntry[]): AgendaRow[] {
  const rows = new Map<string, AgendaRow>();
  for (const entry of entries) {
    const row = rows.get(entry.automationId) ?? { automationId: entry.automationId, name: entry.automationName, cells: {} };
    rows.set(entry.automationId, row);
    (row.cells[dayKey(new Date(entry.dueAt))] ??= []).push(entry);
  }
  return [...rows.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** A crowded cell (an automation every few minutes) counts its fires by kind instead of listing each. */
export const listedPerCell = 4;

export function countsByKind(entries: AgendaEntry[]): [MarkKind, number][] {
  const counts = new Map<MarkKind, number>();
  for (const entry of entries) counts.set(kindOf(entry), (counts.get(kindOf(entry)) ?? 0) + 1);
  return markKinds.filter((kind) => counts.has(kind)).map((kind) => [kind, counts.get(kind)!]);
}

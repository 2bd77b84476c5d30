// Quiet runs stay quiet: runs whose agent reported nothing_to_report (and that succeeded) fold into
// one entry per automation (or webhook) and local day, placed where its newest member would be.
// Pure, for the activity feed and the run list alike.
import type { ActivityEvent, Run } from '../../../shared/contract';

export type Folded<T> = { kind: 'item'; item: T } | { kind: 'fold'; key: string; sourceId: string; items: T[] };

/** The local calendar day of a timestamp, as a key. */
export function localDay(iso: string): string {
  const at = new Date(iso);
  return `${at.getFullYear()}-${at.getMonth() + 1}-${at.getDate()}`;
}

/** Items in their order; those `quietSource` names a source for fold into one entry per source and day. */
export function foldQuiet<T>(items: readonly T[], quietSource: (item: T) => { sourceId: string; day: string } | undefined): Folded<T>[] {
  const entries: Folded<T>[] = [];
  const folds = new Map<string, Extract<Folded<T>, { kind: 'fold' }>>();
  for (const item of items) {
    const quiet = quietSource(item);
    if (!quiet) {
      entries.push({ kind: 'item', item });
      continue;
    }
    const key = `${quiet.sourceId}|${quiet.day}`;
    let fold = folds.get(key);
    if (!fold) {
      fold = { kind: 'fold', key, sourceId: quiet.sourceId, items: [] };
      folds.set(key, fold);
      entries.push(fold);
    }
    fold.items.push(item);
  }
  return entries;
}

/** A run of an automation or webhook that succeeded with nothing to report. */
export function quietRun(run: Run): { sourceId: string; day: string } | undefined {
  if (run.status !== 'succeeded' || run.outcome !== 'nothing_to_report' || run.sourceId === null) return undefined;
  return { sourceId: run.sourceId, day: localDay(run.startedAt ?? run.createdAt) };
}

type RawLine = { type?: string; outcome?: string; status?: string; sourceId?: string | null };

/**
 * The runs among feed lines that are quiet: their last outcome line says nothing_to_report and
 * their end line says succeeded. By run id: the source and the day of the outcome.
 */
export function quietRunsOf(lines: readonly ActivityEvent[]): Map<string, { sourceId: string; day: string }> {
  const outcomes = new Map<string, { sourceId: string | null | undefined; outcome: string | undefined; day: string }>();
  const succeeded = new Set<string>();
  for (const line of lines) {
    if (line.kind !== 'system' || line.runId === null) continue;
    let raw: RawLine;
    try {
      raw = JSON.parse(line.raw) as RawLine;
    } catch {
      continue;
    }
    if (raw.type === 'run.outcome') outcomes.set(line.runId, { sourceId: raw.sourceId, outcome: raw.outcome, day: localDay(line.timestamp) });
    else if (raw.type === 'run.finished' && raw.status === 'succeeded') succeeded.add(line.runId);
  }
  const quiet = new Map<string, { sourceId: string; day: string }>();
  for (const [runId, { sourceId, outcome, day }] of outcomes) {
    if (outcome === 'nothing_to_report' && sourceId && succeeded.has(runId)) quiet.set(runId, { sourceId, day });
  }
  return quiet;
}

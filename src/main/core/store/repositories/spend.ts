// What runs reported they spent (runs.cost_usd, input and output tokens), summed per automation or
// instance over a period, and the over-budget notices already sent (budget_notices: once per owner
// and period).
import type Database from 'better-sqlite3';
import type { Outcome, RunStatus } from '../../../../shared/contract';

/** What runs spent in a period: dollars (runs that reported a cost) and tokens (in and out). */
export interface SpendTotal {
  costUsd: number;
  tokens: number;
}

/** One run's figures, for a day-by-day account. */
export interface RunSpend {
  createdAt: string;
  status: RunStatus;
  outcome: Outcome | null;
  costUsd: number | null;
  tokens: number | null;
}

const sums = 'COALESCE(SUM(cost_usd), 0) AS costUsd, COALESCE(SUM(COALESCE(input_tokens, 0) + COALESCE(output_tokens, 0)), 0) AS tokens';
// Word for word the WHERE of the partial indexes, which SQLite uses only for a query that says it.
const reported = '(cost_usd IS NOT NULL OR input_tokens IS NOT NULL OR output_tokens IS NOT NULL)';
const tokensOf = 'CASE WHEN input_tokens IS NULL AND output_tokens IS NULL THEN NULL ELSE COALESCE(input_tokens, 0) + COALESCE(output_tokens, 0) END';

export function createSpendRepository(db: Database.Database) {
  // Each on its index of the runs that reported usage (runs_spend_by_source, runs_spend_by_instance):
  // runs queued or reporting nothing add nothing to a sum, nor to its cost. ISO times sort as text.
  const ofSource = db.prepare<[string, string, string], SpendTotal>(`SELECT ${sums} FROM runs WHERE source_id = ? AND created_at >= ? AND created_at < ? AND ${reported}`);
  const ofInstance = db.prepare<[string, string, string], SpendTotal>(`SELECT ${sums} FROM runs WHERE instance_id = ? AND created_at >= ? AND created_at < ? AND ${reported}`);
  const runsOfSource = db.prepare<[string, string], RunSpend>(
    `SELECT created_at AS createdAt, status, outcome, cost_usd AS costUsd, ${tokensOf} AS tokens FROM runs WHERE source_id = ? AND created_at >= ? ORDER BY created_at`,
  );
  const notice = db.prepare<[string, string, string]>('INSERT OR IGNORE INTO budget_notices (owner_id, period, sent_at) VALUES (?, ?, ?)');

  return {
    /** What an automation's (or webhook's) runs created in [from, to) spent. */
    ofSource: (sourceId: string, from: string, to: string): SpendTotal => ofSource.get(sourceId, from, to)!,
    /** What all runs of an instance created in [from, to) spent. */
    ofInstance: (instanceId: string, from: string, to: string): SpendTotal => ofInstance.get(instanceId, from, to)!,
    /** An automation's runs created since `from`, oldest first. */
    runsOfSource: (sourceId: string, from: string): RunSpend[] => runsOfSource.all(sourceId, from),
    /** Marks the notice of an owner's period sent; false when it was sent already. */
    noticeOnce: (ownerId: string, period: string, at: string): boolean => notice.run(ownerId, period, at).changes === 1,
  };
}

export type SpendRepository = ReturnType<typeof createSpendRepository>;

// approvals table <-> Approval. A decision is written only while the approval is pending: two
// deciders racing (a link and the app) cannot both win.
import type Database from 'better-sqlite3';
import type { CommitHooks } from '../commit-hooks';
import { type Approval, ApprovalDetail, type Decider, endedRunStatuses } from '../../../../shared/contract';

interface ApprovalRow {
  id: string;
  run_id: string;
  instance_id: string;
  kind: Approval['kind'];
  title: string;
  detail: string;
  status: Approval['status'];
  decided_by: Decider | null;
  answer: string | null;
  note: string | null;
  allow_token: string;
  deny_token: string;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
}

/** An approval with its link tokens, which only admin callers see (as links). */
export type ApprovalRecord = Omit<Approval, 'links'> & { allowToken: string; denyToken: string };

const toRecord = (row: ApprovalRow): ApprovalRecord => ({
  id: row.id,
  runId: row.run_id,
  instanceId: row.instance_id,
  kind: row.kind,
  title: row.title,
  detail: ApprovalDetail.parse(JSON.parse(row.detail)),
  status: row.status,
  decidedBy: row.decided_by,
  answer: row.answer,
  note: row.note,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  decidedAt: row.decided_at,
  allowToken: row.allow_token,
  denyToken: row.deny_token,
});

export interface ApprovalFilter {
  status?: 'pending' | 'decided' | undefined;
  runId?: string | undefined;
  instanceId?: string | undefined;
  before?: string | undefined;
  limit: number;
}

export function createApprovalsRepository(db: Database.Database, hooks: CommitHooks) {
  const changed = (id: string) => {
    if (hooks.wanted) hooks.announce({ type: 'changed', resource: 'approval', id });
  };
  const insert = db.prepare(`INSERT INTO approvals (id, run_id, instance_id, kind, title, detail, allow_token, deny_token, created_at, expires_at)
    VALUES (@id, @runId, @instanceId, @kind, @title, @detail, @allowToken, @denyToken, @createdAt, @expiresAt)`);
  const get = db.prepare<[string], ApprovalRow>('SELECT * FROM approvals WHERE id = ?');
  const byToken = db.prepare<[string, string], ApprovalRow>('SELECT * FROM approvals WHERE allow_token = ? OR deny_token = ?');
  const list = db.prepare<{ status: string | null; runId: string | null; instanceId: string | null; before: string | null; limit: number }, ApprovalRow>(
    `SELECT * FROM approvals
     WHERE (@status IS NULL OR (@status = 'pending' AND status = 'pending') OR (@status = 'decided' AND status != 'pending'))
       AND (@runId IS NULL OR run_id = @runId) AND (@instanceId IS NULL OR instance_id = @instanceId) AND (@before IS NULL OR id < @before)
     ORDER BY id DESC LIMIT @limit`,
  );
  const decide = db.prepare<{ id: string; status: string; decidedBy: string; answer: string | null; note: string | null; decidedAt: string }>(
    "UPDATE approvals SET status = @status, decided_by = @decidedBy, answer = @answer, note = @note, decided_at = @decidedAt WHERE id = @id AND status = 'pending'",
  );
  const nextExpiry = db.prepare<[], { expires_at: string }>("SELECT min(expires_at) AS expires_at FROM approvals WHERE status = 'pending'");
  const overdue = db.prepare<[string], ApprovalRow>("SELECT * FROM approvals WHERE status = 'pending' AND expires_at <= ? ORDER BY expires_at");
  const pendingForRun = db.prepare<[string], ApprovalRow>("SELECT * FROM approvals WHERE status = 'pending' AND run_id = ?");
  // Left pending by a run that ended while nothing listened (Steward stopping, another process).
  // From the pending approvals (CROSS JOIN keeps them outside): never a walk over every ended run.
  const pendingOfEndedRuns = db.prepare<[], ApprovalRow>(
    `SELECT a.* FROM approvals a CROSS JOIN runs r ON r.id = a.run_id WHERE a.status = 'pending' AND r.status IN (${endedRunStatuses.map((status) => `'${status}'`).join(', ')})`,
  );
  const pendingCount = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM approvals WHERE status = 'pending'");

  return {
    insert(record: ApprovalRecord): void {
      insert.run({ ...record, detail: JSON.stringify(record.detail) });
      changed(record.id);
    },
    get(id: string): ApprovalRecord | undefined {
      const row = get.get(id);
      return row && toRecord(row);
    },
    byToken(token: string): ApprovalRecord | undefined {
      const row = byToken.get(token, token);
      return row && toRecord(row);
    },
    list: (filter: ApprovalFilter): ApprovalRecord[] =>
      list.all({ status: filter.status ?? null, runId: filter.runId ?? null, instanceId: filter.instanceId ?? null, before: filter.before ?? null, limit: filter.limit }).map(toRecord),
    /** Records the decision; false when it was no longer pending (decided or expired meanwhile). */
    decide(id: string, decision: { status: 'allowed' | 'denied' | 'expired'; decidedBy: Decider | null; answer: string | null; note: string | null; decidedAt: string }): boolean {
      const done = decide.run({ id, ...decision, decidedBy: decision.decidedBy as string }).changes === 1;
      if (done) changed(id);
      return done;
    },
    /** When the next pending approval expires. */
    nextExpiry: (): string | null => nextExpiry.get()?.expires_at ?? null,
    overdue: (at: string): ApprovalRecord[] => overdue.all(at).map(toRecord),
    pendingForRun: (runId: string): ApprovalRecord[] => pendingForRun.all(runId).map(toRecord),
    pendingOfEndedRuns: (): ApprovalRecord[] => pendingOfEndedRuns.all().map(toRecord),
    pendingCount: (): number => pendingCount.get()?.n ?? 0,
  };
}

export type ApprovalsRepository = ReturnType<typeof createApprovalsRepository>;

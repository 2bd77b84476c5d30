// Writing approvals: pure over the store (the trigger writer thread makes before-run approvals as
// the main thread does), with the lines that say a run waits and what was decided.
import type { ApprovalDetail, Decider } from '../../../shared/contract';
import { newId, randomToken } from '../ids';
import type { Store } from '../store';
import { appendRunLine } from './run-lines';
import type { ApprovalRecord } from '../store/repositories/approvals';

export interface NewApproval {
  runId: string;
  instanceId: string;
  threadId: string;
  kind: ApprovalRecord['kind'];
  title: string;
  detail: ApprovalDetail;
  timeoutSeconds: number;
}

export const describeWait = (seconds: number): string =>
  seconds % 3600 === 0 ? `${seconds / 3600} h` : seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;

/** A system line on the run the approval belongs to, tagged as the run's own lines are. */
function runLine(store: Store, approval: Pick<NewApproval, 'runId'>, text: string, raw: Record<string, unknown>, at: Date): void {
  const run = store.runs.get(approval.runId);
  if (run) appendRunLine(store, run, 'system', text, raw, at);
}

/** A pending approval for a run, with a line in its thread and the feed. */
export function createApproval(store: Store, request: NewApproval, at: Date): ApprovalRecord {
  const record: ApprovalRecord = {
    id: newId('apr', at.getTime()),
    runId: request.runId,
    instanceId: request.instanceId,
    kind: request.kind,
    title: request.title,
    detail: request.detail,
    status: 'pending',
    decidedBy: null,
    answer: null,
    note: null,
    createdAt: at.toISOString(),
    expiresAt: new Date(at.getTime() + request.timeoutSeconds * 1000).toISOString(),
    decidedAt: null,
    allowToken: randomToken(32),
    denyToken: randomToken(32),
  };
  store.approvals.insert(record);
  const text = `Waiting for a person: ${request.title} (unanswered, it ${request.kind === 'run' ? 'is cancelled' : 'is denied'} after ${describeWait(request.timeoutSeconds)})`;
  store.threads.addMessage({ threadId: request.threadId, runId: request.runId, role: 'system', content: text, createdAt: record.createdAt });
  runLine(store, request, text, { type: 'approval.requested', approvalId: record.id, kind: request.kind }, at);
  return record;
}

const deciderWords: Record<Decider, string> = { ui: 'in the app', api: 'over the API', link: 'by a link', timeout: 'by the timeout' };

/** The audit: who decided what, when, with the note, in the run's thread and the feed. */
export function recordDecision(store: Store, approval: ApprovalRecord, at: Date): void {
  const run = store.runs.get(approval.runId);
  if (!run) return;
  const what =
    approval.status === 'expired'
      ? approval.decidedBy === null
        ? `The run ended before anyone answered "${approval.title}"`
        : `No one answered "${approval.title}" in time`
      : `${approval.status === 'allowed' ? 'Allowed' : 'Denied'} ${deciderWords[approval.decidedBy ?? 'api']}: ${approval.title}`;
  const text = [what, approval.answer && `answer: ${approval.answer}`, approval.note && `note: ${approval.note}`].filter(Boolean).join(' — ');
  store.threads.addMessage({ threadId: run.threadId, runId: run.id, role: 'system', content: text, createdAt: at.toISOString() });
  runLine(store, approval, text, { type: 'approval.decided', approvalId: approval.id, status: approval.status, decidedBy: approval.decidedBy, answer: approval.answer, note: approval.note }, at);
}

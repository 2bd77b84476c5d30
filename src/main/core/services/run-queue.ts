// Queuing a run: the one way a prompt enters the system, whether from a trigger, a schedule or
// "run now". Pure over the store, so the trigger writer thread uses it as the main thread does.
import type { ApprovalPolicy, Run, RunSource } from '../../../shared/contract';
import { newId } from '../ids';
import { createApproval } from './approval-records';
import type { Store } from '../store';

export interface RunRequest {
  instanceId: string;
  threadId: string;
  source: RunSource;
  sourceId: string | null;
  prompt: string;
  idempotencyKey?: string | null;
  /** For a scheduled fire: the time it was due. */
  scheduledFor?: Date | null;
  /** For a replayed webhook delivery: that delivery. */
  replayOf?: string | null;
  /** The run whose agent started it (directly, or by making the automation or webhook it comes from). */
  parentRunId?: string | null;
  /** For a retry: the failed run it repeats. */
  retryOf?: string | null;
  /** A queued run that must not start before this time (a retry's backoff). */
  startAfter?: Date | null;
  /** Wait for a person to allow it before it starts (an automation's or webhook's before-run approval). */
  approval?: { title: string; timeoutSeconds: number } | null;
}

/** The approval a run waits for under an automation's or webhook's policy, or none. */
export const beforeRun = (policy: ApprovalPolicy, title: string): RunRequest['approval'] => (policy.mode === 'before-run' ? { title, timeoutSeconds: policy.timeoutSeconds } : null);

/**
 * Writes one row, so a trigger costs one insert; the runner writes the prompt into the thread
 * and the activity log when the agent receives it. Synchronous: the caller owns the transaction.
 */
export function enqueueRun(store: Store, request: RunRequest, at: Date): Run {
  const parentRunId = request.parentRunId ?? null;
  // A parent deleted since (with its instance) still made this a child.
  const depth = parentRunId === null ? 0 : (store.runs.get(parentRunId)?.depth ?? 0) + 1;
  const run: Run = {
    id: newId('run', at.getTime()),
    instanceId: request.instanceId,
    threadId: request.threadId,
    source: request.source,
    sourceId: request.sourceId,
    status: request.approval ? 'waiting' : 'queued',
    prompt: request.prompt,
    scheduledFor: request.scheduledFor?.toISOString() ?? null,
    createdAt: at.toISOString(),
    startedAt: null,
    finishedAt: null,
    error: null,
    stderr: null,
    sessionId: null,
    resumedSessionId: null,
    replayOf: request.replayOf ?? null,
    parentRunId,
    depth,
    errorClass: null,
    retryOf: request.retryOf ?? null,
    startAfter: request.startAfter?.toISOString() ?? null,
    outcome: null,
    summary: null,
    costUsd: null,
    inputTokens: null,
    outputTokens: null,
  };
  store.runs.insert(run, request.idempotencyKey ?? null);
  if (request.approval) {
    createApproval(store, { runId: run.id, instanceId: run.instanceId, threadId: run.threadId, kind: 'run', title: request.approval.title, detail: { text: run.prompt }, timeoutSeconds: request.approval.timeoutSeconds }, at);
  }
  return run;
}

// Retries of failed runs: an automation's or webhook's run that failed for a reason its retry
// policy names, with attempts left, is queued again in the same thread to start after a backoff
// (or, for a usage limit whose reset time the agent said, at that time). Called at the run's end,
// in the same write; the feed says what was decided either way.
import type { ErrorClass, RetryPolicy, Run } from '../../../shared/contract';
import { enqueueRun } from './run-queue';
import { budgetBlock } from './budgets';
import type { Store } from '../store';
import { appendRunLine } from './run-lines';

const inWords: Record<ErrorClass, string> = {
  rate_limit: 'rate limited',
  overloaded: 'the model server was overloaded',
  network: 'the model server could not be reached',
  timeout: 'timed out',
  auth: 'the key or login was refused',
  usage_limit: 'the usage limit was reached',
  agent_error: "the agent's own error",
};

/**
 * Each wait doubles the one before; a random 0–20% is added (never taken off, so no retry comes
 * before the backoff the user set), so that runs that failed together do not all come back at
 * the same instant.
 */
export function backoffMs(policy: Pick<RetryPolicy, 'backoffSeconds'>, retry: number, random: () => number = Math.random): number {
  const nominal = policy.backoffSeconds * 1000 * 2 ** (retry - 1);
  return Math.round(nominal * (1 + 0.2 * random()));
}

function policyOf(store: Store, run: Run): RetryPolicy | undefined {
  if (run.sourceId === null) return undefined;
  if (run.source === 'automation') return store.automations.get(run.sourceId)?.retry;
  if (run.source === 'webhook') return store.webhooks.get(run.sourceId)?.retry;
  return undefined;
}

/** The runs this one retries, nearest first (its retryOf, that one's, ...). */
function earlierAttempts(store: Store, run: Run): Run[] {
  const earlier: Run[] = [];
  for (let id = run.retryOf; id; ) {
    const previous = store.runs.get(id);
    if (!previous) break;
    earlier.push(previous);
    id = previous.retryOf;
  }
  return earlier;
}

const shown = (at: Date) => at.toISOString().replace(/\.\d{3}Z$/, 'Z');

export function retryAfter(store: Store, run: Run, at: Date): void {
  if (run.status !== 'failed' && run.status !== 'timed_out') return;
  const policy = policyOf(store, run);
  const errorClass = run.errorClass;
  if (!policy || policy.attempts === 0 || !errorClass || !policy.on.includes(errorClass)) return;
  const earlier = earlierAttempts(store, run);
  const retry = earlier.length + 1;
  const resetsAt = errorClass === 'usage_limit' ? store.runs.resetsAt(run.id) : null;
  const say = (text: string, raw: Record<string, unknown>) => appendRunLine(store, run, 'system', text, { runId: run.id, errorClass, ...raw }, at);

  if (retry > policy.attempts) {
    say(`Not retried: all ${policy.attempts} ${policy.attempts === 1 ? 'retry was' : 'retries were'} used (${inWords[errorClass]})`, { type: 'run.retries_used', attempts: policy.attempts });
    return;
  }
  // A usage limit is waited out once: at its reset it has either reset or it never will by waiting.
  if (resetsAt !== null && earlier.some((each) => each.errorClass === 'usage_limit')) {
    say(`Not retried: the usage limit was waited for once already (${inWords[errorClass]})`, { type: 'run.retries_used', attempts: policy.attempts });
    return;
  }
  const block = budgetBlock(store, { instanceId: run.instanceId, automation: run.source === 'automation' ? store.automations.get(run.sourceId ?? '') : undefined }, at);
  if (block) {
    say(`Not retried: ${block.message}`, { type: 'run.retry_over_budget' });
    return;
  }
  const startAfter = resetsAt !== null ? new Date(Math.max(Date.parse(resetsAt), at.getTime())) : new Date(at.getTime() + backoffMs(policy, retry));
  const again = enqueueRun(
    store,
    { instanceId: run.instanceId, threadId: run.threadId, source: run.source, sourceId: run.sourceId, prompt: run.prompt, scheduledFor: run.scheduledFor ? new Date(run.scheduledFor) : null, parentRunId: run.parentRunId ?? null, retryOf: run.id, startAfter },
    at,
  );
  say(`Retrying at ${shown(startAfter)} (retry ${retry} of ${policy.attempts}): ${inWords[errorClass]}`, { type: 'run.retrying', retryRunId: again.id, startAfter: again.startAfter, retry, attempts: policy.attempts });
}

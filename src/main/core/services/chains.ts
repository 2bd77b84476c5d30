// Chained automations: when a run of an automation ends, each enabled automation that runs after
// it on that ending gets a queued run on its own instance and thread, its prompt filled with what
// the run left ({{previous.output}}, .status, .runId, .summary). The new run is the ended run's
// child, so a chain counts toward runner.maxRunDepth like runs that agents start; a follower over
// its budget is skipped as its scheduled fire would be.
import type { Run } from '../../../shared/contract';
import { followedId } from '../scheduler/schedule-of';
import { type PreviousField, previousPlaceholder } from '../../../shared/placeholders';
import type { AutomationRecord } from '../store/repositories/automations';
import type { Store } from '../store';
import { readSettings } from '../settings';
import { budgetBlock, recordBudgetSkip } from './budgets';
import { appendRunLine } from './run-lines';
import { beforeRun, enqueueRun } from './run-queue';

/** What a follower's prompt may quote of the run it follows; empty strings when there is none. */
export type PreviousRun = Record<PreviousField, string>;

/** A long answer is cut so the prompt stays within what a run may be sent. */
const maxOutputChars = 50_000;

export function previousOf(store: Store, run: Run): PreviousRun {
  const answer = store.threads.lastAnswer(run.id) ?? '';
  const output = answer.length > maxOutputChars ? `${answer.slice(0, maxOutputChars)}\n[… ${answer.length - maxOutputChars} more characters cut]` : answer;
  return { output, status: run.status, runId: run.id, summary: run.summary ?? '' };
}

const noPrevious: PreviousRun = { output: '', status: '', runId: '', summary: '' };

/** The prompt with its {{previous.…}} placeholders filled; other text, `$` patterns included, stays as written. */
export function renderChainPrompt(template: string, previous: PreviousRun = noPrevious): string {
  return template.replace(previousPlaceholder, (_placeholder, key: PreviousField) => previous[key]);
}

/** The prompt of a follower started by hand ("Run now"): after its predecessor's latest finished run, if any. */
export function promptByHand(store: Store, automation: AutomationRecord): string {
  const predecessorId = followedId(automation);
  if (predecessorId === undefined) return automation.prompt;
  const latest = store.runs.latestFor(predecessorId);
  const run = latest && store.runs.get(latest.id);
  return renderChainPrompt(automation.prompt, run && run.finishedAt !== null ? previousOf(store, run) : undefined);
}

const follows = (follower: AutomationRecord, run: Run): boolean => (follower.trigger?.after?.on as readonly string[] | undefined)?.includes(run.status) === true;

/** Queues the runs of the automations chained after `run`; the caller owns the transaction (the run's end). */
export function chainAfter(store: Store, run: Run, at: Date): void {
  if (run.source !== 'automation' || run.sourceId === null) return;
  // A retry was queued: its end, not this one, is the automation's ending.
  if (store.runs.retried(run.id)) return;
  const followers = store.automations.followersOf(run.sourceId).filter((follower) => follower.enabled && follows(follower, run));
  if (followers.length === 0) return;
  const { maxRunDepth } = readSettings(store).runner;
  const depth = run.depth ?? 0;
  const previous = previousOf(store, run);
  for (const follower of followers) {
    if (depth >= maxRunDepth) {
      const text = `${follower.name} did not start after this run: it ends a chain ${depth} run${depth === 1 ? '' : 's'} deep, and runs may start runs ${maxRunDepth} deep (Settings: runner.maxRunDepth).`;
      appendRunLine(store, run, 'system', text, { type: 'chain.depth_limit', runId: run.id, automationId: follower.id, depth, maxRunDepth }, at);
      continue;
    }
    // Over its budget, a link is skipped as a scheduled fire would be: a line, and one notice a period.
    const block = budgetBlock(store, { instanceId: follower.instanceId, automation: follower }, at);
    if (block) {
      recordBudgetSkip(store, block, follower.instanceId, at, { automationId: follower.id, label: 'cron' });
      continue;
    }
    const prompt = renderChainPrompt(follower.prompt, previous);
    const approval = beforeRun(follower.approval, `Start a run of "${follower.name}" after "${store.automations.get(run.sourceId)?.name ?? run.sourceId}"?`);
    enqueueRun(store, { instanceId: follower.instanceId, threadId: follower.threadId, source: 'automation', sourceId: follower.id, prompt, parentRunId: run.id, approval }, at);
  }
}

// Events into fires and runs, and the cursor's move, in one transaction: a run is queued for an
// event exactly when the cursor moves past it, so kill -9 at any point leaves either both or
// neither, and nothing runs twice. Every event is a fire record (History, health and the Agenda see
// it): fired, caught-up (found at start after Steward was off), skipped (filter, budget, stopped
// instance) or missed (the catch-up policy left it unrun).
import type { FireReason, FireState } from '../../../shared/contract';
import type { Store } from '../store';
import type { AutomationRecord } from '../store/repositories/automations';
import type { CursorChange } from '../store/repositories/source-state';
import { budgetBlock, recordBudgetSkip } from '../services/budgets';
import { beforeRun, enqueueRun } from '../services/run-queue';
import { eventFilterVerdict, renderEventPrompt } from './event-prompt';
import type { SourceEvent } from './source-kind';
import { eventKindOf } from '../../../shared/contract';

/** What the events are: live ones, found at start after Steward was off, or passed over (a first look, a resume). */
export type EventsMode = 'live' | 'catch-up' | 'baseline';

export interface EventsOutcome {
  /** The runs queued, by event key. */
  runs: Map<string, string>;
  recorded: number;
}

function filterOf(automation: AutomationRecord) {
  const kind = eventKindOf(automation.trigger);
  return kind === undefined ? [] : (automation.trigger![kind]!.filter ?? []);
}

/**
 * Records `events` for `automation` and applies `change` to its cursor, in one transaction. A
 * baseline only moves the cursor. At catch-up the automation's policy decides: all (each runs),
 * latest (the newest that passes the filter runs, the rest are missed) or skip (all missed).
 */
export function fireEvents(store: Store, automation: AutomationRecord, events: readonly SourceEvent[], change: CursorChange, mode: EventsMode, now: Date): EventsOutcome {
  const outcome: EventsOutcome = { runs: new Map(), recorded: 0 };
  store.transaction(() => {
    store.sourceState.apply(automation.id, change);
    if (mode === 'baseline' || events.length === 0) return;
    const recordedAt = now.toISOString();
    const filter = filterOf(automation);
    // The events found together are due a millisecond apart, in the order found: the Agenda and
    // History page by due time, and a burst of a thousand files must not share one.
    const order = new Map(events.map((event, index) => [event, index]));
    const record = (event: SourceEvent, state: FireState, reason: FireReason | null, detail: string | null, runId: string | null) => {
      const dueAt = new Date(now.getTime() + order.get(event)!).toISOString();
      store.fires.record({ automationId: automation.id, dueAt, eventKey: event.key, state, reason, detail, event: event.summary, runId, recordedAt });
      outcome.recorded += 1;
    };
    const passing = events.filter((event) => {
      const why = eventFilterVerdict(filter, event);
      if (why !== null) record(event, 'skipped', 'filter', `Not run: ${why}.`, null);
      return why === null;
    });
    const newest = passing.reduce<SourceEvent | undefined>((found, event) => (found === undefined || event.at >= found.at ? event : found), undefined);
    const instance = store.instances.get(automation.instanceId);
    for (const event of passing) {
      if (mode === 'catch-up' && (automation.catchUp === 'skip' || (automation.catchUp === 'latest' && event !== newest))) {
        const why = automation.catchUp === 'skip' ? 'this automation skips what happened while Steward was off' : 'only the latest event found at start runs';
        record(event, 'missed', 'steward_off', `Steward was not running; ${why}.`, null);
        continue;
      }
      if (instance?.status === 'stopped') {
        record(event, 'skipped', 'instance_stopped', `Not run: its instance ${instance.name} is stopped.`, null);
        continue;
      }
      const block = budgetBlock(store, { instanceId: automation.instanceId, automation }, now);
      if (block) {
        recordBudgetSkip(store, block, automation.instanceId, now);
        record(event, 'skipped', 'budget', block.message, null);
        continue;
      }
      const run = enqueueRun(
        store,
        {
          instanceId: automation.instanceId,
          threadId: automation.threadId,
          source: 'automation',
          sourceId: automation.id,
          prompt: renderEventPrompt(automation.prompt, event),
          scheduledFor: now,
          parentRunId: automation.createdByRunId,
          approval: beforeRun(automation.approval, `Start "${automation.name}" for ${event.summary}?`),
        },
        now,
      );
      outcome.runs.set(event.key, run.id);
      record(event, mode === 'catch-up' ? 'caught-up' : 'fired', null, null, run.id);
    }
  });
  return outcome;
}

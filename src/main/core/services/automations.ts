// Automations: a prompt on a cron schedule. The read model adds the next fire times and the last run.
// An update that changes nothing writes nothing.
import type { z } from 'zod';
import { type Automation, type AutomationCreate, type AutomationUpdate, type Run, noApproval, noRetry } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import { newId } from '../ids';
import type { Scheduler } from '../scheduler/scheduler';
import type { AutomationRecord } from '../store/repositories/automations';
import { type ServiceContext, isoNow } from './context';
import type { InstancesService } from './instances';
import type { RunsService } from './runs';
import { unchanged } from '../unchanged';
import { given, mergePatch } from './patch-merge';
import { automationsHealth } from './automation-health';
import { assertWithinBudget } from './budgets';
import { assertChainable, disableFollowers } from './chain-rules';
import { promptByHand } from './chains';
import { scheduleOf } from '../scheduler/schedule-of';
import type { SourceManager } from '../sources/source-manager';
import { renderEventPrompt } from '../sources/event-prompt';
import { eventKindOf } from '../../../shared/contract';
import { quotesEvent } from '../../../shared/placeholders';

/** The rules between a trigger and the rest of the automation that no one field's schema can check. */
function assertTriggerFits(record: AutomationRecord, now: Date, checkAt: boolean): void {
  const event = eventKindOf(record.trigger) !== undefined;
  if (!event && record.catchUp === 'all') {
    throw new AppError('invalid_field', 'catchUp "all" is for an event trigger (watch, git, mail, feed): a schedule catches up with latest or skip.', { field: 'catchUp' });
  }
  if (!event && quotesEvent(record.prompt)) {
    throw new AppError('invalid_field', 'The prompt quotes {{event…}}, which only an event trigger (watch, git, mail, feed) fills: it would be sent as written.', { field: 'prompt' });
  }
  const at = record.trigger?.at;
  if (at !== undefined && record.enabled && checkAt) {
    const schedule = scheduleOf(record);
    if (schedule && schedule.next(new Date(now.getTime() - 1), 1).length === 0) {
      throw new AppError('invalid_field', `trigger.at ${at} (${record.timezone}) is in the past: give a time to come.`, { field: 'trigger.at' });
    }
  }
}

export function createAutomationsService(
  context: ServiceContext,
  instances: InstancesService,
  runs: RunsService,
  scheduler: Scheduler,
  sources: SourceManager,
) {
  const { store } = context;

  // Each automation's next fire times, kept while they stand: the times after `now` stay the same as
  // the clock moves on, until the first of them passes or the schedule changes. Working them out (a
  // cron search and timezone conversions per fire) was half of what a list of thousands cost.
  const nextRunsKept = new Map<string, { schedule: string; fromAt: number; firstAt: number; nextRuns: string[] }>();
  function nextRunsOf(record: AutomationRecord): string[] {
    if (!record.enabled || (record.cronExpression === null && record.trigger?.at === undefined && record.trigger?.every === undefined)) return [];
    const now = context.now();
    const schedule = `${record.cronExpression}\n${JSON.stringify(record.trigger)}\n${record.timezone}`;
    const kept = nextRunsKept.get(record.id);
    if (kept?.schedule === schedule && now.getTime() >= kept.fromAt && now.getTime() < kept.firstAt) return kept.nextRuns;
    const times = scheduleOf(record)?.next(now, 5) ?? [];
    const nextRuns = times.map((date) => date.toISOString());
    // A schedule that never fires again is worked out again each time: it is rare and cheap.
    if (times.length > 0) nextRunsKept.set(record.id, { schedule, fromAt: now.getTime(), firstAt: times[0].getTime(), nextRuns });
    return nextRuns;
  }

  /** The read models of these automations, their health worked out together. */
  function present(records: AutomationRecord[]): Automation[] {
    const nextRuns = new Map(records.map((record) => [record.id, nextRunsOf(record)]));
    const health = automationsHealth(context, records.map((record) => record.id), (id) => nextRuns.get(id)?.[0] ?? null);
    // Field by field, leaving out the scheduler's lastFireAt and the alarm: a rest pattern copies
    // through the runtime, and over 10,000 records that was a tenth of the list's time.
    return records.map((record) => {
      const { health: shown, lastRun } = health.get(record.id)!;
      return {
        id: record.id, name: record.name, prompt: record.prompt, cronExpression: record.cronExpression, trigger: record.trigger, timezone: record.timezone, enabled: record.enabled,
        catchUp: record.catchUp, notify: record.notify, memory: record.memory, retry: record.retry, budget: record.budget, approval: record.approval, instanceId: record.instanceId,
        threadId: record.threadId, createdByRunId: record.createdByRunId, createdAt: record.createdAt, updatedAt: record.updatedAt,
        nextRuns: nextRuns.get(record.id)!, health: shown, source: sources.health(record), lastRunAt: lastRun?.createdAt ?? null, lastRunStatus: lastRun?.status ?? null,
      };
    });
  }
  const presentOne = (record: AutomationRecord): Automation => present([record])[0];

  /** Its schedule and source follow what was written, once it is committed. */
  function settle(id: string): void {
    store.afterCommit(() => {
      scheduler.sync(id);
      void sources.sync(id);
    });
  }

  function record(id: string): AutomationRecord {
    const found = store.automations.get(id);
    if (!found) throw new AppError('not_found', `No automation ${id}.`);
    return found;
  }

  function createRecord(input: z.output<typeof AutomationCreate>, createdByRunId: string | null): AutomationRecord {
    return store.transaction(() => {
      const instance = instances.target(input.instanceId);
      const now = isoNow(context);
      const id = newId('aut');
      const threadId = newId('thr');
      store.threads.insert(threadId, 'automation', id, now);
      const created: AutomationRecord = {
        id,
        name: input.name,
        prompt: input.prompt,
        cronExpression: input.cronExpression?.trim() ?? null,
        trigger: withAnchor(input.trigger ?? null, now),
        timezone: input.timezone,
        enabled: input.enabled,
        catchUp: input.catchUp ?? (eventKindOf(input.trigger ?? null) ? 'all' : 'latest'),
        notify: input.notify,
        memory: input.memory,
        retry: input.retry ?? noRetry,
        budget: input.budget ?? {},
        approval: input.approval ?? noApproval,
        alarm: null,
        lastFireAt: now,
        instanceId: instance.id,
        threadId,
        createdByRunId,
        createdAt: now,
        updatedAt: now,
      };
      assertChainable(store, created);
      assertTriggerFits(created, context.now(), true);
      store.automations.save(created);
      settle(id);
      return created;
    });
  }

  function updateRecord(id: string, patch: z.output<typeof AutomationUpdate>): AutomationRecord {
    const updated = store.transaction(() => {
      const current = record(id);
      const now = isoNow(context);
      const { cronExpression, trigger, instanceId, ...fields } = patch;
      const next = mergePatch(current, {
        ...fields,
        // A schedule and a trigger exclude each other: giving one drops the other.
        cronExpression: trigger ? null : cronExpression?.trim(),
        trigger: cronExpression !== undefined ? null : withAnchor(trigger ?? null, now) ?? undefined,
        instanceId: given(instanceId, (named) => instances.target(named).id),
        updatedAt: now,
      });
      // Off an event trigger, "run each event found" means nothing: a schedule catches up with the latest.
      if (patch.catchUp === undefined && next.catchUp === 'all' && eventKindOf(next.trigger) === undefined) next.catchUp = 'latest';
      if (unchanged(next, current, ['updatedAt'])) return undefined;
      // A new schedule, or a schedule switched back on, starts from now: nothing before counts as missed.
      const triggerChanged = JSON.stringify(next.trigger) !== JSON.stringify(current.trigger);
      const restarted = next.cronExpression !== current.cronExpression || triggerChanged || next.timezone !== current.timezone || (next.enabled && !current.enabled);
      if (restarted) next.lastFireAt = now;
      // A source watching something else starts afresh: the old cursor says nothing of it.
      if (triggerChanged) store.sourceState.clear(id);
      if (triggerChanged || patch.prompt !== undefined || patch.catchUp !== undefined || patch.enabled) assertTriggerFits(next, context.now(), triggerChanged || Boolean(patch.enabled));
      // A follower left disabled by its predecessor's deletion may be renamed, not switched on.
      if (next.enabled || patch.trigger) assertChainable(store, next);
      store.automations.save(next);
      settle(id);
      return next;
    });
    return updated ?? record(id);
  }

  return {
    list: (): Automation[] => present(store.automations.list()),
    get: (id: string): Automation => presentOne(record(id)),

    /** `createdByRunId`: the run whose agent made it, whose children its runs are. */
    create: (input: z.output<typeof AutomationCreate>, createdByRunId: string | null = null): Automation => presentOne(createRecord(input, createdByRunId)),
    update: (id: string, patch: z.output<typeof AutomationUpdate>): Automation => presentOne(updateRecord(id, patch)),
    /** Create and update without the read model (its health and next fires): for many at once, as an apply makes them. */
    createRecord: (input: z.output<typeof AutomationCreate>): AutomationRecord => createRecord(input, null),
    updateRecord: (id: string, patch: z.output<typeof AutomationUpdate>): AutomationRecord => updateRecord(id, patch),

    delete(id: string): void {
      store.transaction(() => {
        const current = record(id);
        store.automations.delete(id);
        nextRunsKept.delete(id);
        store.fires.deleteFor(id);
        store.sourceState.clear(id);
        store.threads.delete(current.threadId);
        disableFollowers(store, id, isoNow(context));
        settle(id);
      });
    },

    /** Queues a run of the automation's prompt now, whatever its schedule or enabled switch. */
    runNow(id: string): Run {
      const run = store.transaction(() => {
        const current = record(id);
        assertWithinBudget(store, { instanceId: current.instanceId, automation: current }, context.now());
        return runs.enqueue({ instanceId: current.instanceId, threadId: current.threadId, source: 'automation', sourceId: id, prompt: eventKindOf(current.trigger) ? renderEventPrompt(current.prompt, null) : promptByHand(store, current), parentRunId: current.createdByRunId });
      });
      return run;
    },
  };
}

/** An `every` trigger counts from when it was made unless it names its anchor. */
function withAnchor(trigger: AutomationRecord['trigger'], now: string): AutomationRecord['trigger'] {
  if (trigger?.every === undefined || trigger.every.from !== undefined) return trigger;
  return { ...trigger, every: { ...trigger.every, from: now } };
}

export type AutomationsService = ReturnType<typeof createAutomationsService>;

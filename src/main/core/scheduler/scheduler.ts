// The scheduler: enabled automations fire on their cron schedule, in their timezone, and never
// silently not at all. One timer for all automations, armed for the earliest fire and never
// longer than a minute, so a machine that slept or a clock that jumped is noticed. Fires that
// were missed (app closed, machine asleep) are dealt with at start and on such a jump: the latest
// one within 24 h runs once, late, and the rest are skipped with an activity line. Every due fire
// is recorded (fires table): fired, caught-up, skipped with why, or missed while Steward was off.
import type { Schedule } from '../../../shared/cron';
import { scheduleOf } from './schedule-of';
import type { Logger } from '../logger';
import type { Store } from '../store';
import type { AutomationRecord } from '../store/repositories/automations';
import type { FireReason, FireState } from '../../../shared/contract';
import { budgetBlock, recordBudgetSkip } from '../services/budgets';
import { beforeRun, enqueueRun } from '../services/run-queue';
import { checkAlarm } from '../services/automation-alarms';
import { type OffReport, reportOffTime } from './off-report';
import type { Clock } from './clock';
import { upcomingFires } from './upcoming';

const maxTimerMs = 60_000;
const earlyWakeMs = 250;
const retryMs = 5_000;
/** A timer this much later than asked for means the machine slept or the clock jumped. */
const jumpThresholdMs = 60_000;
const hourMs = 60 * 60 * 1000;
const catchUpWindowMs = 24 * hourMs;
/** Missed fires are counted up to this many; beyond it the line says "more than". */
const maxCounted = 100;
const pausedKey = 'scheduler.paused';
/** When the scheduler last knew itself running: the start of a time Steward was off. */
const aliveKey = 'scheduler.aliveAt';
/** Fire records kept, by due time. */
const keptMs = 60 * 24 * hourMs;
/** Why the catch-up runs: Steward was off (missed fires), or the machine slept under it (skipped). */
type CatchUpCause = 'start' | 'wake';

interface Entry {
  automation: AutomationRecord;
  schedule: Schedule;
  /** The next fire time, epoch ms; null when the expression never fires again. */
  next: number | null;
}

export interface SchedulerDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
}

const describeTime = (date: Date) => date.toISOString();

export function createScheduler({ store, clock, logger }: SchedulerDeps) {
  const entries = new Map<string, Entry>();
  let timer: unknown;
  let expectedAt: number | undefined;
  let running = false;
  const pausedListeners: ((paused: boolean) => void)[] = [];

  const paused = (): boolean => store.settings.get(pausedKey) === 'true';

  function systemLine(automation: AutomationRecord, text: string, raw: Record<string, unknown>, at: Date): void {
    store.activity.append({
      instanceId: automation.instanceId,
      runId: null,
      kind: 'system',
      label: 'cron',
      displayText: text,
      raw: JSON.stringify({ type: 'scheduler', automationId: automation.id, ...raw }),
      timestamp: at.toISOString(),
    });
  }

  function recordFire(automation: AutomationRecord, dueAt: Date, state: FireState, reason: FireReason | null, detail: string | null, runId: string | null, at: Date): void {
    store.fires.record({ automationId: automation.id, dueAt: dueAt.toISOString(), state, reason, detail, runId, recordedAt: at.toISOString() });
  }

  /** One fire: a run, or a skip with a line when its instance is stopped or its previous run is still queued or running. */
  function fire(automation: AutomationRecord, scheduledFor: Date, now: Date, late: boolean): void {
    const instance = store.instances.get(automation.instanceId);
    const skip =
      instance?.status === 'stopped'
        ? { reason: 'instance_stopped' as const, why: `its instance ${instance.name} is stopped` }
        : store.runs.hasActive(automation.id)
          ? { reason: 'overlap' as const, why: 'its previous run is still queued or running' }
          : undefined;
    const block = skip ? null : budgetBlock(store, { instanceId: automation.instanceId, automation }, now);
    if (block) {
      // Its own line, and the owner's notice once per period.
      recordBudgetSkip(store, block, automation.instanceId, now);
      recordFire(automation, scheduledFor, 'skipped', 'budget', block.message, null, now);
    } else if (skip) {
      systemLine(
        automation,
        `Skipped the ${describeTime(scheduledFor)} run of "${automation.name}": ${skip.why}.`,
        { event: 'fire_skipped', reason: skip.reason, scheduledFor: scheduledFor.toISOString() },
        now,
      );
      recordFire(automation, scheduledFor, 'skipped', skip.reason, `Not run: ${skip.why}.`, null, now);
    } else {
      const run = enqueueRun(
        store,
        { instanceId: automation.instanceId, threadId: automation.threadId, source: 'automation', sourceId: automation.id, prompt: automation.prompt, scheduledFor, parentRunId: automation.createdByRunId, approval: beforeRun(automation.approval, `Start the ${describeTime(scheduledFor)} run of "${automation.name}"?`) },
        now,
      );
      if (late) {
        systemLine(
          automation,
          `Late run of "${automation.name}": it was due at ${describeTime(scheduledFor)} and started at ${describeTime(now)}, because Steward was not running or the machine was asleep.`,
          { event: 'late_fire', runId: run.id, scheduledFor: scheduledFor.toISOString(), firedAt: now.toISOString() },
          now,
        );
      }
      recordFire(automation, scheduledFor, late ? 'caught-up' : 'fired', null, null, run.id, now);
    }
    setLastFire(automation, scheduledFor);
  }

  function setLastFire(automation: AutomationRecord, at: Date): void {
    automation.lastFireAt = at.toISOString();
    store.automations.setLastFire(automation.id, automation.lastFireAt);
  }

  /** An `at` automation whose time has been dealt with is done: disabled, kept with its run. */
  function finishOnce(entry: Entry): void {
    if (entry.automation.trigger?.at === undefined || entry.next !== null) return;
    const current = store.automations.get(entry.automation.id);
    if (current?.enabled) store.automations.save({ ...current, enabled: false, lastFireAt: entry.automation.lastFireAt, updatedAt: clock.now().toISOString() });
    entries.delete(entry.automation.id);
  }

  /** The latest fire in (from, now], searching back from now so that the work stays small. */
  function latestFire(schedule: Schedule, from: number, now: Date): Date | undefined {
    for (const span of [hourMs, catchUpWindowMs]) {
      // Fires are whole minutes apart at the least, so these limits never cut a span short.
      const fires = schedule.between(new Date(Math.max(from, now.getTime() - span)), now, span / 60_000 + 1);
      if (fires.length > 0) return fires.at(-1);
    }
    return undefined;
  }

  /**
   * Fires missed since the automation's last fire: the latest within 24 h runs late, the rest are
   * recorded missed (Steward was off) or skipped (the machine slept), with a line. Leaves entry.next
   * at the first fire after now, and adds what it found to `report`.
   */
  function catchUp(entry: Entry, now: Date, cause: CatchUpCause, report: OffReport): void {
    const { automation, schedule } = entry;
    const lastFire = new Date(automation.lastFireAt);
    const [firstMissed] = schedule.next(lastFire, 1);
    if (!firstMissed || firstMissed > now) {
      entry.next = firstMissed?.getTime() ?? null;
      return;
    }
    const latest = automation.catchUp === 'latest' ? latestFire(schedule, lastFire.getTime(), now) : undefined;
    const dueFires = schedule.between(lastFire, now, maxCounted + 2);
    const missed = dueFires.length;
    const skipped = latest ? missed - 1 : missed;
    if (skipped > 0) {
      const reason =
        automation.catchUp === 'skip'
          ? 'this automation skips missed runs'
          : latest
            ? 'only the latest missed run within 24 hours runs'
            : 'none of them was due within the last 24 hours';
      const count = skipped > maxCounted ? `more than ${maxCounted}` : String(skipped);
      systemLine(
        automation,
        `Skipped ${count} missed run(s) of "${automation.name}" due from ${describeTime(firstMissed)}: ${reason}.`,
        { event: 'missed_fires_skipped', since: lastFire.toISOString(), until: now.toISOString(), skipped: Math.min(skipped, maxCounted + 1) },
        now,
      );
      // Each recorded up to the counted limit; beyond it the line says "more than".
      const detail = cause === 'start' ? `Steward was not running; ${reason}.` : `The machine was asleep or its clock jumped; ${reason}.`;
      for (const due of dueFires.slice(0, maxCounted)) {
        if (latest && due.getTime() === latest.getTime()) continue;
        recordFire(automation, due, cause === 'start' ? 'missed' : 'skipped', cause === 'start' ? 'steward_off' : 'catch_up', detail, null, now);
      }
      report.missed += skipped;
      report.automations.add(automation.id);
    }
    if (latest) {
      fire(automation, latest, now, true);
      report.caughtUp += 1;
      report.automations.add(automation.id);
    } else setLastFire(automation, now);
    entry.next = nextAfter(schedule, automation, now);
  }

  /** The first fire after now, and never one already dealt with (the clock may have been set back). */
  function nextAfter(schedule: Schedule, automation: AutomationRecord, now: Date): number | null {
    const from = Math.max(now.getTime(), Date.parse(automation.lastFireAt));
    return schedule.next(new Date(from), 1)[0]?.getTime() ?? null;
  }

  function load(automation: AutomationRecord, now: Date | null): void {
    // One that runs after another automation, or on events, has no schedule: its predecessor's runs, or its source, start it.
    const schedule = scheduleOf(automation);
    if (schedule === null) return;
    // At start, catchUp works out the next fire along with the missed ones.
    entries.set(automation.id, { automation, schedule, next: now && nextAfter(schedule, automation, now) });
  }

  function arm(retryInMs?: number): void {
    if (timer !== undefined) clock.clearTimer(timer);
    timer = undefined;
    if (!running || paused()) return;
    let earliest = Infinity;
    for (const entry of entries.values()) if (entry.next !== null && entry.next < earliest) earliest = entry.next;
    const now = clock.now().getTime();
    if (retryInMs !== undefined) earliest = now + retryInMs;
    const untilDue = Math.max(earliest - now, 0);
    // Long timers wake tens of milliseconds late on a busy or virtual machine: wake a little
    // early, and let the short timer armed then hit the due time.
    const delay = untilDue > earlyWakeMs * 2 ? Math.min(untilDue - earlyWakeMs, maxTimerMs) : untilDue;
    expectedAt = now + delay;
    timer = clock.setTimer(tick, delay);
  }

  function catchUpAll(now: Date, cause: CatchUpCause): void {
    store.transaction(() => {
      const report: OffReport = { missed: 0, caughtUp: 0, automations: new Set() };
      for (const entry of entries.values()) catchUp(entry, now, cause, report);
      for (const entry of [...entries.values()]) finishOnce(entry);
      for (const id of report.automations) checkAlarm(store, id, now);
      if (cause === 'start') {
        const offSince = store.settings.get(aliveKey);
        if (offSince !== undefined) reportOffTime(store, report, new Date(offSince), now);
      }
      keepAlive(now);
    });
  }

  /** Notes that the scheduler is running now (at most one write a minute: each timer is). */
  function keepAlive(now: Date): void {
    store.settings.set(aliveKey, now.toISOString());
  }

  function tick(): void {
    timer = undefined;
    const now = clock.now();
    const woke = expectedAt !== undefined && now.getTime() - expectedAt > jumpThresholdMs;
    try {
      if (woke) {
        logger.info({ expectedAt: new Date(expectedAt!).toISOString(), now: now.toISOString() }, 'scheduler: timer late, checking for missed fires');
        catchUpAll(now, 'wake');
      } else {
        const due = [...entries.values()].filter((entry) => entry.next !== null && entry.next <= now.getTime());
        store.transaction(() => {
          for (const entry of due) fire(entry.automation, new Date(entry.next!), now, false);
          // An on-time fire may end a missed-fires alarm; only automations with one raised are looked at.
          const alarmed = store.automations.alarmed();
          for (const entry of due) if (alarmed.has(entry.automation.id)) checkAlarm(store, entry.automation.id, now);
          keepAlive(now);
        });
        for (const entry of due) entry.next = nextAfter(entry.schedule, entry.automation, now);
        store.transaction(() => due.forEach(finishOnce));
      }
    } catch (error) {
      // Nothing of the failed fires was stored (one transaction); they stay due and are tried again.
      logger.error({ err: error }, 'scheduler: could not record fires; retrying shortly');
      arm(retryMs);
      return;
    }
    arm();
  }

  return {
    /** Loads every enabled automation, deals with missed fires, and arms the timer. */
    start(): void {
      running = true;
      const now = clock.now();
      const isPaused = paused();
      for (const automation of store.automations.list()) {
        if (!automation.enabled) continue;
        try {
          load(automation, isPaused ? now : null);
        } catch (error) {
          // One automation whose stored schedule no longer compiles must not stop all the others.
          logger.error({ err: error, automationId: automation.id }, 'scheduler: cannot schedule this automation');
        }
      }
      store.fires.prune(new Date(now.getTime() - keptMs).toISOString());
      if (!isPaused) catchUpAll(now, 'start');
      arm();
    },

    stop(): void {
      if (running) keepAlive(clock.now());
      running = false;
      arm();
      entries.clear();
    },

    /** For the desktop app's power-resume event: deal with fires missed while asleep now, not at the next tick. */
    wake(): void {
      if (!running || paused()) return;
      try {
        catchUpAll(clock.now(), 'wake');
      } catch (error) {
        logger.error({ err: error }, 'scheduler: could not catch up after waking; retrying shortly');
        arm(retryMs);
        return;
      }
      arm();
    },

    /** Takes a created, changed or deleted automation into account at once. */
    sync(id: string): void {
      entries.delete(id);
      const automation = store.automations.get(id);
      if (running && automation?.enabled) load(automation, clock.now());
      arm();
    },

    setPaused(value: boolean): void {
      if (value === paused()) return;
      const now = clock.now();
      store.transaction(() => {
        // Resuming starts every schedule afresh: what fell due while paused stays unrun.
        if (!value) store.automations.setAllLastFire(now.toISOString());
        store.settings.set(pausedKey, String(value));
      });
      for (const entry of entries.values()) {
        if (!value) entry.automation.lastFireAt = now.toISOString();
        entry.next = nextAfter(entry.schedule, entry.automation, now);
      }
      arm();
      for (const listener of pausedListeners) listener(value);
    },

    isPaused: (): boolean => paused(),

    /** Hears pause and resume (the event sources stop and start with the schedules). */
    onPausedChange(listener: (paused: boolean) => void): void {
      pausedListeners.push(listener);
    },

    /** The fires still to come in [from, to) after the cursor, in order; none while paused. */
    upcoming(window: { from: number; to: number; after: { at: number; id: string } | null }, limit: number): { automation: AutomationRecord; schedule: Schedule; at: number }[] {
      if (paused()) return [];
      const now = clock.now().getTime();
      const sources = [...entries.values()].map((entry) => ({ item: entry, id: entry.automation.id, schedule: entry.schedule, next: entry.next }));
      return upcomingFires(sources, { ...window, from: Math.max(window.from, now) }, limit).map(({ item, at }) => ({ automation: item.automation, schedule: item.schedule, at }));
    },

    /** How many times an enabled automation fires in (from, to], counting no further than `limit`. */
    firesWithin(id: string, from: Date, to: Date, limit: number): number {
      return entries.get(id)?.schedule.between(from, to, limit).length ?? 0;
    },

    state() {
      let nextFireAt: number | null = null;
      if (!paused()) {
        for (const entry of entries.values()) if (entry.next !== null && (nextFireAt === null || entry.next < nextFireAt)) nextFireAt = entry.next;
      }
      return { paused: paused(), nextFireAt: nextFireAt === null ? null : new Date(nextFireAt).toISOString(), enabledAutomations: entries.size };
    },
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;

// The scheduler: enabled automations fire on their cron schedule, in their timezone, and never
// silently not at all. One timer for all automations, armed for the earliest fire and never
// longer than a minute, so a machine that slept or a clock that jumped is noticed. Fires that
// were missed (app closed, machine asleep) are dealt with at start and on such a jump: the latest
// one within 24 h runs once, late, and the rest are skipped with an activity line.
import { type Schedule, compileSchedule } from '../../../shared/cron';
import type { Logger } from '../logger';
import type { Store } from '../store';
import type { AutomationRecord } from '../store/repositories/automations';
import { enqueueRun } from '../services/run-queue';
import type { Clock } from './clock';

const maxTimerMs = 60_000;
const earlyWakeMs = 250;
/** A timer this much later than asked for means the machine slept or the clock jumped. */
const jumpThresholdMs = 60_000;
const catchUpWindowMs = 24 * 60 * 60 * 1000;
const pausedKey = 'scheduler.paused';

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

  /** One fire: a run, or a skip with a line when the previous run is still queued or running. */
  function fire(automation: AutomationRecord, scheduledFor: Date, now: Date, late: boolean): void {
    if (store.runs.hasActive(automation.id)) {
      systemLine(
        automation,
        `Skipped the ${describeTime(scheduledFor)} run of "${automation.name}": its previous run is still queued or running.`,
        { event: 'fire_skipped', reason: 'overlap', scheduledFor: scheduledFor.toISOString() },
        now,
      );
    } else {
      const run = enqueueRun(
        store,
        { instanceId: automation.instanceId, threadId: automation.threadId, source: 'automation', sourceId: automation.id, prompt: automation.prompt, scheduledFor },
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
    }
    setLastFire(automation, scheduledFor);
  }

  function setLastFire(automation: AutomationRecord, at: Date): void {
    automation.lastFireAt = at.toISOString();
    store.automations.setLastFire(automation.id, automation.lastFireAt);
  }

  /**
   * Fires missed since the automation's last fire: the latest within 24 h runs late, the rest are
   * skipped. Leaves entry.next at the first fire after now.
   */
  function catchUp(entry: Entry, now: Date): void {
    const { automation, schedule } = entry;
    const lastFire = new Date(automation.lastFireAt);
    const [firstSinceLast] = schedule.next(lastFire, 1);
    if (!firstSinceLast || firstSinceLast > now) {
      entry.next = firstSinceLast?.getTime() ?? null;
      return;
    }
    const windowStart = new Date(Math.max(lastFire.getTime(), now.getTime() - catchUpWindowMs));
    const recent = schedule.between(windowStart, now, 24 * 60 + 1);
    const latest = automation.catchUp === 'latest' ? recent.at(-1) : undefined;
    const skipped = latest ? recent.length - 1 : recent.length;
    const olderThanWindow = lastFire.getTime() < windowStart.getTime() && schedule.between(lastFire, windowStart, 1).length > 0;
    if (skipped > 0 || olderThanWindow) {
      const reason = automation.catchUp === 'skip' ? 'this automation skips missed runs' : 'only the latest missed run within 24 hours runs';
      const what = olderThanWindow ? `${skipped} missed run(s) in the last 24 hours and every earlier one` : `${skipped} missed run(s)`;
      systemLine(
        automation,
        `Skipped ${what} of "${automation.name}" since ${describeTime(lastFire)}: ${reason}.`,
        { event: 'missed_fires_skipped', since: lastFire.toISOString(), until: now.toISOString(), skipped, olderThanWindow },
        now,
      );
    }
    if (latest) fire(automation, latest, now, true);
    else setLastFire(automation, recent.at(-1) ?? now);
    entry.next = nextAfter(schedule, now);
  }

  const nextAfter = (schedule: Schedule, now: Date): number | null => schedule.next(now, 1)[0]?.getTime() ?? null;

  function load(automation: AutomationRecord, now: Date | null): void {
    const schedule = compileSchedule(automation.cronExpression, automation.timezone);
    // At start, catchUp works out the next fire along with the missed ones.
    entries.set(automation.id, { automation, schedule, next: now && nextAfter(schedule, now) });
  }

  function arm(): void {
    if (timer !== undefined) clock.clearTimer(timer);
    timer = undefined;
    if (!running || paused()) return;
    let earliest = Infinity;
    for (const entry of entries.values()) if (entry.next !== null && entry.next < earliest) earliest = entry.next;
    const now = clock.now().getTime();
    const untilDue = Math.max(earliest - now, 0);
    // Long timers wake tens of milliseconds late on a busy or virtual machine: wake a little
    // early, and let the short timer armed then hit the due time.
    const delay = untilDue > earlyWakeMs * 2 ? Math.min(untilDue - earlyWakeMs, maxTimerMs) : untilDue;
    expectedAt = now + delay;
    timer = clock.setTimer(tick, delay);
  }

  function catchUpAll(now: Date): void {
    store.transaction(() => {
      for (const entry of entries.values()) catchUp(entry, now);
    });
  }

  function tick(): void {
    timer = undefined;
    const now = clock.now();
    const woke = expectedAt !== undefined && now.getTime() - expectedAt > jumpThresholdMs;
    if (woke) {
      logger.info({ expectedAt: new Date(expectedAt!).toISOString(), now: now.toISOString() }, 'scheduler: timer late, checking for missed fires');
      catchUpAll(now);
    } else {
      const due = [...entries.values()].filter((entry) => entry.next !== null && entry.next <= now.getTime());
      if (due.length > 0) {
        store.transaction(() => {
          for (const entry of due) fire(entry.automation, new Date(entry.next!), now, false);
        });
        for (const entry of due) entry.next = nextAfter(entry.schedule, now);
      }
    }
    arm();
  }

  return {
    /** Loads every enabled automation, deals with missed fires, and arms the timer. */
    start(): void {
      running = true;
      const now = clock.now();
      const isPaused = paused();
      for (const automation of store.automations.list()) if (automation.enabled) load(automation, isPaused ? now : null);
      if (!isPaused) catchUpAll(now);
      arm();
    },

    stop(): void {
      running = false;
      arm();
      entries.clear();
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
        entry.next = nextAfter(entry.schedule, now);
      }
      arm();
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

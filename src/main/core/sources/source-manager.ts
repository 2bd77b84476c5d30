// Runs each enabled event automation's source (watch, git, mail, feed) and keeps its runtime health,
// so that a dead consumer cannot pass for a live one: a source is `listening` only while it keeps
// giving signs of life (a connection, a NOOP answered, a poll, a scan); silence for three times its
// liveness interval counts as a failure, and the attempt is abandoned and started again. A failing
// source is retried with backoff; after the unhealthy-after setting's failures in a row the
// automation-unhealthy notice is raised once, and automation-recovered when it listens again.
import fs from 'node:fs';
import path from 'node:path';
import type { AutomationTrigger, EventCondition, EventKind, PreviewedEvent, SourceHealth } from '../../../shared/contract';
import { eventFilterVerdict } from './event-prompt';
import { AppError } from '../../../shared/errors';
import { eventKindOf } from '../../../shared/contract';
import type { Logger } from '../logger';
import type { Clock } from '../scheduler/clock';
import type { Store } from '../store';
import type { AutomationRecord } from '../store/repositories/automations';
import { readSettings } from '../settings';
import { postNotice } from '../services/notices';
import { type EventsMode, fireEvents } from './event-fires';
import { loadSourceKind } from './kinds';
import type { SourceContext, SourceEvent, SourceKind, SourcePhase } from './source-kind';
import { reachFor } from './source-reach';
import { sleep } from './sleep';
import { triggerWords } from '../../../shared/trigger-words';

const endedStatuses = new Set(['succeeded', 'failed', 'cancelled', 'timed_out', 'interrupted']);

export interface SourceManagerDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  /** Steward's data folder (a source keeps what it needs beyond its cursor under sources/). */
  dataDir: string;
  /** A stored secret's value, or undefined. */
  revealSecret: (name: string) => string | undefined;
  /** Steward's own port: a source never reaches Steward's API. */
  stewardPort: () => number | undefined;
  /** The wait before the next attempt after `failures` failed ones; tests shorten it. */
  backoffMs?: (failures: number) => number;
  /** Whether automations are paused (the scheduler's switch). */
  paused: () => boolean;
  /** The kinds' code; tests give scripted ones. */
  loadKind?: (kind: EventKind) => Promise<SourceKind<unknown>>;
}

const previewTimeoutMs = 15_000;

export const defaultBackoffMs = (failures: number): number => Math.min(1000 * 2 ** Math.max(0, failures - 1), 5 * 60_000);

/** The longest wait between attempts: the source's own interval, within 30 s and 5 min (a feed polled hourly is not retried every 30 s). */
const backoffCapOf = (kind: AnyKind, config: unknown): number => Math.min(Math.max(kind.livenessMs(config), 30_000), 5 * 60_000);

interface Running {
  automationId: string;
  kind: EventKind;
  /** The trigger as started: a change of it starts the source afresh. */
  configText: string;
  /** Stops the source for good (disabled, changed, deleted, Steward stopping). */
  stop: AbortController;
  /** The attempt now running: aborted by the watchdog when it falls silent. */
  attempt: AbortController | undefined;
  health: SourceHealth;
  lastSignAt: number;
  /** Whether a first look has been handed over since it started: until then a retry keeps the first phase. */
  looked: boolean;
  /** The secrets' values it was given: never shown in its error, whatever the server echoes. */
  revealed: Set<string>;
  done: Promise<void>;
}

type AnyKind = SourceKind<unknown>;

function configOf(trigger: AutomationTrigger, kind: EventKind): unknown {
  return trigger[kind];
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error)) || 'it failed without saying why';

/**
 * `text` without the secrets' values, as written or as an HTTP Basic header carries them: a server's
 * words are shown to whoever reads the automation (a run's key on its instance too), and a hostile
 * server can echo what it was sent.
 */
export function redacted(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const value of secrets) {
    if (value.length < 4) continue;
    for (const form of [value, Buffer.from(value).toString('base64'), Buffer.from(`x-access-token:${value}`).toString('base64')]) out = out.split(form).join('[secret]');
  }
  return out;
}

export function createSourceManager(deps: SourceManagerDeps) {
  const { store, clock, logger } = deps;
  const backoffMs = deps.backoffMs ?? defaultBackoffMs;
  const loadKind = deps.loadKind ?? loadSourceKind;
  const running = new Map<string, Running>();
  let started = false;
  let unsubscribe: (() => void) | undefined;
  let watchdog: ReturnType<typeof setInterval> | undefined;
  /** Each running source's liveness interval, from its kind. */
  const livenessKnown = new Map<string, number>();

  const iso = () => clock.now().toISOString();

  function secret(name: string): string {
    const value = deps.revealSecret(name);
    if (value === undefined) throw new Error(`There is no secret named "${name}": add it under Settings → Secrets.`);
    return value;
  }

  const reach = (host: string, port: number, named: { host: string; port: number }) => reachFor(host, port, named, deps.stewardPort());

  function raise(entry: Running, automation: AutomationRecord): void {
    if (automation.alarm === 'deaf') return;
    store.automations.setAlarm(automation.id, 'deaf');
    const failures = entry.health.failures;
    postNotice(
      store,
      {
        kind: 'automation-unhealthy',
        title: `${automation.name} is not listening`,
        body: `"${automation.name}" waits ${triggerWords(automation.trigger!, automation.timezone).replace(/^When /, 'for when ')}, but its source failed ${failures} times in a row: ${entry.health.error}. Steward keeps trying.`,
        instanceId: automation.instanceId,
        automationId: automation.id,
      },
      clock.now(),
    );
  }

  function recover(automation: AutomationRecord): void {
    if (automation.alarm !== 'deaf') return;
    store.automations.setAlarm(automation.id, null);
    postNotice(store, { kind: 'automation-recovered', title: `${automation.name} recovered`, body: `"${automation.name}" is listening again.`, instanceId: automation.instanceId, automationId: automation.id }, clock.now());
  }

  function setState(entry: Running, state: SourceHealth['state'], error: string | null): void {
    if (entry.health.state === state && entry.health.error === error) return;
    entry.health = { ...entry.health, state, error, since: iso() };
    // The app shows the change at once (a card's badge), without asking again and again.
    store.automations.announce(entry.automationId);
  }

  function failed(entry: Running, error: unknown): void {
    const message = redacted(messageOf(error), entry.revealed);
    entry.health = { ...entry.health, failures: entry.health.failures + 1 };
    setState(entry, 'failing', message);
    logger.warn({ automationId: entry.automationId, kind: entry.kind, failures: entry.health.failures, err: message }, 'event source failed; retrying');
    const automation = store.automations.get(entry.automationId);
    if (automation && entry.health.failures >= readSettings(store).notifications.unhealthyAfter) {
      try {
        raise(entry, automation);
      } catch (storeError) {
        logger.error({ err: storeError }, 'event source: could not raise its notice');
      }
    }
  }

  function contextFor(entry: Running, config: unknown, timezone: string, phase: SourcePhase, signal: AbortSignal): SourceContext<unknown> {
    return {
      automationId: entry.automationId,
      config,
      dataDir: deps.dataDir,
      timezone,
      phase,
      signal,
      logger: logger.child({ automationId: entry.automationId, source: entry.kind }),
      now: () => clock.now(),
      cursor: {
        get: (key) => store.sourceState.get(entry.automationId, key),
        entries: (prefix) => store.sourceState.entries(entry.automationId, prefix),
      },
      emit(events: readonly SourceEvent[], change, options = {}) {
        if (signal.aborted) throw new Error('this source was stopped');
        const automation = store.automations.get(entry.automationId);
        if (!automation) throw new Error('its automation was deleted');
        const mode: EventsMode = !options.initial || phase === 'reconnect' ? 'live' : phase === 'start' ? 'catch-up' : 'baseline';
        const outcome = fireEvents(store, automation, events, change, mode, clock.now());
        if (options.initial) entry.looked = true;
        if (outcome.recorded > 0) entry.health = { ...entry.health, lastEventAt: iso() };
      },
      alive(how) {
        if (signal.aborted) return;
        entry.lastSignAt = clock.now().getTime();
        const wasListening = entry.health.state === 'listening';
        entry.health = { ...entry.health, lastCheckAt: iso(), how: how ?? entry.health.how, failures: 0 };
        setState(entry, 'listening', null);
        // An alarm raised before (in this process or the last) ends when it listens again.
        if (!wasListening) {
          const automation = store.automations.get(entry.automationId);
          if (automation) recover(automation);
        }
      },
      secret(name) {
        const value = secret(name);
        entry.revealed.add(value);
        return value;
      },
      reach,
    };
  }

  async function loop(entry: Running, kind: AnyKind, automation: AutomationRecord, firstPhase: SourcePhase): Promise<void> {
    let phase = firstPhase;
    const config = configOf(automation.trigger!, entry.kind);
    while (!entry.stop.signal.aborted) {
      const attempt = new AbortController();
      const onStop = () => attempt.abort(entry.stop.signal.reason);
      entry.stop.signal.addEventListener('abort', onStop, { once: true });
      entry.attempt = attempt;
      entry.lastSignAt = clock.now().getTime();
      setState(entry, entry.health.state === 'failing' ? 'failing' : 'checking', entry.health.state === 'failing' ? entry.health.error : null);
      try {
        await kind.run(contextFor(entry, config, automation.timezone, phase, attempt.signal));
        if (entry.stop.signal.aborted) break;
        throw attempt.signal.aborted ? attempt.signal.reason : new Error('the source stopped by itself');
      } catch (error) {
        if (entry.stop.signal.aborted) break;
        failed(entry, attempt.signal.aborted && attempt.signal.reason instanceof Error ? attempt.signal.reason : error);
      } finally {
        entry.stop.signal.removeEventListener('abort', onStop);
        entry.attempt = undefined;
      }
      // A source that failed before its first look keeps its phase: a baseline stays a baseline, and
      // what came while Steward was off still meets the catch-up policy.
      if (entry.looked) phase = 'reconnect';
      await sleep(Math.min(backoffMs(entry.health.failures), backoffCapOf(kind, config)), entry.stop.signal);
    }
  }

  /** Abandons attempts that fell silent: three liveness intervals without a sign of life. */
  function checkSilence(): void {
    const now = clock.now().getTime();
    for (const entry of running.values()) {
      const attempt = entry.attempt;
      if (!attempt) continue;
      const limit = 3 * (livenessKnown.get(entry.automationId) ?? 60_000);
      if (now - entry.lastSignAt > limit) {
        const seconds = Math.round((now - entry.lastSignAt) / 1000);
        attempt.abort(new Error(entry.health.state === 'listening' ? `no sign of life for ${seconds} s (it should answer every ${Math.round(limit / 3000)} s)` : `no answer for ${seconds} s`));
      }
    }
  }


  function start(automation: AutomationRecord, phase: SourcePhase): void {
    const kindName = eventKindOf(automation.trigger);
    if (!kindName) return;
    const entry: Running = {
      automationId: automation.id,
      kind: kindName,
      configText: JSON.stringify(automation.trigger),
      stop: new AbortController(),
      attempt: undefined,
      health: { state: 'checking', since: iso(), error: null, how: null, lastEventAt: store.fires.latest(automation.id)?.recordedAt ?? null, lastCheckAt: null, failures: 0 },
      lastSignAt: clock.now().getTime(),
      looked: false,
      revealed: new Set(),
      done: Promise.resolve(),
    };
    running.set(automation.id, entry);
    entry.done = loadKind(kindName).then(
      (kind) => {
        livenessKnown.set(automation.id, kind.livenessMs(configOf(automation.trigger!, kindName)));
        return loop(entry, kind, automation, phase);
      },
      (error: unknown) => {
        entry.health = { ...entry.health, state: 'failing', error: `Steward could not load its ${kindName} source: ${messageOf(error)}`, since: iso() };
      },
    );
  }

  async function stopOne(id: string): Promise<void> {
    const entry = running.get(id);
    if (!entry) return;
    running.delete(id);
    livenessKnown.delete(id);
    entry.stop.abort(new Error('stopped'));
    await entry.done;
  }

  function forgetFiles(id: string): void {
    const folder = path.join(deps.dataDir, 'sources');
    for (const name of [id, `${id}.git`]) fs.rmSync(path.join(folder, name), { recursive: true, force: true });
  }

  const wantsSource = (automation: AutomationRecord | undefined): automation is AutomationRecord => automation !== undefined && automation.enabled && eventKindOf(automation.trigger) !== undefined;

  function runEnded(runId: string, status: string): void {
    const found = store.fires.eventOfRun(runId);
    const entry = found && running.get(found.automationId);
    const automation = found && store.automations.get(found.automationId);
    if (!found || !entry || !automation?.trigger) return;
    void loadKind(entry.kind).then(async (kind) => {
      if (!kind.afterRun) return;
      const config = configOf(automation.trigger!, entry.kind);
      try {
        await kind.afterRun({ config, secret, reach, logger, signal: entry.stop.signal }, found.eventKey, status);
      } catch (error) {
        logger.warn({ automationId: automation.id, runId, err: redacted(messageOf(error), entry.revealed) }, 'event source: the after-run step failed');
      }
    });
  }

  return {
    /** Starts every enabled event automation's source: one with a cursor catches up, one without takes its baseline. */
    start(): void {
      started = true;
      unsubscribe = store.subscribe((change) => {
        if (change.type === 'run' && change.status !== undefined && endedStatuses.has(change.status)) runEnded(change.runId, change.status);
      });
      watchdog = setInterval(checkSilence, 1000);
      watchdog.unref?.();
      if (deps.paused()) return;
      for (const automation of store.automations.list()) {
        if (wantsSource(automation)) start(automation, store.sourceState.has(automation.id) ? 'start' : 'first');
      }
    },

    async stop(): Promise<void> {
      started = false;
      unsubscribe?.();
      unsubscribe = undefined;
      if (watchdog) clearInterval(watchdog);
      await Promise.all([...running.keys()].map(stopOne));
    },

    /**
     * Takes a created, changed or deleted automation into account: a source whose trigger is the
     * same keeps running (a new name or prompt applies at its next event); a changed trigger starts
     * afresh (its cursor was cleared with the change); one switched back on passes over what came
     * while it was off, as a schedule switched back on does.
     */
    async sync(id: string): Promise<void> {
      const automation = store.automations.get(id);
      const entry = running.get(id);
      const wanted = started && !deps.paused() && wantsSource(automation);
      if (entry && wanted && entry.configText === JSON.stringify(automation.trigger)) return;
      await stopOne(id);
      // What a source kept beyond its cursor (a git remote's mirror) goes with it: deleted, or its trigger changed.
      if (!automation || !store.sourceState.has(id)) forgetFiles(id);
      if (!wanted || running.has(id)) return;
      const current = store.automations.get(id);
      if (!wantsSource(current)) return;
      start(current, !store.sourceState.has(id) ? 'first' : entry ? 'reconnect' : 'resume');
    },

    /** Pausing stops every source; resuming starts them passing over what came meanwhile. */
    async setPaused(paused: boolean): Promise<void> {
      if (!started) return;
      if (paused) {
        await Promise.all([...running.keys()].map(stopOne));
        return;
      }
      for (const automation of store.automations.list()) {
        if (wantsSource(automation) && !running.has(automation.id)) start(automation, store.sourceState.has(automation.id) ? 'resume' : 'first');
      }
    },

    /** The runtime health of an automation's source; null when it has none (not an event trigger). */
    health(automation: Pick<AutomationRecord, 'id' | 'trigger' | 'enabled'>): SourceHealth | null {
      if (eventKindOf(automation.trigger) === undefined) return null;
      const entry = running.get(automation.id);
      if (entry) return entry.health;
      const why = !automation.enabled ? 'it is disabled' : deps.paused() ? 'automations are paused' : 'it is not running';
      return { state: 'checking', since: iso(), error: null, how: `not listening: ${why}`, lastEventAt: store.fires.latest(automation.id)?.recordedAt ?? null, lastCheckAt: null, failures: 0 };
    },

    /** What the source would have fired in the last 24 hours, newest first, at most 50 (the form's preview). */
    async preview(trigger: AutomationTrigger, timezone: string): Promise<PreviewedEvent[]> {
      const kindName = eventKindOf(trigger);
      if (!kindName) throw new AppError('invalid_trigger', 'Only an event trigger (watch, git, mail, feed) has a source to preview.', { field: 'trigger' });
      const kind = await loadKind(kindName);
      if (!kind.preview) return [];
      const signal = AbortSignal.timeout(previewTimeoutMs);
      const revealed = new Set<string>();
      try {
        const config = configOf(trigger, kindName) as { filter?: EventCondition[] };
        const given = (name: string) => {
          const value = secret(name);
          revealed.add(value);
          return value;
        };
        const events = await kind.preview(config, { secret: given, reach, now: () => clock.now(), timezone, signal });
        // What would have fired: the events the trigger's filter passes.
        return events.filter((event) => eventFilterVerdict(config.filter ?? [], event) === null).slice(0, 50).map(({ key, at, summary }) => ({ key, at, summary }));
      } catch (error) {
        throw new AppError('source_unreachable', signal.aborted ? `The source did not answer within ${previewTimeoutMs / 1000} s.` : redacted(messageOf(error), revealed));
      }
    },
  };
}

export type SourceManager = ReturnType<typeof createSourceManager>;

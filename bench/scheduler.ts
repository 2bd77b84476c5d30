// Scheduler at scale: 10,000 enabled automations. Start time, memory, CPU while nothing is due,
// and fire lag (actual minus due time) when 1,000 of them are due in the same second. With 30 days
// of fire records beside them (`scheduler-fires`: about 14M rows, against none in the same run),
// the same figures and the agenda of a week.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { silentLogger } from '../src/main/core/logger';
import { type Clock, systemClock } from '../src/main/core/scheduler/clock';
import { createServices } from '../src/main/core/compose-services';
import { openStore } from '../src/main/core/store';
import { newId } from '../src/main/core/ids';
import { noApproval, noRetry } from '../src/shared/contract';

const total = 10_000;
const dueTogether = 1_000;
const idleSeconds = Number(process.env.BENCH_IDLE_SECONDS ?? 60);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

/** 30 days of records, every 30 minutes, for each automation: 14.4M rows for 10,000. */
function seedFires(store: ReturnType<typeof openStore>, perAutomation: number, now: number): number {
  const ids = store.db.prepare<[], { id: string; run: string }>('SELECT id, id AS run FROM automations').all();
  const insert = store.db.prepare<[string, string, string, string | null, string | null, string]>(
    'INSERT INTO fires (automation_id, due_at, state, reason, detail, run_id, recorded_at) VALUES (?, ?, ?, ?, ?, NULL, ?)',
  );
  const step = 30 * 60_000;
  const first = Math.floor(now / step) * step - perAutomation * step;
  let rows = 0;
  // Time-ordered in batches, as fires are written: the due-time index grows at its end.
  for (let slot = 0; slot < perAutomation; slot++) {
    const due = new Date(first + slot * step).toISOString();
    store.transaction(() => {
      for (const { id } of ids) {
        const missed = (rows + slot) % 97 === 0;
        insert.run(id, due, missed ? 'missed' : 'fired', missed ? 'steward_off' : null, missed ? 'Steward was not running.' : null, due);
        rows++;
      }
    });
  }
  return rows;
}

export async function schedulerBench(options: { firesPerAutomation?: number } = {}): Promise<Record<string, unknown>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'steward-bench-scheduler-'));
  const store = openStore(path.join(dataDir, 'steward.db'));
  // The end of each tick.
  const tickEnds: number[] = [];
  const clock: Clock = {
    ...systemClock,
    setTimer: (callback, delayMs) =>
      systemClock.setTimer(() => {
        callback();
        tickEnds.push(Date.now());
      }, delayMs),
  };
  const services = createServices({ store, clock, now: () => clock.now(), logger: silentLogger(), dataDir, baseUrl: () => '' });
  try {
    const instanceId = services.instances.ensureDefault().id;
    const now = new Date().toISOString();
    const timezones = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Sydney'];
    store.transaction(() => {
      for (let i = 0; i < total; i++) {
        const id = newId('aut');
        const threadId = newId('thr');
        store.threads.insert(threadId, 'automation', id, now);
        store.automations.save({
          id, name: `bench ${i}`, prompt: 'p', enabled: true, catchUp: 'latest', notify: 'default', memory: 'fresh', trigger: null, retry: noRetry, budget: {}, approval: noApproval, alarm: null, lastFireAt: now, instanceId, threadId, createdByRunId: null, createdAt: now, updatedAt: now,
          // 1,000 fire every minute; the rest at varied times that are not due during the run.
          cronExpression: i < dueTogether ? '* * * * *' : `${i % 60} ${i % 24} ${1 + (i % 28)} ${1 + (i % 12)} *`,
          timezone: timezones[i % timezones.length],
        });
      }
    });

    const fireRows = options.firesPerAutomation ? seedFires(store, options.firesPerAutomation, Date.now()) : 0;
    // Seeding takes a while: the schedules start from now, not from before it (no catch-up to measure).
    store.db.prepare('UPDATE automations SET last_fire_at = ?').run(new Date().toISOString());
    store.db.pragma('wal_checkpoint(TRUNCATE)');

    const rssBefore = process.memoryUsage().rss;
    const startedAt = performance.now();
    services.scheduler.start();
    const startMs = performance.now() - startedAt;
    const rssAfter = process.memoryUsage().rss;

    // Idle: pause the every-minute ones so nothing is due, and measure this process's CPU.
    store.db.prepare("UPDATE automations SET enabled = 0 WHERE cron_expression = '* * * * *'").run();
    const everyMinute = store.db.prepare<[], { id: string }>("SELECT id FROM automations WHERE cron_expression = '* * * * *'").all();
    for (const { id } of everyMinute) services.scheduler.sync(id);
    const cpuBefore = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    const cpu = process.cpuUsage(cpuBefore);
    const idleCpuPercent = ((cpu.user + cpu.system) / 1000 / (idleSeconds * 1000)) * 100;

    // Fire: switch the 1,000 back on and wait for the next minute, when all fall due together.
    store.db.prepare("UPDATE automations SET enabled = 1, last_fire_at = ? WHERE cron_expression = '* * * * *'").run(new Date().toISOString());
    for (const { id } of everyMinute) services.scheduler.sync(id);
    const due = Math.floor(Date.now() / 60_000) * 60_000 + 60_000;
    await new Promise((resolve) => setTimeout(resolve, due - Date.now() + 1_000));
    const runs = store.db.prepare<[string], { created_at: string }>('SELECT created_at FROM runs WHERE scheduled_for = ?').all(new Date(due).toISOString());
    const lags = runs.map((run) => Date.parse(run.created_at) - due).sort((a, b) => a - b);
    // When the tick that took the fires had also worked out each automation's next fire.
    const tickDoneMs = (tickEnds.find((end) => end >= due) ?? NaN) - due;

    // The agenda of today and the next 7 days (the UI's view), answered and serialised as the API would.
    const agendaTimes: number[] = [];
    let agendaEntries = 0;
    for (let i = 0; i < 20; i++) {
      const begun = performance.now();
      const agenda = services.agenda.get({ limit: 2000 });
      JSON.stringify(agenda);
      agendaTimes.push(performance.now() - begun);
      agendaEntries = agenda.entries.length;
    }
    agendaTimes.sort((a, b) => a - b);

    const result = {
      benchmark: 'scheduler',
      automations: total,
      fireRows,
      agendaMs: { p50: Math.round(percentile(agendaTimes, 50) * 10) / 10, max: Math.round(agendaTimes.at(-1)! * 10) / 10, entries: agendaEntries },
      startMs: Math.round(startMs),
      rssMiB: Math.round(rssAfter / 2 ** 20),
      rssGrowthMiB: Math.round((rssAfter - rssBefore) / 2 ** 20),
      idleSeconds,
      idleCpuPercent: Number(idleCpuPercent.toFixed(3)),
      fired: runs.length,
      fireLagMs: { p50: percentile(lags, 50), p99: percentile(lags, 99) },
      tickDoneMs,
      targets: { startMsBelow: 1000, fireLagP99MsBelow: 50, idleCpuPercentBelow: 1, agendaMsBelow: 100 },
    };
    return {
      ...result,
      met: runs.length === dueTogether && startMs < 1000 && result.fireLagMs.p99 < 50 && idleCpuPercent < 1 && result.agendaMs.p50 < 100,
    };
  } finally {
    services.scheduler.stop();
    store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The same scheduler without fire records and with 30 days of them, side by side. */
export async function schedulerFiresBench(): Promise<Record<string, unknown>> {
  const perAutomation = Number(process.env.BENCH_FIRES_PER_AUTOMATION ?? 30 * 48);
  const baseline = await schedulerBench();
  const withFires = await schedulerBench({ firesPerAutomation: perAutomation });
  return { benchmark: 'scheduler-fires', baseline, withFires, met: baseline.met === true && withFires.met === true };
}

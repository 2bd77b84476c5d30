// automations table <-> automation records (the read model adds nextRuns and the last run).
import type Database from 'better-sqlite3';
import type { CommitHooks } from '../commit-hooks';
import { ApprovalPolicy, AutomationTrigger, Budget, type Memory, type NotifyOverride, RetryPolicy, type catchUpModes } from '../../../../shared/contract';

type CatchUpMode = (typeof catchUpModes)[number];

interface AutomationRow {
  id: string;
  name: string;
  prompt: string;
  cron_expression: string;
  trigger: string | null;
  timezone: string;
  enabled: number;
  catch_up: CatchUpMode;
  notify: NotifyOverride;
  memory: Memory;
  retry: string;
  budget: string;
  approval: string;
  alarm: AutomationAlarm | null;
  last_fire_at: string | null;
  instance_id: string;
  thread_id: string;
  created_by_run_id: string | null;
  created_at: string;
  updated_at: string;
}

/** The alarm last raised for an automation (its unhealthy notification); null: none, or it recovered. */
/** `deaf`: its event source has failed the unhealthy-after setting's attempts in a row. */
export type AutomationAlarm = 'failing' | 'missing' | 'deaf';

export interface AutomationRecord {
  id: string;
  name: string;
  prompt: string;
  /** null: it has a trigger instead. */
  cronExpression: string | null;
  trigger: AutomationTrigger | null;
  timezone: string;
  enabled: boolean;
  catchUp: CatchUpMode;
  notify: NotifyOverride;
  memory: Memory;
  retry: RetryPolicy;
  budget: Budget;
  approval: ApprovalPolicy;
  alarm: AutomationAlarm | null;
  /** The last fire time the scheduler dealt with (ran or skipped); fires after it are still to come. */
  lastFireAt: string;
  instanceId: string;
  threadId: string;
  /** The run whose agent made it: its runs are that run's children (loop guard). */
  createdByRunId: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * A policy column read through its schema once per distinct text: most automations share a few
 * policies, and validating each row's anew was much of what reading 10,000 of them cost. Each
 * record still gets its own object (a JSON.parse of what the schema gave).
 */
function parsedOnce<T>(schema: { parse: (value: unknown) => T }): (text: string) => T {
  const known = new Map<string, string>();
  return (text) => {
    let parsed = known.get(text);
    if (parsed === undefined) {
      parsed = JSON.stringify(schema.parse(JSON.parse(text)));
      // Bounded: texts are few in practice; past the bound the oldest are forgotten.
      if (known.size >= 256) known.delete(known.keys().next().value!);
      known.set(text, parsed);
    }
    return JSON.parse(parsed) as T;
  };
}
const retryOf = parsedOnce(RetryPolicy);
const budgetOf = parsedOnce(Budget);
const approvalOf = parsedOnce(ApprovalPolicy);
const triggerOf = parsedOnce(AutomationTrigger);

function toRecord(row: AutomationRow): AutomationRecord {
  return {
    id: row.id,
    name: row.name,
    prompt: row.prompt,
    cronExpression: row.cron_expression === '' ? null : row.cron_expression,
    trigger: row.trigger === null ? null : triggerOf(row.trigger),
    timezone: row.timezone,
    enabled: row.enabled === 1,
    catchUp: row.catch_up,
    notify: row.notify,
    memory: row.memory,
    retry: retryOf(row.retry),
    budget: budgetOf(row.budget),
    approval: approvalOf(row.approval),
    alarm: row.alarm,
    lastFireAt: row.last_fire_at ?? row.updated_at,
    instanceId: row.instance_id,
    threadId: row.thread_id,
    createdByRunId: row.created_by_run_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const columns = 'id, name, prompt, cron_expression, trigger, timezone, enabled, catch_up, notify, memory, retry, budget, approval, alarm, last_fire_at, instance_id, thread_id, created_by_run_id, created_at, updated_at';
const columnNames = columns.split(', ');
/** A row read as an array of `columns`, in their order. */
function rowOf(values: unknown[]): AutomationRow {
  const row: Record<string, unknown> = {};
  for (let index = 0; index < columnNames.length; index++) row[columnNames[index]] = values[index];
  return row as unknown as AutomationRow;
}
const values = '@id, @name, @prompt, @cronExpression, @trigger, @timezone, @enabled, @catchUp, @notify, @memory, @retry, @budget, @approval, @alarm, @lastFireAt, @instanceId, @threadId, @createdByRunId, @createdAt, @updatedAt';

export function createAutomationsRepository(db: Database.Database, hooks: CommitHooks) {
  // Announced so that the UI reloads the automation (a fire's lastFireAt is not a change it shows).
  const changed = (id: string) => {
    if (hooks.wanted) hooks.announce({ type: 'changed', resource: 'automation', id });
  };
  // Read as arrays and made into rows here: better-sqlite3 builds a row object key by key, which
  // for 10,000 rows of 20 columns cost more than the query.
  const list = db.prepare<[], unknown[]>(`SELECT ${columns} FROM automations ORDER BY id`).raw();
  const get = db.prepare<[string], AutomationRow>(`SELECT ${columns} FROM automations WHERE id = ?`);
  // An upsert that updates in place: INSERT OR REPLACE would delete the row first and cascade
  // that delete to everything referencing the automation.
  const upsert = db.prepare(`INSERT INTO automations (${columns}) VALUES (${values})
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, prompt = excluded.prompt, cron_expression = excluded.cron_expression, trigger = excluded.trigger,
      retry = excluded.retry, budget = excluded.budget, approval = excluded.approval, alarm = excluded.alarm, timezone = excluded.timezone, enabled = excluded.enabled, catch_up = excluded.catch_up, notify = excluded.notify, memory = excluded.memory, last_fire_at = excluded.last_fire_at,
      instance_id = excluded.instance_id, updated_at = excluded.updated_at`);
  const setLastFire = db.prepare<[string, string]>('UPDATE automations SET last_fire_at = ? WHERE id = ?');
  const setAllLastFire = db.prepare<[string]>('UPDATE automations SET last_fire_at = ? WHERE enabled = 1');
  const remove = db.prepare<[string]>('DELETE FROM automations WHERE id = ?');
  const setAlarm = db.prepare<[string | null, string]>('UPDATE automations SET alarm = ? WHERE id = ?');
  const alarmed = db.prepare<[], { id: string }>('SELECT id FROM automations WHERE alarm IS NOT NULL');
  const followers = db.prepare<[string], AutomationRow>(`SELECT ${columns} FROM automations WHERE json_extract(trigger, '$.after.automationId') = ? ORDER BY id`);

  return {
    list: (): AutomationRecord[] => list.all().map((values) => toRecord(rowOf(values))),
    get(id: string): AutomationRecord | undefined {
      const row = get.get(id);
      return row && toRecord(row);
    },
    /** Inserts or rewrites the whole record. */
    save(record: AutomationRecord): void {
      upsert.run({
        ...record,
        cronExpression: record.cronExpression ?? '',
        trigger: record.trigger === null ? null : JSON.stringify(record.trigger),
        retry: JSON.stringify(record.retry),
        budget: JSON.stringify(record.budget),
        approval: JSON.stringify(record.approval),
        enabled: record.enabled ? 1 : 0,
      });
      changed(record.id);
    },
    delete(id: string): void {
      remove.run(id);
      changed(id);
    },
    /** Records the last fire time the scheduler dealt with. */
    setLastFire: (id: string, at: string): void => void setLastFire.run(at, id),
    /** Records the alarm raised (or null: it recovered). */
    setAlarm(id: string, alarm: AutomationAlarm | null): void {
      setAlarm.run(alarm, id);
      changed(id);
    },
    /** Tells the live stream the automation changed where nothing of it was written (its source's health). */
    announce: (id: string): void => changed(id),
    /** The ids of automations with an alarm raised. */
    alarmed: (): Set<string> => new Set(alarmed.all().map((row) => row.id)),
    /** The automations triggered after this one. */
    followersOf: (id: string): AutomationRecord[] => followers.all(id).map(toRecord),
    /** Starts every enabled schedule afresh from `at` (resume after a pause). */
    setAllLastFire: (at: string): void => void setAllLastFire.run(at),
  };
}

export type AutomationsRepository = ReturnType<typeof createAutomationsRepository>;

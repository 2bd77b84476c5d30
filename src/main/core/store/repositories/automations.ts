// automations table <-> automation records (the read model adds nextRuns and the last run).
import type Database from 'better-sqlite3';

interface AutomationRow {
  id: string;
  name: string;
  prompt: string;
  cron_expression: string;
  timezone: string;
  enabled: number;
  instance_id: string;
  thread_id: string;
  created_at: string;
  updated_at: string;
}

export interface AutomationRecord {
  id: string;
  name: string;
  prompt: string;
  cronExpression: string;
  timezone: string;
  enabled: boolean;
  instanceId: string;
  threadId: string;
  createdAt: string;
  updatedAt: string;
}

function toRecord(row: AutomationRow): AutomationRecord {
  return {
    id: row.id,
    name: row.name,
    prompt: row.prompt,
    cronExpression: row.cron_expression,
    timezone: row.timezone,
    enabled: row.enabled === 1,
    instanceId: row.instance_id,
    threadId: row.thread_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const columns = 'id, name, prompt, cron_expression, timezone, enabled, instance_id, thread_id, created_at, updated_at';
const values = '@id, @name, @prompt, @cronExpression, @timezone, @enabled, @instanceId, @threadId, @createdAt, @updatedAt';

export function createAutomationsRepository(db: Database.Database) {
  const list = db.prepare<[], AutomationRow>(`SELECT ${columns} FROM automations ORDER BY id`);
  const get = db.prepare<[string], AutomationRow>(`SELECT ${columns} FROM automations WHERE id = ?`);
  // An upsert that updates in place: INSERT OR REPLACE would delete the row first and cascade
  // that delete to everything referencing the automation.
  const upsert = db.prepare(`INSERT INTO automations (${columns}) VALUES (${values})
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, prompt = excluded.prompt, cron_expression = excluded.cron_expression,
      timezone = excluded.timezone, enabled = excluded.enabled, instance_id = excluded.instance_id, updated_at = excluded.updated_at`);
  const remove = db.prepare<[string]>('DELETE FROM automations WHERE id = ?');

  return {
    list: (): AutomationRecord[] => list.all().map(toRecord),
    get(id: string): AutomationRecord | undefined {
      const row = get.get(id);
      return row && toRecord(row);
    },
    /** Inserts or rewrites the whole record. */
    save(record: AutomationRecord): void {
      upsert.run({ ...record, enabled: record.enabled ? 1 : 0 });
    },
    delete: (id: string): void => void remove.run(id),
  };
}

export type AutomationsRepository = ReturnType<typeof createAutomationsRepository>;

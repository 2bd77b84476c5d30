// config_origins table: the resources that came from configuration files, and from which file.
import type Database from 'better-sqlite3';
import type { ConfigKind } from '../../../../shared/contract';

export interface ConfigOrigin {
  resourceId: string;
  kind: ConfigKind;
  name: string;
  file: string;
  appliedAt: string;
  /** A person detached it: the watched folder leaves it be. */
  detached?: boolean;
}

interface Row {
  resource_id: string;
  kind: ConfigKind;
  name: string;
  file: string;
  applied_at: string;
  detached: number;
}

const fromRow = (row: Row): ConfigOrigin => ({ resourceId: row.resource_id, kind: row.kind, name: row.name, file: row.file, appliedAt: row.applied_at, detached: row.detached === 1 });

export function createConfigOriginsRepository(db: Database.Database) {
  // Only resources that still exist, and are not detached: one deleted in the app leaves no origin behind.
  const all = db.prepare<[], Row>(`
    SELECT o.* FROM config_origins o
    WHERE o.detached = 0 AND o.resource_id IN (SELECT id FROM instances UNION ALL SELECT id FROM automations UNION ALL SELECT id FROM webhooks)
    ORDER BY o.kind, o.name`);
  const get = db.prepare<[string], Row>('SELECT * FROM config_origins WHERE resource_id = ?');
  const put = db.prepare<[string, string, string, string, string]>(`
    INSERT INTO config_origins (resource_id, kind, name, file, applied_at) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (resource_id) DO UPDATE SET kind = excluded.kind, name = excluded.name, file = excluded.file, applied_at = excluded.applied_at, detached = 0`);
  const detach = db.prepare<[string]>('UPDATE config_origins SET detached = 1 WHERE resource_id = ?');
  return {
    /** The resources that came from files and are not detached. */
    list: (): ConfigOrigin[] => all.all().map(fromRow),
    get: (resourceId: string): ConfigOrigin | undefined => {
      const row = get.get(resourceId);
      return row && fromRow(row);
    },
    put: (origin: ConfigOrigin): void => void put.run(origin.resourceId, origin.kind, origin.name, origin.file, origin.appliedAt),
    detach: (resourceId: string): void => void detach.run(resourceId),
  };
}

export type ConfigOriginsRepository = ReturnType<typeof createConfigOriginsRepository>;

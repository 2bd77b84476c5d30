// remotes and remote_instances: the Stewards this one follows, and their instances as last seen
// (the remote's own Instance, kept whole; where it runs is added when it is shown).
import type Database from 'better-sqlite3';
import type { Instance } from '../../../../shared/contract';
import type { CommitHooks } from '../commit-hooks';

export interface RemoteRecord {
  id: string;
  name: string;
  url: string;
  apiKeyRef: string;
  createdAt: string;
  updatedAt: string;
}

interface RemoteRow {
  id: string;
  name: string;
  url: string;
  api_key_ref: string;
  created_at: string;
  updated_at: string;
}

const toRemote = (row: RemoteRow): RemoteRecord => ({
  id: row.id,
  name: row.name,
  url: row.url,
  apiKeyRef: row.api_key_ref,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export interface RemoteInstanceRecord {
  remoteId: string;
  instance: Instance;
}

export function createRemotesRepository(db: Database.Database, hooks: CommitHooks) {
  // Counts every write, so that what is made from these rows can be kept until they change.
  let writes = 0;
  const changed = (instanceId: string) => {
    writes++;
    if (hooks.wanted) hooks.announce({ type: 'instance', instanceId });
  };
  const list = db.prepare<[], RemoteRow>('SELECT * FROM remotes ORDER BY created_at, id');
  const get = db.prepare<[string], RemoteRow>('SELECT * FROM remotes WHERE id = ?');
  const byUrl = db.prepare<[string], RemoteRow>('SELECT * FROM remotes WHERE url = ?');
  const insert = db.prepare('INSERT INTO remotes (id, name, url, api_key_ref, created_at, updated_at) VALUES (@id, @name, @url, @apiKeyRef, @createdAt, @updatedAt)');
  const update = db.prepare('UPDATE remotes SET name = @name, url = @url, api_key_ref = @apiKeyRef, updated_at = @updatedAt WHERE id = @id');
  const remove = db.prepare<[string]>('DELETE FROM remotes WHERE id = ?');
  const instances = db.prepare<[], { id: string; remote_id: string; instance: string }>('SELECT id, remote_id, instance FROM remote_instances ORDER BY rowid');
  const instancesOf = db.prepare<[string], { id: string; instance: string }>('SELECT id, instance FROM remote_instances WHERE remote_id = ? ORDER BY rowid');
  const instance = db.prepare<[string], { remote_id: string; instance: string }>('SELECT remote_id, instance FROM remote_instances WHERE id = ?');
  const upsertInstance = db.prepare<{ id: string; remoteId: string; instance: string; updatedAt: string }>(
    `INSERT INTO remote_instances (id, remote_id, instance, updated_at) VALUES (@id, @remoteId, @instance, @updatedAt)
     ON CONFLICT (id) DO UPDATE SET instance = excluded.instance, updated_at = excluded.updated_at WHERE remote_id = excluded.remote_id AND instance <> excluded.instance`,
  );
  const removeInstance = db.prepare<[string]>('DELETE FROM remote_instances WHERE id = ?');
  const parse = (text: string) => JSON.parse(text) as Instance;

  return {
    /** A number that changes whenever a remote or a remote instance is written. */
    writes: (): number => writes,
    list: (): RemoteRecord[] => list.all().map(toRemote),
    get: (id: string): RemoteRecord | undefined => {
      const row = get.get(id);
      return row && toRemote(row);
    },
    byUrl: (url: string): RemoteRecord | undefined => {
      const row = byUrl.get(url);
      return row && toRemote(row);
    },
    insert: (remote: RemoteRecord): void => {
      writes++;
      insert.run(remote);
    },
    update: (remote: RemoteRecord): void => {
      writes++;
      update.run(remote);
    },
    /** Its instances go with it, and their activity lines (a trigger). */
    delete(id: string): string[] {
      const gone = instancesOf.all(id).map((row) => row.id);
      writes++;
      remove.run(id);
      for (const instanceId of gone) changed(instanceId);
      return gone;
    },

    instances: (): RemoteInstanceRecord[] => instances.all().map((row) => ({ remoteId: row.remote_id, instance: parse(row.instance) })),
    instancesOf: (remoteId: string): Instance[] => instancesOf.all(remoteId).map((row) => parse(row.instance)),
    instance(id: string): RemoteInstanceRecord | undefined {
      const row = instance.get(id);
      return row && { remoteId: row.remote_id, instance: parse(row.instance) };
    },
    /** Writes what the remote says an instance is now; false when it was already known as such (or is another remote's). */
    putInstance(remoteId: string, value: Instance, updatedAt: string): boolean {
      const wrote = upsertInstance.run({ id: value.id, remoteId, instance: JSON.stringify(value), updatedAt }).changes > 0;
      if (wrote) changed(value.id);
      return wrote;
    },
    deleteInstance(id: string): void {
      if (removeInstance.run(id).changes > 0) changed(id);
    },
  };
}

export type RemotesRepository = ReturnType<typeof createRemotesRepository>;

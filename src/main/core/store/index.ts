// The store: the database and one repository per table.
import type Database from 'better-sqlite3';
import { type OpenDatabaseOptions, openDatabase } from './database';
import { type CommitHooks, createCommitHooks } from './commit-hooks';
import { createActivityRepository } from './repositories/activity';
import { createApiKeysRepository } from './repositories/api-keys';
import { createApprovalsRepository } from './repositories/approvals';
import { createAutomationsRepository } from './repositories/automations';
import { createConfigOriginsRepository } from './repositories/config-origins';
import { createDeliveriesRepository } from './repositories/deliveries';
import { createFiresRepository } from './repositories/fires';
import { createSourceStateRepository } from './repositories/source-state';
import { createInstancesRepository } from './repositories/instances';
import { createNotificationChannelsRepository } from './repositories/notification-channels';
import { createNotificationDeliveriesRepository } from './repositories/notification-deliveries';
import { createRemotesRepository } from './repositories/remotes';
import { createRunsRepository } from './repositories/runs';
import { createSecretsRepository } from './repositories/secrets';
import { createSettingsRepository } from './repositories/settings';
import { createSpendRepository } from './repositories/spend';
import { createThreadsRepository } from './repositories/threads';
import { createWebSessionsRepository } from './repositories/web-sessions';
import { createWebhooksRepository } from './repositories/webhooks';
import { createWalSync } from './wal-sync';
import { createStorageCondition } from './storage-condition';

export function openStore(file: string, options: OpenDatabaseOptions = {}) {
  const db = openDatabase(file, options);
  const hooks = createCommitHooks(db);
  const storage = createStorageCondition();
  const wal = createWalSync(file);
  const store = {
    db,
    /** Whether writes currently fail on a full or read-only disk. */
    storage,
    /** Committed activity lines, run, instance, automation and webhook changes, for the live stream and the desktop app. */
    subscribe: (listener: Parameters<CommitHooks['subscribe']>[0]) => hooks.subscribe(listener),
    activity: createActivityRepository(db, hooks),
    apiKeys: createApiKeysRepository(db),
    approvals: createApprovalsRepository(db, hooks),
    automations: createAutomationsRepository(db, hooks),
    configOrigins: createConfigOriginsRepository(db),
    deliveries: createDeliveriesRepository(db, hooks),
    fires: createFiresRepository(db),
    sourceState: createSourceStateRepository(db),
    instances: createInstancesRepository(db, hooks),
    notificationChannels: createNotificationChannelsRepository(db),
    notificationDeliveries: createNotificationDeliveriesRepository(db),
    remotes: createRemotesRepository(db, hooks),
    runs: createRunsRepository(db, hooks),
    secrets: createSecretsRepository(db),
    settings: createSettingsRepository(db),
    spend: createSpendRepository(db),
    threads: createThreadsRepository(db),
    webhooks: createWebhooksRepository(db, hooks),
    webSessions: createWebSessionsRepository(db),
    /**
     * Runs `work` in one transaction (a savepoint when already inside one). IMMEDIATE takes the
     * write lock up front: another process may write the same file (`steward keys create` while
     * the daemon runs), and a read that later turns into a write could otherwise fail at once
     * with SQLITE_BUSY instead of waiting for the lock.
     */
    transaction<T>(work: () => T): T {
      if (db.inTransaction) return db.transaction(work)();
      let result: T;
      try {
        result = db.transaction(work).immediate();
      } catch (error) {
        hooks.rolledBack();
        storage.failed(error);
        throw error;
      }
      hooks.committed();
      storage.succeeded();
      return result;
    },
    /**
     * One transaction whose commit does not wait for the disk (synchronous=NORMAL): what it wrote
     * is durable only once `synced()` resolves, and nobody may be told before. For group commit.
     */
    transactionUnsynced<T>(work: () => T): T {
      if (db.inTransaction) throw new Error('An unsynced transaction cannot be nested in another.');
      // exec, not a prepared statement: SQLite applies this pragma when it compiles it.
      db.exec('PRAGMA synchronous = NORMAL');
      try {
        return store.transaction(work);
      } finally {
        db.exec('PRAGMA synchronous = FULL');
      }
    },
    /** Runs `effect` once the current transaction commits (at once outside one); dropped by a rollback. */
    afterCommit: (effect: () => void): void => hooks.afterCommit(effect),
    /** Resolves once every transaction committed before the call is on disk (fdatasync of the WAL, off the event loop). */
    synced: (): Promise<void> => wal.sync(),
    /** Reads in one snapshot: writes committed meanwhile stay invisible until it ends. */
    read<T>(work: () => T): T {
      return db.inTransaction ? work() : db.transaction(work).deferred();
    },
    close(): void {
      db.close();
      wal.close();
    },
  };
  return store;
}

export type Store = ReturnType<typeof openStore>;
export type { Database };

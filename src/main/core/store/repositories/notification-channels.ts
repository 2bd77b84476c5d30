// notification_channels table <-> channel records. The sealed URL and signing secret stay sealed
// here; the service opens them only to send.
import type Database from 'better-sqlite3';
import type { ChannelKind, ChannelOn, ChannelSource, NotificationChannel } from '../../../../shared/contract';

interface ChannelRow {
  id: string;
  name: string;
  kind: ChannelKind;
  url: string;
  sealed_url: string | null;
  sealed_secret: string | null;
  token_ref: string | null;
  enabled: number;
  notify_on: ChannelOn;
  sources: string;
  created_at: string;
  updated_at: string;
  last_status: NonNullable<NotificationChannel['lastDelivery']>['status'] | null;
  last_at: string | null;
  last_code: number | null;
  last_error: string | null;
}

export interface ChannelRecord {
  id: string;
  name: string;
  kind: ChannelKind;
  /** What the API shows: the URL, or for Slack and Discord its first part. */
  url: string;
  /** The whole URL, sealed, for kinds whose URL is a secret; null when `url` is the whole URL. */
  sealedUrl: string | null;
  /** webhook kind: the Standard Webhooks secret (whsec_...), sealed. */
  sealedSecret: string | null;
  tokenRef: string | null;
  enabled: boolean;
  on: ChannelOn;
  sources: ChannelSource[];
  createdAt: string;
  updatedAt: string;
}

export type ChannelWithLast = ChannelRecord & { lastDelivery: NotificationChannel['lastDelivery'] };

function toRecord(row: ChannelRow): ChannelWithLast {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    url: row.url,
    sealedUrl: row.sealed_url,
    sealedSecret: row.sealed_secret,
    tokenRef: row.token_ref,
    enabled: row.enabled === 1,
    on: row.notify_on,
    sources: JSON.parse(row.sources) as ChannelSource[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastDelivery: row.last_status && row.last_at ? { status: row.last_status, at: row.last_at, statusCode: row.last_code, error: row.last_error } : null,
  };
}

// The newest delivery of each channel rides along, so a list shows which channels fail.
const select = `SELECT c.*, d.status AS last_status, coalesce(d.finished_at, d.created_at) AS last_at, d.last_status_code AS last_code, d.last_error AS last_error
  FROM notification_channels c
  LEFT JOIN notification_deliveries d ON d.id = (SELECT id FROM notification_deliveries WHERE channel_id = c.id ORDER BY id DESC LIMIT 1)`;

export function createNotificationChannelsRepository(db: Database.Database) {
  const list = db.prepare<[], ChannelRow>(`${select} ORDER BY c.id`);
  const enabled = db.prepare<[], ChannelRow>(`${select} WHERE c.enabled = 1 ORDER BY c.id`);
  const get = db.prepare<[string], ChannelRow>(`${select} WHERE c.id = ?`);
  const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM notification_channels');
  const upsert = db.prepare(`INSERT INTO notification_channels (id, name, kind, url, sealed_url, sealed_secret, token_ref, enabled, notify_on, sources, created_at, updated_at)
    VALUES (@id, @name, @kind, @url, @sealedUrl, @sealedSecret, @tokenRef, @enabled, @on, @sources, @createdAt, @updatedAt)
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, url = excluded.url, sealed_url = excluded.sealed_url, sealed_secret = excluded.sealed_secret,
      token_ref = excluded.token_ref, enabled = excluded.enabled, notify_on = excluded.notify_on, sources = excluded.sources, updated_at = excluded.updated_at`);
  const remove = db.prepare<[string]>('DELETE FROM notification_channels WHERE id = ?');

  return {
    list: (): ChannelWithLast[] => list.all().map(toRecord),
    enabled: (): ChannelWithLast[] => enabled.all().map(toRecord),
    get(id: string): ChannelWithLast | undefined {
      const row = get.get(id);
      return row && toRecord(row);
    },
    count: (): number => count.get()!.n,
    save(record: ChannelRecord): void {
      upsert.run({
        id: record.id,
        name: record.name,
        kind: record.kind,
        url: record.url,
        sealedUrl: record.sealedUrl,
        sealedSecret: record.sealedSecret,
        tokenRef: record.tokenRef,
        enabled: record.enabled ? 1 : 0,
        on: record.on,
        sources: JSON.stringify(record.sources),
        createdAt: record.createdAt,
        updatedAt: record.updatedAt,
      });
    },
    delete: (id: string): boolean => remove.run(id).changes > 0,
  };
}

export type NotificationChannelsRepository = ReturnType<typeof createNotificationChannelsRepository>;

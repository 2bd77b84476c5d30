// Notification channels over the API: create (a webhook channel gets its signing secret, shown
// once), update, delete, a test message sent at once, and the deliveries of a channel or a run.
// Slack and Discord URLs are secrets: sealed, and shown only up to their first path segment.
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type {
  ChannelKind,
  ChannelSource,
  NotificationChannel,
  NotificationChannelCreate,
  NotificationChannelUpdate,
  NotificationDelivery,
  NotificationDeliveryQuery,
} from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import { newId } from '../ids';
import type { SecretBox } from '../secrets';
import type { ChannelRecord, ChannelWithLast } from '../store/repositories/notification-channels';
import type { NotificationDeliveryRecord } from '../store/repositories/notification-deliveries';
import { type ServiceContext, isoNow } from './context';
import type { NotificationDispatcher } from './notification-dispatcher';
import { buildNotification } from './notification-message';
import { linkBase } from './alerts';
import { type RunNotifier, deliveriesKept } from './run-notifier';
import { resealed, unchanged } from '../unchanged';

const secretUrlKinds = new Set<ChannelKind>(['slack', 'discord']);

/** https://hooks.slack.com/services/… : enough to recognise, not enough to post. */
export function redactUrl(text: string): string {
  const url = new URL(text);
  const first = url.pathname.split('/').find((segment) => segment !== '');
  return `${url.protocol}//${url.host}/${first ? `${first}/` : ''}…`;
}

/** A Standard Webhooks secret: whsec_ and base64 of 32 random bytes. */
export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

const present = ({ sealedUrl: _url, sealedSecret: _secret, ...channel }: ChannelWithLast): NotificationChannel => channel;
const presentDelivery = ({ requestHeaders: _headers, ...delivery }: NotificationDeliveryRecord): NotificationDelivery => delivery;

export function createNotificationChannelsService(context: ServiceContext, deps: { box: SecretBox; dispatcher: NotificationDispatcher; notifier: RunNotifier; secretExists: (name: string) => boolean }) {
  const { store } = context;
  const { box } = deps;

  function record(id: string): ChannelWithLast {
    const found = store.notificationChannels.get(id);
    if (!found) throw new AppError('not_found', `No notification channel ${id}.`);
    return found;
  }

  function checkSources(sources: ChannelSource[]): void {
    sources.forEach((source, index) => {
      const exists = source.type === 'automation' ? store.automations.get(source.id) : source.type === 'webhook' ? store.webhooks.get(source.id) : store.instances.get(source.id);
      if (!exists) throw new AppError('invalid_field', `No ${source.type} ${source.id}.`, { field: `sources.${index}.id` });
    });
  }

  function checkTokenRef(kind: ChannelKind, tokenRef: string | null): void {
    if (tokenRef === null) return;
    if (kind !== 'ntfy') throw new AppError('invalid_field', 'Only ntfy channels take a tokenRef.', { field: 'tokenRef' });
    if (!deps.secretExists(tokenRef)) throw new AppError('invalid_field', `No stored secret ${tokenRef}: store it under Secrets first.`, { field: 'tokenRef' });
  }

  /** `stored`: the sealed URL kept when it seals the same URL (sealing again is not a change). */
  function urlFields(kind: ChannelKind, url: string, stored?: string | null): Pick<ChannelRecord, 'url' | 'sealedUrl'> {
    return secretUrlKinds.has(kind) ? { url: redactUrl(url), sealedUrl: resealed(box, url, stored) } : { url, sealedUrl: null };
  }

  function saved(channel: ChannelRecord, signingSecret: string | null) {
    store.transaction(() => store.notificationChannels.save(channel));
    deps.notifier.sync();
    return { channel: present(record(channel.id)), signingSecret };
  }

  return {
    list: (): NotificationChannel[] => store.notificationChannels.list().map(present),
    get: (id: string): NotificationChannel => present(record(id)),

    create(input: z.output<typeof NotificationChannelCreate>): { channel: NotificationChannel; signingSecret: string | null } {
      checkSources(input.sources);
      const tokenRef = input.tokenRef ?? null;
      checkTokenRef(input.kind, tokenRef);
      const signingSecret = input.kind === 'webhook' ? newSigningSecret() : null;
      const now = isoNow(context);
      return saved(
        {
          id: newId('chn'),
          name: input.name,
          kind: input.kind,
          ...urlFields(input.kind, input.url),
          sealedSecret: signingSecret === null ? null : box.seal(signingSecret),
          tokenRef,
          enabled: input.enabled,
          on: input.on,
          sources: input.sources,
          createdAt: now,
          updatedAt: now,
        },
        signingSecret,
      );
    },

    update(id: string, patch: z.output<typeof NotificationChannelUpdate>): { channel: NotificationChannel; signingSecret: string | null } {
      const current = record(id);
      if (patch.sources) checkSources(patch.sources);
      const tokenRef = patch.tokenRef === undefined ? current.tokenRef : patch.tokenRef;
      if (patch.tokenRef !== undefined) checkTokenRef(current.kind, tokenRef);
      if (patch.regenerateSecret && current.kind !== 'webhook') throw new AppError('invalid_field', 'Only webhook channels have a signing secret.', { field: 'regenerateSecret' });
      const signingSecret = patch.regenerateSecret ? newSigningSecret() : null;
      const next: ChannelWithLast = {
        ...current,
        ...(patch.url === undefined ? {} : urlFields(current.kind, patch.url, current.sealedUrl)),
        name: patch.name ?? current.name,
        enabled: patch.enabled ?? current.enabled,
        on: patch.on ?? current.on,
        sources: patch.sources ?? current.sources,
        tokenRef,
        sealedSecret: signingSecret === null ? current.sealedSecret : box.seal(signingSecret),
        updatedAt: isoNow(context),
      };
      // An update that changes nothing writes nothing: updatedAt stays.
      if (unchanged(next, current, ['updatedAt'])) return { channel: present(current), signingSecret: null };
      return saved(next, signingSecret);
    },

    delete(id: string): void {
      record(id);
      store.transaction(() => store.notificationChannels.delete(id));
      deps.notifier.sync();
    },

    /** A test message, sent once now; the record says how it went (never an error for a dead receiver). */
    async test(id: string): Promise<NotificationDelivery> {
      const channel = record(id);
      const now = isoNow(context);
      const base = linkBase(context);
      const { headers, body } = buildNotification(channel.kind, {
        event: 'test', status: 'test', runId: null, error: null, source: { type: 'test', id: null, name: 'Steward' }, instance: null,
        startedAt: null, finishedAt: null, durationSeconds: null, url: `${base}/`, timestamp: now,
      });
      const deliveryId = newId('ntf');
      store.transaction(() => {
        store.notificationDeliveries.insert({ id: deliveryId, channelId: id, runId: null, about: deliveryId, event: 'test', requestHeaders: headers, requestBody: body, createdAt: now, nextAttemptAt: null });
        store.notificationDeliveries.keepNewest(id, deliveriesKept);
      });
      await deps.dispatcher.sendOnce(deliveryId);
      return presentDelivery(store.notificationDeliveries.get(deliveryId)!);
    },

    deliveries(id: string, query: z.output<typeof NotificationDeliveryQuery>): { deliveries: NotificationDelivery[]; nextBefore: string | null } {
      record(id);
      const rows = store.notificationDeliveries.page(id, query.before, query.limit + 1);
      const deliveries = rows.slice(0, query.limit).map(presentDelivery);
      return { deliveries, nextBefore: rows.length > query.limit ? deliveries.at(-1)!.id : null };
    },

    forRun(runId: string): NotificationDelivery[] {
      if (!store.runs.get(runId)) throw new AppError('not_found', `No run ${runId}.`);
      return store.notificationDeliveries.forRun(runId).map(presentDelivery);
    },
  };
}

export type NotificationChannelsService = ReturnType<typeof createNotificationChannelsService>;

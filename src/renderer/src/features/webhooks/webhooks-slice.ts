// Webhooks: the list, create, update (incl. token regeneration), delete, test payloads, and each
// webhook's deliveries: a page at a time, one opened whole (body and headers), replayed.
import type { Delivery, DeliverySummary, Run, RunStatus, TriggerOutcome, Webhook } from '../../../../shared/contract';
import type { z } from 'zod';
import type { Slice } from '../../store';

export type Outcome = z.output<typeof TriggerOutcome>;

export interface DeliveryPage {
  items: DeliverySummary[];
  /** Pass to load the next (older) page; null when there is none. */
  nextBefore: string | null;
}

export interface WebhooksSlice {
  webhooks: Webhook[];
  /** Deliveries by webhook id, newest first, as far as loaded. */
  deliveries: Record<string, DeliveryPage>;
  /** The delivery open in the body viewer. */
  openDelivery: Delivery | null;
  /** The status of each run of a shown webhook as its latest live event said, by run id. */
  deliveryRuns: Record<string, RunStatus>;
  loadWebhooks: () => Promise<void>;
  saveWebhook: (id: string | undefined, body: Record<string, unknown>) => Promise<Webhook>;
  deleteWebhook: (id: string) => Promise<void>;
  /** Triggers it with a test payload: the run it queued, or why the filter skipped it. */
  testWebhook: (id: string, payload: string) => Promise<Outcome>;
  /** The newest page again, or (`more`) the next older one. */
  loadDeliveries: (webhookId: string, more?: boolean) => Promise<void>;
  /** The webhooks whose deliveries are shown: loaded, or on their way (a change heard meanwhile loads them again). */
  shownDeliveries: () => string[];
  showDelivery: (id: string | null) => Promise<void>;
  /** Replays a delivery now; the list shows the replay. A refused one needs `force` (the person confirmed). */
  replayDelivery: (delivery: DeliverySummary, force?: boolean) => Promise<Outcome>;
  /** A live event of a run: a shown delivery of it follows it; a new one of a shown webhook loads its list. */
  deliveryRunChanged: (run: Run) => void;
}

const ongoing: readonly RunStatus[] = ['queued', 'waiting', 'running'];

/**
 * A delivery's run status as the row shows it: the latest live event's (every change of a run sends
 * one), unless the list, loaded while that event's successor was on its way, already has its end.
 */
export function deliveryRunStatus(delivery: DeliverySummary, live: Record<string, RunStatus>): RunStatus | null {
  if (!delivery.run) return null;
  const heard = live[delivery.run.id];
  if (heard === undefined || (!ongoing.includes(delivery.run.status) && ongoing.includes(heard))) return delivery.run.status;
  return heard;
}

export const webhooksSlice: Slice<WebhooksSlice> = (set, get) => {
  // The latest request for each shown list's newest page. A list asked for counts as shown from
  // that moment, so a delivery heard of before its answer loads it again; and an answer that
  // arrives after a later request's is older than what that one brings, so it is not taken.
  const newestAsked = new Map<string, number>();
  let requests = 0;
  return {
    webhooks: [],
    deliveries: {},
    openDelivery: null,
    deliveryRuns: {},
    async loadWebhooks() {
      const { webhooks } = await get().client.call('webhooks.list');
      set({ webhooks });
    },
    async saveWebhook(id, body) {
      const { webhook } = id === undefined ? await get().client.call('webhooks.create', { body }) : await get().client.call('webhooks.update', { params: { id }, body });
      set({ webhooks: [...get().webhooks.filter((each) => each.id !== webhook.id), webhook].sort((a, b) => a.createdAt.localeCompare(b.createdAt)) });
      return webhook;
    },
    async testWebhook(id, payload) {
      const outcome = await get().client.call('webhooks.test', { params: { id }, body: { payload } });
      await Promise.all([get().loadRuns(), get().loadDeliveries(id)]);
      return outcome;
    },
    async deleteWebhook(id) {
      await get().client.call('webhooks.delete', { params: { id } });
      const { [id]: _gone, ...deliveries } = get().deliveries;
      newestAsked.delete(id);
      set({ webhooks: get().webhooks.filter((each) => each.id !== id), deliveries });
    },
    async loadDeliveries(webhookId, more = false) {
      const before = more ? (get().deliveries[webhookId]?.nextBefore ?? undefined) : undefined;
      const request = ++requests;
      if (!more) newestAsked.set(webhookId, request);
      const page = await get().client.call('deliveries.list', { params: { id: webhookId }, query: { before, limit: 20 } });
      if (!more && newestAsked.get(webhookId) !== request) return;
      const known = get().deliveries[webhookId];
      const items = more && known ? [...known.items, ...page.deliveries] : page.deliveries;
      set({ deliveries: { ...get().deliveries, [webhookId]: { items, nextBefore: page.nextBefore } } });
    },
    shownDeliveries: () => [...newestAsked.keys()],
    async showDelivery(id) {
      if (id === null) return set({ openDelivery: null });
      const { delivery } = await get().client.call('deliveries.get', { params: { id } });
      set({ openDelivery: delivery });
    },
    async replayDelivery(delivery, force = false) {
      // Without force, the body an older remote Steward (no `force` yet) takes too.
      const outcome = await get().client.call('deliveries.replay', { params: { id: delivery.id }, body: force ? { force } : {} });
      await Promise.all([get().loadRuns(), get().loadDeliveries(delivery.webhookId)]);
      return outcome;
    },
    deliveryRunChanged(run) {
      const webhookId = run.source === 'webhook' ? run.sourceId : null;
      if (!webhookId || !newestAsked.has(webhookId)) return;
      set({ deliveryRuns: { ...get().deliveryRuns, [run.id]: run.status } });
      // A new run (queued, or waiting for a person) is a new delivery: the list catches up.
      const isNew = (run.status === 'queued' || run.status === 'waiting') && !get().deliveries[webhookId]?.items.some((each) => each.run?.id === run.id);
      if (isNew) void get().loadDeliveries(webhookId).catch(() => undefined);
    },
  };
};

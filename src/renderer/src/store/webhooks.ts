// Webhooks: the list, create, update (incl. token regeneration), delete, test payloads.
import type { Webhook } from '../../../shared/contract';
import type { Slice } from '.';

export interface WebhooksSlice {
  webhooks: Webhook[];
  loadWebhooks: () => Promise<void>;
  saveWebhook: (id: string | undefined, body: Record<string, unknown>) => Promise<Webhook>;
  deleteWebhook: (id: string) => Promise<void>;
  /** Triggers it with a test payload; the run it queued. */
  testWebhook: (id: string, payload: string) => Promise<string>;
}

export const webhooksSlice: Slice<WebhooksSlice> = (set, get) => ({
  webhooks: [],
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
    const { run } = await get().client.call('webhooks.test', { params: { id }, body: { payload } });
    await get().loadRuns();
    return run.id;
  },
  async deleteWebhook(id) {
    await get().client.call('webhooks.delete', { params: { id } });
    set({ webhooks: get().webhooks.filter((each) => each.id !== id) });
  },
});

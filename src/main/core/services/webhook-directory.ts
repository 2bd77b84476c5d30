// Webhooks by the hash of their token, in memory: a trigger finds its webhook without a query.
// The core is the only writer of the webhooks table, and the webhooks service updates this
// directory after each committed change, so it never answers for a token that no longer works.
import type { Store } from '../store';
import type { WebhookRecord } from '../store/repositories/webhooks';
import { sha256Hex } from '../ids';

export function createWebhookDirectory(store: Store) {
  const byTokenHash = new Map<string, WebhookRecord>();
  const tokenHashById = new Map<string, string>();

  function remove(id: string): void {
    const tokenHash = tokenHashById.get(id);
    if (tokenHash) byTokenHash.delete(tokenHash);
    tokenHashById.delete(id);
  }

  function byId(id: string): WebhookRecord | undefined {
    const tokenHash = tokenHashById.get(id);
    return tokenHash === undefined ? undefined : byTokenHash.get(tokenHash);
  }

  function put(webhook: WebhookRecord): void {
    remove(webhook.id);
    const tokenHash = sha256Hex(webhook.token);
    byTokenHash.set(tokenHash, webhook);
    tokenHashById.set(webhook.id, tokenHash);
  }

  for (const webhook of store.webhooks.list()) put(webhook);

  return {
    /** The webhook whose token is `token`, if any. */
    find: (token: string): WebhookRecord | undefined => byTokenHash.get(sha256Hex(token)),
    /** The current record of webhook `id`, if it exists. */
    get: byId,
    put,
    remove,
  };
}

export type WebhookDirectory = ReturnType<typeof createWebhookDirectory>;

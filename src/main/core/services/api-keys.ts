// API keys: made here (shown once), checked here on every management request. A revoked key (and a
// run's key, deleted as its run ends) also ends what it holds open (credential-holds.ts).
import { timingSafeEqual } from 'node:crypto';
import { type ApiKey, type Scope, apiKeyPrefix } from '../../../shared/contract';
import type { Caller } from '../caller';
import { AppError } from '../../../shared/errors';
import { newId, randomToken, sha256Hex } from '../ids';
import { type ServiceContext, isoNow } from './context';
import type { CredentialHolds } from './credential-holds';

/** lastUsedAt is refreshed at most this often, so reads do not turn into a write each. */
const touchIntervalMs = 60_000;

const unauthorized = (message: string) =>
  new AppError('unauthorized', message, { headers: { 'www-authenticate': 'Bearer realm="steward"' } });

export function createApiKeysService(context: ServiceContext, holds: CredentialHolds) {
  const { store } = context;

  return {
    create(name: string, scope: Scope = 'admin'): { apiKey: ApiKey; key: string } {
      const key = apiKeyPrefix + randomToken(32);
      const apiKey: ApiKey = { id: newId('key'), name, preview: key.slice(0, apiKeyPrefix.length + 6), scope, createdAt: isoNow(context), lastUsedAt: null };
      store.apiKeys.insert({ ...apiKey, hash: sha256Hex(key) });
      return { apiKey, key };
    },

    /**
     * A key for one run's agent: scope `runs`, plus managing its own instance's automations and
     * webhooks; what it starts is the run's child. Revoked when the run ends (revokeForRun).
     */
    createForRun(run: { id: string; instanceId: string }): string {
      const key = apiKeyPrefix + randomToken(32);
      store.apiKeys.insertForRun({ id: newId('key'), name: `run ${run.id}`, preview: key.slice(0, apiKeyPrefix.length + 6), scope: 'runs', hash: sha256Hex(key), createdAt: isoNow(context), runId: run.id, instanceId: run.instanceId });
      return key;
    },

    /** Ends a run's key and what it holds open; null: every run's key (at start, none is running). */
    revokeForRun(runId: string | null): void {
      store.apiKeys.deleteForRuns(runId);
      holds.releaseRuns(runId);
    },

    list: (): ApiKey[] => store.apiKeys.listActive(),

    revoke(id: string): void {
      if (!store.apiKeys.revoke(id, isoNow(context))) throw new AppError('not_found', `No active API key ${id}.`);
      holds.releaseCredential(id);
    },

    /** Who the key an Authorization header carries is; 401 otherwise. */
    authenticate(header: string | undefined): Caller {
      if (!header) throw unauthorized('This endpoint needs an API key: send Authorization: Bearer <key>.');
      const match = /^Bearer +(\S+) *$/i.exec(header);
      if (!match) throw unauthorized('The Authorization header must be "Bearer <key>".');
      const presented = Buffer.from(sha256Hex(match[1]), 'hex');
      // Compare against every active key without stopping early, each in constant time.
      let found: ReturnType<typeof store.apiKeys.activeHashes>[number] | undefined;
      for (const candidate of store.apiKeys.activeHashes()) {
        if (timingSafeEqual(presented, Buffer.from(candidate.hash, 'hex'))) found = candidate;
      }
      if (!found) throw unauthorized('The API key is not valid or was revoked.');
      const now = context.now();
      if (!found.lastUsedAt || now.getTime() - Date.parse(found.lastUsedAt) >= touchIntervalMs) {
        store.apiKeys.touch(found.id, now.toISOString());
      }
      return { scope: found.scope, runId: found.runId, instanceId: found.instanceId, credential: found.id };
    },
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;

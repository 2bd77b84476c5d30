// API keys for the management API: the secret is shown once, at creation; each key has a scope
// (admin, runs or read) that every operation's `scope` is checked against.
import { z } from 'zod';
import { Id, IdParams, Name, NoInput, NoQuery, Timestamp, defineOperation, scopes } from './common';

export const apiKeyPrefix = 'stw_';

export const KeyScope = z.enum(scopes).describe('admin: everything; runs: send prompts and read; read: GET operations only');

export const ApiKey = z.object({
  id: Id('key'),
  name: z.string(),
  preview: z.string().describe('The first characters of the key, to tell keys apart'),
  scope: KeyScope,
  createdAt: Timestamp,
  lastUsedAt: Timestamp.nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;

export const ApiKeyCreate = z.strictObject({ name: Name, scope: KeyScope.default('admin') });

export const apiKeyOperations = {
  'keys.list': defineOperation({
    name: 'keys.list', method: 'GET', path: '/api/keys', summary: 'List API keys that are not revoked',
    auth: true, scope: 'admin', status: 200, params: NoInput, query: NoQuery, body: z.undefined(),
    output: z.object({ apiKeys: z.array(ApiKey) }),
  }),
  'keys.create': defineOperation({
    name: 'keys.create', method: 'POST', path: '/api/keys', summary: 'Create an API key; `key` is shown this once',
    auth: true, status: 201, params: NoInput, query: NoQuery, body: ApiKeyCreate,
    output: z.object({ apiKey: ApiKey, key: z.string().startsWith(apiKeyPrefix) }),
  }),
  'keys.revoke': defineOperation({
    name: 'keys.revoke', method: 'DELETE', path: '/api/keys/{id}', summary: 'Revoke an API key at once',
    auth: true, status: 204, params: IdParams, query: NoQuery, body: z.undefined(), output: null,
  }),
};

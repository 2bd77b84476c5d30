// Named secrets agents need, such as a provider's API key (an openai agent's `apiKeyRef`). Stored
// encrypted; the API takes a value and never gives one back.
import { z } from 'zod';
import { NoInput, NoQuery, Timestamp, defineOperation } from './common';

export const SecretName = z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/, 'must be 1 to 100 letters, digits, dots, dashes or underscores');

export const Secret = z.object({
  name: SecretName,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Secret = z.infer<typeof Secret>;

const NameParams = z.strictObject({ name: z.string().min(1) });

export const secretOperations = {
  'secrets.list': defineOperation({
    name: 'secrets.list', method: 'GET', path: '/api/secrets', summary: 'List stored secrets (names only)',
    auth: true, scope: 'admin', status: 200, params: NoInput, query: NoQuery, body: z.undefined(),
    output: z.object({ secrets: z.array(Secret) }),
  }),
  'secrets.put': defineOperation({
    name: 'secrets.put', method: 'PUT', path: '/api/secrets/{name}', summary: 'Store a secret, or replace its value',
    auth: true, status: 200, params: NameParams, query: NoQuery,
    body: z.strictObject({ value: z.string().min(1, 'must not be empty').max(10_000, 'must be at most 10,000 characters') }),
    output: z.object({ secret: Secret }),
  }),
  'secrets.delete': defineOperation({
    name: 'secrets.delete', method: 'DELETE', path: '/api/secrets/{name}', summary: 'Delete a secret',
    auth: true, status: 204, params: NameParams, query: NoQuery, body: z.undefined(), output: null,
  }),
};

// Remote Stewards: another Steward's API, followed with a stored key. Its instances are listed
// beside the local ones (`location`), operations naming them are forwarded, and its activity is
// merged into the feed with the same per-instance cursors.
import { z } from 'zod';
import { isLoopback } from '../loopback';
import { Id, IdParams, Name, NoInput, NoQuery, Timestamp, defineOperation } from './common';
import { SecretName } from './secrets';

/** The version of the API contract a remote must speak to be followed (health's `contract`). */
export const contractVersion = 1;

export const remoteStates = ['connecting', 'connected', 'unreachable', 'unauthorized', 'incompatible'] as const;
export type RemoteState = (typeof remoteStates)[number];

/** Why a URL cannot be a remote, or undefined when it can. */
export function remoteUrlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be a URL such as https://steward.example.com';
  }
  if (url.username || url.password) return 'must not hold a user name or password: the key goes in apiKeyRef';
  if (url.search || url.hash) return 'must not have a query or a fragment';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') return isLoopback(url.hostname) ? undefined : `must be https:// for ${url.hostname}: http:// is allowed on loopback only (127.0.0.1, localhost), where no one else can read the key`;
  return 'must be an https:// URL (or http:// on loopback)';
}

export const RemoteUrl = z
  .string()
  .trim()
  .superRefine((text, context) => {
    const problem = remoteUrlProblem(text);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  })
  .transform((text) => text.replace(/\/+$/, ''))
  .describe("The remote Steward's address: https://, or http:// on loopback");

export const Remote = z.object({
  id: Id('rem'),
  name: z.string(),
  url: z.string(),
  host: z.string().describe("The remote's host name: its instances' fqdn"),
  apiKeyRef: z.string().describe('The stored secret holding its API key (the key itself never leaves this Steward)'),
  state: z.enum(remoteStates),
  version: z.string().nullable().describe("The remote's Steward version, once connected"),
  latencyMs: z.int().nullable().describe('Round trip of its last health check'),
  error: z.string().nullable().describe('Why it is not connected'),
  since: Timestamp.describe('When the current state began'),
  lastConnectedAt: Timestamp.nullable(),
  instanceCount: z.int(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Remote = z.infer<typeof Remote>;

export const RemoteCreate = z.strictObject({
  name: Name,
  url: RemoteUrl,
  apiKeyRef: SecretName.describe('The name of a stored secret (PUT /api/secrets/{name}) holding an admin API key of the remote'),
  apiKey: z.string().min(1).max(4096).optional().describe('The API key itself, stored as the secret apiKeyRef only if the remote is added: a refused add stores nothing'),
});

/** A test before adding: the key as a stored secret, or pasted (used for this check only, never stored). */
export const RemoteCheckRequest = z
  .strictObject({
    url: RemoteUrl,
    apiKeyRef: SecretName.optional().describe('A stored secret holding its API key'),
    apiKey: z.string().min(1).max(4096).optional().describe('Its API key itself, for this check only: nothing is stored'),
  })
  .refine((body) => (body.apiKeyRef === undefined) !== (body.apiKey === undefined), { message: 'Give either apiKeyRef or apiKey.', path: ['apiKeyRef'] });

export const RemotePatch = z.strictObject({
  name: Name.optional(),
  url: RemoteUrl.optional(),
  apiKeyRef: SecretName.optional(),
});

export const RemoteCheck = z.object({
  state: z.enum(remoteStates),
  version: z.string().nullable(),
  latencyMs: z.int().nullable(),
  error: z.string().nullable(),
  instanceCount: z.int(),
});
export type RemoteCheck = z.infer<typeof RemoteCheck>;

const RemoteEnvelope = z.object({ remote: Remote });

export const remoteOperations = {
  'remotes.list': defineOperation({
    name: 'remotes.list', method: 'GET', path: '/api/remotes', summary: 'List remote Stewards and their connection state',
    auth: true, scope: 'admin', status: 200, params: NoInput, query: NoQuery, body: z.undefined(), output: z.object({ remotes: z.array(Remote) }),
  }),
  'remotes.create': defineOperation({
    name: 'remotes.create', method: 'POST', path: '/api/remotes', summary: 'Follow another Steward: its instances become instances here',
    auth: true, status: 201, params: NoInput, query: NoQuery, body: RemoteCreate, output: RemoteEnvelope,
  }),
  'remotes.check': defineOperation({
    name: 'remotes.check', method: 'POST', path: '/api/remotes/check', summary: 'Test a connection before adding it: reachable, key accepted, contract spoken',
    auth: true, status: 200, params: NoInput, query: NoQuery, body: RemoteCheckRequest, output: z.object({ check: RemoteCheck }),
  }),
  'remotes.get': defineOperation({
    name: 'remotes.get', method: 'GET', path: '/api/remotes/{id}', summary: 'Get a remote Steward',
    auth: true, scope: 'admin', status: 200, params: IdParams, query: NoQuery, body: z.undefined(), output: RemoteEnvelope,
  }),
  'remotes.update': defineOperation({
    name: 'remotes.update', method: 'PATCH', path: '/api/remotes/{id}', summary: 'Rename a remote, or change its address or key (it reconnects)',
    auth: true, status: 200, params: IdParams, query: NoQuery, body: RemotePatch, output: RemoteEnvelope,
  }),
  'remotes.delete': defineOperation({
    name: 'remotes.delete', method: 'DELETE', path: '/api/remotes/{id}', summary: 'Stop following a remote: its instances and their lines go from here (nothing changes there)',
    auth: true, status: 204, params: IdParams, query: NoQuery, body: z.undefined(), output: null,
  }),
};

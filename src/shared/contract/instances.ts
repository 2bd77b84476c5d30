// Instances: named agents with a status, image tag, avatar and fqdn (seed "Instance").
import { z } from 'zod';
import { AgentConfig } from './agents';
import { Id, IdParams, Name, NoInput, NoQuery, Timestamp, defineOperation } from './common';
import { SandboxConfig } from './sandbox';
import { Budget } from './budgets';
import { Permissions } from './approvals';

export const instanceStatuses = ['provisioning', 'running', 'stopped', 'error'] as const;

export const maxAvatarUrlLength = 100_000;

/** https URLs and inline images; the empty string asks for the generated avatar again. */
export const AvatarUrl = z
  .string()
  .max(maxAvatarUrlLength, `must be at most ${maxAvatarUrlLength} characters`)
  .refine((value) => value === '' || /^data:image\/(png|jpeg|gif|webp|svg\+xml)(;base64)?,/.test(value) || isHttpsUrl(value), {
    message: 'must be an https URL or a data:image/ URL',
  });

function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

/** Other instances (of this Steward) whose runs may send this one prompts; see RunKeyReach `prompts`. */
export const AcceptsPromptsFrom = z
  .array(z.string().min(1))
  .max(200)
  .describe(
    "Instances whose runs may send this one prompts (send_prompt) and read the runs they started here; only while this instance is at least as confined as the sender (never an `off` instance from a sandboxed one). Default: none, a run reaches its own instance only",
  );

export const Instance = z.object({
  id: Id('ins'),
  name: z.string(),
  status: z.enum(instanceStatuses),
  statusReason: z.string().nullable(),
  imageTag: z.string().describe('What runs the agent, as probed; empty until the first probe'),
  avatarUrl: z.string(),
  fqdn: z.string().describe("`<slug>.localhost` here (the tunnel's host when one is on); a remote instance's is its Steward's host"),
  location: z.string().describe("`local`, or the id of the remote Steward it runs on (`rem_…`)"),
  agent: AgentConfig,
  sandbox: SandboxConfig,
  budget: Budget,
  permissions: Permissions,
  acceptsPromptsFrom: AcceptsPromptsFrom,
  workspaceDir: z.string(),
  isDefault: z.boolean(),
  remoteDefault: z.boolean().optional().describe("A remote Steward's instance that is that Steward's default: it refuses to delete it"),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Instance = z.infer<typeof Instance>;

export const InstanceCreate = z.strictObject({
  name: Name,
  avatarUrl: AvatarUrl.optional(),
  agent: AgentConfig.optional(),
  sandbox: SandboxConfig.optional().describe('Default: {"mode": "sandbox"}, with nothing more allowed'),
  budget: Budget.optional().describe('Default: {} (no limit)'),
  permissions: Permissions.optional().describe('Default: bypass (the agent never asks)'),
  acceptsPromptsFrom: AcceptsPromptsFrom.optional(),
  workspaceDir: z
    .string()
    .regex(/^(\/|[A-Za-z]:[\\/])/, 'must be an absolute path')
    .optional()
    .describe('Absolute path; default: a folder in the data folder'),
});

export const InstancePatch = z.strictObject({
  name: Name.optional(),
  avatarUrl: AvatarUrl.optional(),
  agent: AgentConfig.optional().describe(
    'A new agent: probed again (provisioning, then running or error) unless the instance is stopped; a run already running finishes on the agent it started with',
  ),
  sandbox: SandboxConfig.optional().describe('The whole sandbox, replaced; a change is probed again like a new agent'),
  budget: Budget.optional().describe('The whole budget, replaced'),
  permissions: Permissions.optional().describe("ask: refused (400) for an agent with no way to ask (the probe says which)"),
  acceptsPromptsFrom: AcceptsPromptsFrom.optional().describe('The whole list, replaced'),
});

/** Not strict: other query parameters are ignored, as before there were any. */
export const InstanceListQuery = z.object({
  location: z.enum(['local', 'all']).default('all').describe("`local`: only this Steward's own instances"),
});

const InstanceEnvelope = z.object({ instance: Instance });

export const instanceOperations = {
  'instances.list': defineOperation({
    name: 'instances.list', method: 'GET', path: '/api/instances', summary: "List instances: this Steward's and its remotes'",
    auth: true, runKey: 'prompts', status: 200, params: NoInput, query: InstanceListQuery, body: z.undefined(),
    output: z.object({ instances: z.array(Instance) }),
  }),
  'instances.create': defineOperation({
    name: 'instances.create', method: 'POST', path: '/api/instances', summary: 'Create an instance',
    auth: true, status: 201, params: NoInput, query: NoQuery, body: InstanceCreate, output: InstanceEnvelope,
  }),
  'instances.get': defineOperation({
    name: 'instances.get', method: 'GET', path: '/api/instances/{id}', summary: 'Get an instance',
    auth: true, runKey: 'prompts', status: 200, params: IdParams, query: NoQuery, body: z.undefined(), output: InstanceEnvelope,
  }),
  'instances.update': defineOperation({
    name: 'instances.update', method: 'PATCH', path: '/api/instances/{id}', summary: 'Rename an instance, change its avatar, or change its agent or sandbox (probed again)',
    auth: true, status: 200, params: IdParams, query: NoQuery, body: InstancePatch, output: InstanceEnvelope,
  }),
  'instances.delete': defineOperation({
    name: 'instances.delete', method: 'DELETE', path: '/api/instances/{id}', summary: 'Delete an instance no automation or webhook targets; refused while a run is running unless force=true',
    auth: true, status: 204, params: IdParams, query: z.strictObject({ force: z.enum(['true', 'false']).optional() }), body: z.undefined(), output: null,
  }),
  'instances.start': defineOperation({
    name: 'instances.start', method: 'POST', path: '/api/instances/{id}/start', summary: 'Start an instance: provisioning while its agent is probed, then running or error',
    auth: true, status: 202, params: IdParams, query: NoQuery, body: NoInput, output: InstanceEnvelope,
  }),
  'instances.stop': defineOperation({
    name: 'instances.stop', method: 'POST', path: '/api/instances/{id}/stop', summary: 'Stop an instance: a running run is cancelled, queued runs wait until it starts',
    auth: true, status: 200, params: IdParams, query: NoQuery, body: NoInput, output: InstanceEnvelope,
  }),
  'instances.restart': defineOperation({
    name: 'instances.restart', method: 'POST', path: '/api/instances/{id}/restart', summary: 'Stop, then start an instance (its agent is probed again)',
    auth: true, status: 202, params: IdParams, query: NoQuery, body: NoInput, output: InstanceEnvelope,
  }),
};

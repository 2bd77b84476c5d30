// Steward as code: instances, automations and webhooks as YAML documents, one per resource, named
// by kind and name. A document is the resource's create body, with other resources named by
// their names (an instance, an `after` trigger's automation) and secrets by their stored names;
// a webhook's token is never written. The JSON Schema editors read is generated from these.
import { z } from 'zod';
import { IdParams, NoInput, NoQuery, Timestamp, defineOperation } from './common';
import { InstanceCreate } from './instances';
import { AutomationCreate, checkScheduleOrTrigger } from './automations';
import { WebhookCreate } from './webhooks';
import { AfterTrigger, checkTrigger, triggerShape } from './triggers';
import { SecretName } from './secrets';

export const configKinds = ['instance', 'automation', 'webhook'] as const;
export const ConfigKind = z.enum(configKinds);
export type ConfigKind = z.infer<typeof ConfigKind>;

const InstanceName = z.string().min(1).describe('An instance, by its name');

export const InstanceDocument = InstanceCreate.extend({
  kind: z.literal('instance'),
  acceptsPromptsFrom: z.array(InstanceName).max(200).optional().describe('Instances, by name, whose runs may send this one prompts'),
}).describe('An instance: its agent, sandbox, permissions and limits. Fields left out take their defaults');

const { instanceId: _automationInstance, trigger: _trigger, ...automationFields } = AutomationCreate.shape;

export const DocumentTrigger = z
  .strictObject({
    ...triggerShape,
    after: z
      .strictObject({ automation: z.string().min(1).describe('The automation it follows, by name'), on: AfterTrigger.shape.on })
      .optional()
      .describe("Run after another automation's run ends"),
  })
  .superRefine(checkTrigger);

export const AutomationDocument = z
  .strictObject({
    kind: z.literal('automation'),
    ...automationFields,
    instance: InstanceName.optional().describe('Default: the default instance'),
    trigger: DocumentTrigger.optional(),
  })
  .superRefine(checkScheduleOrTrigger)
  .describe('An automation: a prompt on a cron schedule or a trigger');

const { instanceId: _webhookInstance, signature: _signature, ...webhookFields } = WebhookCreate.shape;

export const WebhookDocument = z
  .strictObject({
    kind: z.literal('webhook'),
    ...webhookFields,
    instance: InstanceName.optional().describe('Default: the default instance'),
    signature: z
      .strictObject({
        scheme: WebhookCreate.shape.signature.unwrap().shape.scheme,
        secretFrom: SecretName.optional().describe('The stored secret holding the signing secret; needed when the check is new, else the one in force stays'),
      })
      .nullable()
      .optional()
      .describe('Require a valid signature on every trigger; the signing secret is never written to a file'),
  })
  .describe("A webhook: a prompt template filled by a request to its secret trigger URL (the token stays in Steward, made on first apply)");

export const ConfigDocument = z.discriminatedUnion('kind', [InstanceDocument, AutomationDocument, WebhookDocument]);
export type ConfigDocument = z.output<typeof ConfigDocument>;
export type InstanceDocument = z.output<typeof InstanceDocument>;
export type AutomationDocument = z.output<typeof AutomationDocument>;
export type WebhookDocument = z.output<typeof WebhookDocument>;

export const maxConfigFiles = 2_000;
export const maxConfigFileBytes = 1024 * 1024;
/** The files of one apply, together: a few thousand resources. */
export const maxConfigApplyBytes = 16 * 1024 * 1024;

export const ConfigFile = z.strictObject({
  path: z.string().min(1).max(4096).describe('Where the text comes from (a path, or a file name): errors and origins name it'),
  text: z.string().max(maxConfigFileBytes, `must be at most ${maxConfigFileBytes} characters`),
});
export type ConfigFile = z.infer<typeof ConfigFile>;

export const pruneModes = ['none', 'files', 'all'] as const;

export const ConfigApply = z.strictObject({
  files: z.array(ConfigFile).min(1, 'give at least one file').max(maxConfigFiles),
  dryRun: z.boolean().default(false).describe('true: work out the changes and change nothing'),
  prune: z
    .enum(pruneModes)
    .default('none')
    .describe('Delete what the files no longer name: none; files (what came from these files, or from a file of `folder`, before); all (every instance, automation and webhook not named, but the default instance)'),
  folder: z
    .string()
    .regex(/^(\/|[A-Za-z]:[\\/])/, 'must be an absolute path')
    .optional()
    .describe("The folder the files were read from (steward apply -f DIR): a prune of `files` also takes what came from its files that are gone"),
});

export const changeActions = ['add', 'change', 'delete'] as const;

export const ConfigChange = z.object({
  kind: ConfigKind,
  name: z.string(),
  action: z.enum(changeActions),
  file: z.string().nullable().describe('The file that names it (null for a delete)'),
  diff: z.string().describe('Its document before and after, as a unified diff (lines starting "-" go, "+" come)'),
  note: z.string().nullable().describe('What the change means beyond its lines: a rename is a delete and an add, whose runs and history go'),
});
export type ConfigChange = z.infer<typeof ConfigChange>;

export const ConfigPlan = z.object({
  applied: z.boolean().describe('false for a dry run, or when nothing was to change'),
  changes: z.array(ConfigChange),
  unchanged: z.int().min(0).describe('Resources the files name that are already as written'),
  summary: z.string().describe('"2 to add, 1 to change, 1 to delete" in words'),
});
export type ConfigPlan = z.infer<typeof ConfigPlan>;

export const ManagedResource = z.object({
  id: z.string(),
  kind: ConfigKind,
  name: z.string(),
  file: z.string().describe('The file it was last applied from'),
  writable: z.boolean().describe('Whether write-back can write that file: it is a file on this machine (an upload is not)'),
  appliedAt: Timestamp,
});
export type ManagedResource = z.infer<typeof ManagedResource>;

export const ConfigState = z.object({
  folder: z.string().nullable().describe('The folder applied whenever it changes (a git checkout); null: none'),
  lastApplied: z
    .object({
      at: Timestamp,
      commit: z.string().nullable().describe("The folder's git commit, when it is a checkout"),
      summary: z.string(),
      changes: z.array(ConfigChange.pick({ kind: true, name: true, action: true })).describe('What it changed (at most 100)'),
    })
    .nullable(),
  error: z
    .object({ at: Timestamp, message: z.string(), commit: z.string().nullable().describe('The commit refused, when the folder is a checkout') })
    .nullable()
    .describe('Why the folder was last refused; the last good state stays in force'),
  managed: z.array(ManagedResource).describe('Resources that came from files'),
});
export type ConfigState = z.infer<typeof ConfigState>;

const RemoteQuery = z.strictObject({
  remote: z.string().min(1).optional().describe("A remote Steward's name or id: the request goes to it, through this Steward"),
});

export const configOperations = {
  'config.get': defineOperation({
    name: 'config.get', method: 'GET', path: '/api/config', summary: 'The configuration folder, its last apply or error, and which resources came from files',
    auth: true, scope: 'admin', status: 200, params: NoInput, query: NoQuery, body: z.undefined(), output: z.object({ config: ConfigState }),
  }),
  'config.setFolder': defineOperation({
    name: 'config.setFolder', method: 'PUT', path: '/api/config', summary: 'Choose the folder applied whenever it changes (null: none); it is applied at once',
    auth: true, status: 200, params: NoInput, query: NoQuery,
    body: z.strictObject({ folder: z.string().regex(/^(\/|[A-Za-z]:[\\/])/, 'must be an absolute path').nullable() }),
    output: z.object({ config: ConfigState }),
  }),
  'config.export': defineOperation({
    name: 'config.export', method: 'GET', path: '/api/config/export', summary: 'Instances, automations and webhooks as YAML files, one per resource (secrets by name, no tokens)',
    auth: true, scope: 'admin', status: 200, params: NoInput,
    query: RemoteQuery.extend({ kind: ConfigKind.optional().describe('Only this kind'), name: z.string().min(1).optional().describe('Only resources of this name') }),
    body: z.undefined(),
    output: z.object({ files: z.array(ConfigFile).describe('`instances/<name>.yaml`, `automations/…`, `webhooks/…`, in that order') }),
  }),
  'config.apply': defineOperation({
    name: 'config.apply', method: 'POST', path: '/api/config/apply',
    summary: 'Apply YAML files: resources matched by kind and name, all in one transaction or nothing; dryRun shows the changes without making them. An invalid file changes nothing (400 invalid_config, naming file, line and column)',
    auth: true, status: 200, params: NoInput, query: RemoteQuery, body: ConfigApply, output: ConfigPlan, maxBodyBytes: maxConfigApplyBytes,
  }),
  'config.detach': defineOperation({
    name: 'config.detach', method: 'POST', path: '/api/config/detach/{id}', summary: 'Detach a resource from its file: the folder no longer changes or prunes it',
    auth: true, status: 204, params: IdParams, query: NoQuery, body: NoInput, output: null,
  }),
  'config.writeBack': defineOperation({
    name: 'config.writeBack', method: 'POST', path: '/api/config/write-back/{id}', summary: "Write a resource as it is now into the file it came from (its document replaced, the file's other documents kept)",
    auth: true, status: 200, params: IdParams, query: NoQuery, body: NoInput, output: z.object({ file: z.string() }),
  }),
  'config.schema': defineOperation({
    name: 'config.schema', method: 'GET', path: '/api/config/schema', summary: 'The JSON Schema of a configuration document, for editors',
    auth: true, status: 200, params: NoInput, query: NoQuery, body: z.undefined(), output: z.record(z.string(), z.unknown()),
  }),
};

/** The JSON Schema of one document (editors: `# yaml-language-server: $schema=…`). */
export function configJsonSchema(): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'Steward configuration document',
    ...(z.toJSONSchema(ConfigDocument, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>),
  };
}

// Resources as configuration documents, and back: one table of what a field is when a document
// leaves it out, used both ways, so that export writes only what differs from it and apply fills
// it in. Other resources are named by name; secrets by their stored names; no token, no id.
import path from 'node:path';
import {
  type ConfigKind,
  type Instance,
  bypassPermissions,
  defaultSandbox,
  eventKindOf,
  noApproval,
  noRetry,
} from '../../../shared/contract';
import { senderPresets } from '../../../shared/webhook-senders';
import type { Store } from '../store';
import type { AutomationRecord } from '../store/repositories/automations';
import type { WebhookRecord } from '../store/repositories/webhooks';
import { generatedAvatarUrl } from '../services/avatar';
import { canonical, sameValue } from '../unchanged';

/** A resource as a document, with what it is here. */
export interface ExportedResource {
  kind: ConfigKind;
  id: string;
  name: string;
  document: Record<string, unknown>;
}

/** What each optional field of a document is when left out. */
export const documentDefaults = {
  instance: { sandbox: defaultSandbox, budget: {}, permissions: bypassPermissions, acceptsPromptsFrom: [] as string[] },
  automation: { timezone: 'UTC', enabled: true, notify: 'default', memory: 'fresh', retry: noRetry, approval: noApproval, budget: {} },
  webhook: { enabled: true, notify: 'default', memory: 'fresh', retry: noRetry, approval: noApproval, sender: 'generic', filter: [], fencePayload: false, signature: null },
} as const;

/** An automation's catch-up when left out: each event for an event trigger, else the latest fire. */
export const defaultCatchUp = (trigger: AutomationRecord['trigger']): AutomationRecord['catchUp'] => (eventKindOf(trigger) ? 'all' : 'latest');

/** `document` with `fields` in this order, each left out where it is its default. */
function written(fields: [key: string, value: unknown][], defaults: Record<string, unknown>): Record<string, unknown> {
  const document: Record<string, unknown> = {};
  for (const [key, value] of fields) {
    if (value === undefined) continue;
    if (key in defaults && sameValue(value, defaults[key])) continue;
    document[key] = typeof value === 'object' && value !== null ? canonical(value) : value;
  }
  return document;
}

export function instanceDocument(instance: Instance, names: Map<string, string>, dataDir: string): Record<string, unknown> {
  // A workspace in the data folder is made again on another machine: only one chosen elsewhere is written.
  const ownWorkspace = path.dirname(instance.workspaceDir) === path.join(dataDir, 'workspaces');
  return written(
    [
      ['kind', 'instance'],
      ['name', instance.name],
      ['avatarUrl', instance.avatarUrl === generatedAvatarUrl(instance.name) ? undefined : instance.avatarUrl],
      ['agent', instance.agent],
      ['sandbox', instance.sandbox],
      ['permissions', instance.permissions],
      ['budget', instance.budget],
      ['acceptsPromptsFrom', instance.acceptsPromptsFrom.map((id) => names.get(id) ?? id).sort()],
      ['workspaceDir', ownWorkspace ? undefined : instance.workspaceDir],
    ],
    documentDefaults.instance,
  );
}

export function automationDocument(record: AutomationRecord, instanceNames: Map<string, string>, defaultInstanceId: string | undefined, automationNames: Map<string, string>): Record<string, unknown> {
  const { after, ...trigger } = record.trigger ?? {};
  return written(
    [
      ['kind', 'automation'],
      ['name', record.name],
      ['instance', record.instanceId === defaultInstanceId ? undefined : instanceNames.get(record.instanceId)],
      ['cronExpression', record.cronExpression ?? undefined],
      ['trigger', record.trigger === null ? undefined : after ? { after: { automation: automationNames.get(after.automationId) ?? after.automationId, on: after.on } } : trigger],
      ['timezone', record.timezone],
      ['enabled', record.enabled],
      ['catchUp', record.catchUp === defaultCatchUp(record.trigger) ? undefined : record.catchUp],
      ['notify', record.notify],
      ['memory', record.memory],
      ['retry', record.retry],
      ['approval', record.approval],
      ['budget', record.budget],
      ['prompt', record.prompt],
    ],
    documentDefaults.automation,
  );
}

export function webhookDocument(record: WebhookRecord, instanceNames: Map<string, string>, defaultInstanceId: string | undefined): Record<string, unknown> {
  const preset = senderPresets[record.sender];
  return written(
    [
      ['kind', 'webhook'],
      ['name', record.name],
      ['instance', record.instanceId === defaultInstanceId ? undefined : instanceNames.get(record.instanceId)],
      ['enabled', record.enabled],
      ['sender', record.sender],
      ['signature', record.signature && { scheme: record.signature.scheme }],
      ['maxPayloadBytes', record.maxPayloadBytes === preset.maxPayloadBytes ? undefined : record.maxPayloadBytes],
      ['idempotencyKey', record.idempotencyKey === preset.idempotencyKey ? undefined : record.idempotencyKey],
      ['filter', record.filter],
      ['fencePayload', record.fencePayload],
      ['notify', record.notify],
      ['memory', record.memory],
      ['retry', record.retry],
      ['approval', record.approval],
      ['promptTemplate', record.promptTemplate],
    ],
    documentDefaults.webhook,
  );
}

/** Every local instance, automation and webhook as documents: instances, then automations, then webhooks, each by name. */
export function exportResources(store: Store, dataDir: string): ExportedResource[] {
  const instances = store.instances.list();
  const automations = store.automations.list();
  const webhooks = store.webhooks.list();
  const instanceNames = new Map(instances.map((each) => [each.id, each.name]));
  const automationNames = new Map(automations.map((each) => [each.id, each.name]));
  const defaultId = store.instances.getDefault()?.id;
  const byName = (a: ExportedResource, b: ExportedResource) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1);
  return [
    ...instances.map((each): ExportedResource => ({ kind: 'instance', id: each.id, name: each.name, document: instanceDocument(each, instanceNames, dataDir) })).sort(byName),
    ...automations.map((each): ExportedResource => ({ kind: 'automation', id: each.id, name: each.name, document: automationDocument(each, instanceNames, defaultId, automationNames) })).sort(byName),
    ...webhooks.map((each): ExportedResource => ({ kind: 'webhook', id: each.id, name: each.name, document: webhookDocument(each, instanceNames, defaultId) })).sort(byName),
  ];
}

// Applying configuration files: every document checked first (a problem names its file, line and
// column, and nothing changes), then every change made through the services in one transaction,
// so that the same rules hold as over the API and a failure anywhere leaves the old state whole.
// The changes shown are the export before against the export after, inside that transaction: a
// dry run rolls it back. What lives outside the database (schedules, sources, probes, the webhook
// directory) follows only a commit (store.afterCommit).
import {
  type AutomationDocument,
  type ConfigChange,
  ConfigDocument,
  type ConfigFile,
  type ConfigKind,
  type ConfigPlan,
  type InstanceDocument,
  type SignatureScheme,
  type WebhookDocument,
  changeActions,
  configKinds,
  pruneModes,
} from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import { issueError } from '../../../shared/parse-input';
import { printable } from '../../../shared/printable';
import type { Store } from '../store';
import { readSettings } from '../settings';
import { isAtOrUnder } from '../sandbox/paths';
import { senderPresets } from '../../../shared/webhook-senders';
import type { SecretBox } from '../secrets';
import type { AutomationsService } from '../services/automations';
import type { InstancesService } from '../services/instances';
import type { WebhooksService } from '../services/webhooks';
import { type ExportedResource, defaultCatchUp, documentDefaults, exportResources } from './documents';
import { sameValue } from '../unchanged';
import { lineDiff } from './line-diff';
import { type ReadDocument, documentText, readFile } from './yaml-files';

export interface ApplyDeps {
  store: Store;
  dataDir: string;
  now: () => Date;
  instances: InstancesService;
  automations: AutomationsService;
  webhooks: WebhooksService;
  revealSecret: (name: string) => string | undefined;
  box: SecretBox;
}

export interface ApplyOptions {
  dryRun: boolean;
  prune: (typeof pruneModes)[number];
  /** The folder the files were read from: a prune of `files` takes what came from any file of it, and not only from the files given. */
  folder?: string | undefined;
  /** The watched folder, when one is set: what came from it is changed there, not by other files. */
  watchedFolder?: string | null | undefined;
  /** This apply is the watched folder's own: a resource a person detached is left as it is. */
  watched?: boolean;
}

interface Checked<D> {
  document: D;
  read: ReadDocument;
}

type Docs = { instance: Checked<InstanceDocument>[]; automation: Checked<AutomationDocument>[]; webhook: Checked<WebhookDocument>[] };

/** Rolls a dry run's transaction back, carrying what it would have done. */
class DryRun extends Error {
  constructor(readonly plan: ConfigPlan) {
    super('dry run');
  }
}

/** Each problem one line: a name or path from the files cannot start a line of its own or steer a terminal. */
const invalid = (problems: string[]) => {
  const lines = problems.map((problem) => printable(problem));
  return new AppError('invalid_config', `The configuration was not applied; nothing changed:\n${lines.join('\n')}`, { field: lines[0]?.split(': ')[0] });
};

/** Every file read and every document checked against the contract; all problems at once, or the documents. */
export function checkFiles(files: ConfigFile[]): Docs {
  const docs: Docs = { instance: [], automation: [], webhook: [] };
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const file of files) {
    const first = problems.length;
    const { documents, problems: unread } = readFile(file);
    problems.push(...unread.map(({ where, message }) => `${where}: ${message}`));
    for (const read of documents) {
      const value = read.value as { kind?: unknown; name?: unknown } | null;
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        problems.push(`${read.where([])}: a document must be a mapping with a kind and a name`);
        continue;
      }
      if (!configKinds.includes(value.kind as ConfigKind)) {
        problems.push(`${read.where(['kind'])}: kind must be instance, automation or webhook${value.kind === undefined ? '' : `, not ${JSON.stringify(value.kind)}`}`);
        continue;
      }
      const result = ConfigDocument.safeParse(value, { reportInput: true });
      if (!result.success) {
        // A misspelt cronExpression is one problem, not also "give either cronExpression or trigger".
        const misspelt = result.error.issues.some((issue) => issue.code === 'unrecognized_keys');
        const issues = result.error.issues.filter((issue) => !(misspelt && issue.code === 'custom' && (issue.params as { code?: string } | undefined)?.code === 'invalid_trigger' && issue.path.length === 1));
        for (const issue of issues) {
          if (issue.code === 'unrecognized_keys') {
            for (const key of issue.keys) problems.push(`${read.where(issue.path, key)}: unknown field "${[...issue.path, key].join('.')}" for ${String(value.kind)}`);
          } else {
            const named = typeof value.name === 'string' ? `${String(value.kind)} "${value.name}": ` : '';
            problems.push(`${read.where(issue.path)}: ${named}${issueError(issue, 'body').message}`);
          }
        }
        continue;
      }
      const document = result.data;
      const key = `${document.kind}\n${document.name}`;
      const first = seen.get(key);
      if (first) {
        problems.push(`${read.where(['name'])}: ${document.kind} "${document.name}" is named again (first at ${first}): names are how files match resources`);
        continue;
      }
      seen.set(key, read.where(['name']));
      (docs[document.kind] as Checked<ConfigDocument>[]).push({ document, read });
    }
    // A file's problems in the order of its lines.
    const position = (problem: string) => problem.slice(file.path.length).match(/^:(\d+):(\d+)/)?.slice(1).map(Number) ?? [0, 0];
    const ofFile = problems.splice(first).sort((a, b) => position(a)[0] - position(b)[0] || position(a)[1] - position(b)[1]);
    problems.push(...ofFile);
  }
  // Files with no document at all (only comments) are a mistake far more often than a wish to prune everything.
  if (problems.length === 0 && configKinds.every((kind) => docs[kind].length === 0)) {
    problems.push(`${files[0].path}:1:1: the files hold no document (a kind and a name): nothing to apply, and nothing pruned`);
  }
  if (problems.length > 0) throw invalid(problems);
  return docs;
}

/** A service's refusal while applying one document, said at the document's field. */
function atDocument(error: unknown, checked: Checked<ConfigDocument>): unknown {
  if (!(error instanceof AppError) || error.code === 'invalid_config') return error;
  const field = (error.field ?? '').replace(/^instanceId/, 'instance').replace(/^trigger\.after\.automationId/, 'trigger.after.automation');
  const path = field === '' ? [] : field.split('.');
  return invalid([`${checked.read.where(path)}: ${checked.document.kind} "${checked.document.name}": ${error.message}`]);
}

function each<D extends ConfigDocument>(list: Checked<D>[], work: (checked: Checked<D>) => void): void {
  for (const checked of list) {
    try {
      work(checked);
    } catch (error) {
      throw atDocument(error, checked);
    }
  }
}

/** Automations in an order where each one follows only automations made before it. */
function chainOrder(list: Checked<AutomationDocument>[]): Checked<AutomationDocument>[] {
  const byName = new Map(list.map((checked) => [checked.document.name, checked]));
  const ordered: Checked<AutomationDocument>[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (checked: Checked<AutomationDocument>, trail: string[]) => {
    const name = checked.document.name;
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') {
      throw invalid([`${checked.read.where(['trigger', 'after', 'automation'])}: automation "${name}" would follow itself: ${[...trail, name].join(' → ')}`]);
    }
    state.set(name, 'visiting');
    const followed = checked.document.trigger?.after?.automation;
    const before = followed === undefined ? undefined : byName.get(followed);
    if (before) visit(before, [...trail, name]);
    state.set(name, 'done');
    ordered.push(checked);
  };
  for (const checked of list) visit(checked, []);
  return ordered;
}

function describePlan(changes: ConfigChange[], unchanged: number, detached: string[]): string {
  const counts = changeActions.map((action) => [action, changes.filter((change) => change.action === action).length] as const).filter(([, count]) => count > 0);
  const left = detached.length === 0 ? '' : ` Left as ${detached.length === 1 ? 'it is' : 'they are'}, detached from the files: ${detached.join(', ')}.`;
  if (counts.length === 0) return `No changes: ${unchanged} resource${unchanged === 1 ? ' is' : 's are'} as the files say.${left}`;
  return `${counts.map(([action, count]) => `${count} to ${action}`).join(', ')}; ${unchanged} unchanged.${left}`;
}

/** The changes between two exports, by kind and name; a delete and an add of the same document under two names is said to be a rename. */
function planOf(before: ExportedResource[], after: ExportedResource[], files: Map<string, string>, applied: boolean, detached: string[]): ConfigPlan {
  const key = (resource: ExportedResource) => `${resource.kind}\n${resource.name}`;
  const was = new Map(before.map((resource) => [key(resource), resource]));
  const is = new Map(after.map((resource) => [key(resource), resource]));
  const text = (resource: ExportedResource | undefined) => (resource ? documentText(resource.document) : '');
  const changes: ConfigChange[] = [];
  let unchanged = 0;
  for (const resource of after) {
    const old = was.get(key(resource));
    const diff = lineDiff(text(old), text(resource));
    if (old && !diff.split('\n').some((line) => /^[-+] /.test(line))) {
      if (files.has(key(resource))) unchanged++;
      continue;
    }
    changes.push({ kind: resource.kind, name: resource.name, action: old ? 'change' : 'add', file: files.get(key(resource)) ?? null, diff, note: null });
  }
  for (const resource of before) {
    if (!is.has(key(resource))) changes.push({ kind: resource.kind, name: resource.name, action: 'delete', file: null, diff: lineDiff(text(resource), ''), note: null });
  }
  const withoutName = (resource: ExportedResource) => JSON.stringify({ ...resource.document, name: undefined });
  for (const gone of changes.filter((change) => change.action === 'delete')) {
    const old = was.get(`${gone.kind}\n${gone.name}`)!;
    const added = changes.find((change) => change.action === 'add' && change.kind === gone.kind && !change.note && withoutName(is.get(`${change.kind}\n${change.name}`)!) === withoutName(old));
    if (!added) continue;
    gone.note = `Renamed to "${added.name}": a rename is a delete and an add, so the ${gone.kind}'s runs and history go with "${gone.name}".`;
    added.note = `Renamed from "${gone.name}": a new ${added.kind}, made afresh (the old one's runs and history are not carried over).`;
  }
  return { applied: applied && changes.length > 0, changes, unchanged, summary: describePlan(changes, unchanged, detached) };
}

export function applyConfig(deps: ApplyDeps, files: ConfigFile[], options: ApplyOptions): ConfigPlan {
  const docs = checkFiles(files);
  const { store, instances, automations, webhooks } = deps;
  const fileOf = new Map<string, string>();
  for (const kind of configKinds) for (const { document, read } of docs[kind]) fileOf.set(`${kind}\n${document.name}`, read.file);
  try {
    return store.transaction(() => {
      const before = exportResources(store, deps.dataDir);
      const ids = new Map(before.map((resource) => [`${resource.kind}\n${resource.name}`, resource.id]));
      const idOf = (kind: ConfigKind, name: string) => ids.get(`${kind}\n${name}`);
      // Read again once the instances are made: the automations and webhooks may name new ones.
      let instanceIds = new Map<string, string>();
      const readInstances = () => (instanceIds = new Map(store.instances.list().map((instance) => [instance.name, instance.id])));
      const instanceId = (name: string | undefined, field = 'instance'): string | undefined => {
        if (name === undefined) return undefined;
        const found = instanceIds.get(name);
        if (!found) throw new AppError('invalid_field', `No instance named "${name}" here or in the files.`, { field });
        return found;
      };
      const appliedAt = deps.now().toISOString();
      const named = new Map<string, { kind: ConfigKind; name: string; file: string }>();
      const skipped = new Set<string>();
      /** Whether this document may change its resource: not one a person detached (for the watched folder), nor the watched folder's from another file. */
      const mayChange = (kind: ConfigKind, { document, read }: Checked<ConfigDocument>): boolean => {
        const id = idOf(kind, document.name);
        const origin = id === undefined ? undefined : store.configOrigins.get(id);
        if (!origin) return true;
        if (options.watched && origin.detached) {
          skipped.add(`${kind} "${document.name}"`);
          return false;
        }
        const fromWatched = !origin.detached && options.watchedFolder && isAtOrUnder(origin.file, options.watchedFolder);
        if (!options.watched && fromWatched && origin.file !== read.file) {
          throw new AppError('invalid_field', `It comes from the watched folder (${origin.file}): change it there, or detach it in the app first.`, { field: 'name' });
        }
        return true;
      };

      // Instances first (the others name them), then whom each accepts prompts from (they may be new too).
      each(docs.instance, (checked) => {
        const { document, read } = checked;
        if (!mayChange('instance', checked)) return;
        const { kind: _kind, acceptsPromptsFrom: _senders, workspaceDir, ...fields } = document;
        const id = idOf('instance', document.name);
        const current = id ? instances.get(id) : undefined;
        if (current && workspaceDir !== undefined && workspaceDir !== current.workspaceDir) {
          throw new AppError('invalid_field', `workspaceDir cannot change (it is ${current.workspaceDir}): make a new instance for another folder.`, { field: 'workspaceDir' });
        }
        const defaults = documentDefaults.instance;
        const body = { ...fields, sandbox: fields.sandbox ?? defaults.sandbox, budget: fields.budget ?? defaults.budget, permissions: fields.permissions ?? defaults.permissions };
        const made = current
          ? instances.update(current.id, { ...body, agent: fields.agent ?? readSettings(store).defaultAgent, avatarUrl: fields.avatarUrl ?? '' })
          : instances.create({ ...body, workspaceDir });
        named.set(made.id, { kind: 'instance', name: document.name, file: read.file });
      });
      readInstances();
      const defaultInstanceId = instances.ensureDefault().id;
      each(docs.instance, ({ document }) => {
        if (skipped.has(`instance "${document.name}"`)) return;
        const id = instanceId(document.name)!;
        const senders = (document.acceptsPromptsFrom ?? []).map((name, index) => instanceId(name, `acceptsPromptsFrom.${index}`)!);
        instances.update(id, { acceptsPromptsFrom: senders });
      });

      each(chainOrder(docs.automation), (checked) => {
        const { document, read } = checked;
        if (!mayChange('automation', checked)) return;
        const { kind: _kind, instance, trigger: written, cronExpression, ...fields } = document;
        const id = idOf('automation', document.name);
        const current = id ? store.automations.get(id) : undefined;
        let trigger: Parameters<AutomationsService['create']>[0]['trigger'];
        if (written?.after) {
          const followed = store.automations.list().find((each) => each.name === written.after!.automation);
          if (!followed) throw new AppError('invalid_field', `No automation named "${written.after.automation}" here or in the files.`, { field: 'trigger.after.automation' });
          trigger = { after: { automationId: followed.id, on: written.after.on } };
        } else {
          trigger = written as typeof trigger;
        }
        // An interval without its anchor keeps the one it has: applying the same file again changes nothing.
        if (trigger?.every && trigger.every.from === undefined && current?.trigger?.every) {
          const { from, ...interval } = current.trigger.every;
          if (sameValue(interval, trigger.every)) trigger = { every: { ...trigger.every, from } };
        }
        const defaults = documentDefaults.automation;
        const body = {
          ...fields,
          catchUp: fields.catchUp ?? defaultCatchUp(trigger ?? null),
          retry: fields.retry ?? defaults.retry,
          approval: fields.approval ?? defaults.approval,
          budget: fields.budget ?? defaults.budget,
          instanceId: instanceId(instance) ?? defaultInstanceId,
        };
        const made = current
          ? automations.updateRecord(current.id, cronExpression !== undefined ? { ...body, cronExpression } : { ...body, trigger })
          : automations.createRecord({ ...body, cronExpression, trigger });
        named.set(made.id, { kind: 'automation', name: document.name, file: read.file });
      });

      each(docs.webhook, (checked) => {
        const { document, read } = checked;
        if (!mayChange('webhook', checked)) return;
        const { kind: _kind, instance, signature: check, ...fields } = document;
        const id = idOf('webhook', document.name);
        const current = id ? store.webhooks.get(id) : undefined;
        let signature: { scheme?: SignatureScheme; secret: string } | null = null;
        if (check) {
          const given = check.secretFrom === undefined ? undefined : deps.revealSecret(check.secretFrom);
          if (check.secretFrom !== undefined && given === undefined) throw new AppError('invalid_field', `No stored secret named "${check.secretFrom}": store it first (Settings → Secrets, or PUT /api/secrets/${check.secretFrom}).`, { field: 'signature.secretFrom' });
          const kept = current?.signature ? openedOrUndefined(deps.box, current.signature.sealedSecret) : undefined;
          const secret = given ?? kept;
          if (secret === undefined) throw new AppError('missing_field', 'signature.secretFrom is required for a new signature check: the name of the stored secret that holds the signing secret (it is never written to a file).', { field: 'signature.secretFrom' });
          signature = { scheme: check.scheme, secret };
        }
        const defaults = documentDefaults.webhook;
        const body = { ...fields, retry: fields.retry ?? defaults.retry, approval: fields.approval ?? defaults.approval, instanceId: instanceId(instance) ?? defaultInstanceId };
        const made = current ? webhooks.update(current.id, { ...fullWebhook(body), signature }) : webhooks.create({ ...body, signature: signature ?? undefined });
        named.set(made.id, { kind: 'webhook', name: document.name, file: read.file });
      });

      if (options.prune !== 'none') prune(deps, named, new Set(files.map((file) => file.path)), options);
      for (const [resourceId, origin] of named) store.configOrigins.put({ resourceId, ...origin, appliedAt });
      const plan = planOf(before, exportResources(store, deps.dataDir), new Map([...fileOf]), !options.dryRun, [...skipped]);
      if (options.dryRun) throw new DryRun(plan);
      return plan;
    });
  } catch (error) {
    if (error instanceof DryRun) return error.plan;
    throw error;
  }
}

/** A stored seal opened, or undefined when it cannot be (sealed under another key): then the file must name the secret. */
function openedOrUndefined(box: SecretBox, sealed: string): string | undefined {
  try {
    return box.open(sealed);
  } catch {
    return undefined;
  }
}

/** A webhook document as a whole update: a field left out is its default again, the sender's where it has one. */
function fullWebhook(body: Parameters<WebhooksService['create']>[0]): Parameters<WebhooksService['update']>[1] {
  const sender = body.sender ?? 'generic';
  const preset = senderPresets[sender];
  const promptTemplate = body.promptTemplate ?? preset.promptTemplate;
  if (promptTemplate === null) throw new AppError('missing_field', 'promptTemplate is required.', { field: 'promptTemplate' });
  return {
    ...body,
    promptTemplate,
    sender,
    filter: body.filter ?? [],
    fencePayload: body.fencePayload ?? false,
    maxPayloadBytes: body.maxPayloadBytes ?? preset.maxPayloadBytes,
    idempotencyKey: body.idempotencyKey === undefined ? preset.idempotencyKey : body.idempotencyKey,
  };
}

/**
 * Deletes what the files no longer name: with `files`, what came from one of these files (or from
 * their folder) before; with `all`, everything. Automations and webhooks first, then the instances
 * they may have used; never the default instance, nor what a person detached.
 */
function prune(deps: ApplyDeps, named: Map<string, unknown>, given: Set<string>, options: ApplyOptions): void {
  const origins = new Map(deps.store.configOrigins.list().map((origin) => [origin.resourceId, origin]));
  const pruned = (id: string) => {
    if (named.has(id)) return false;
    if (options.prune === 'all') return true;
    const origin = origins.get(id);
    return origin !== undefined && (given.has(origin.file) || (options.folder !== undefined && isAtOrUnder(origin.file, options.folder)));
  };
  for (const automation of deps.store.automations.list()) if (pruned(automation.id)) deps.automations.delete(automation.id);
  for (const webhook of deps.store.webhooks.list()) if (pruned(webhook.id)) deps.webhooks.delete(webhook.id);
  for (const instance of deps.store.instances.list()) {
    if (instance.isDefault || !pruned(instance.id)) continue;
    try {
      deps.instances.delete(instance.id);
    } catch (error) {
      if (error instanceof AppError) throw new AppError(error.code, `Instance "${instance.name}" cannot be pruned: ${error.message}`);
      throw error;
    }
  }
}

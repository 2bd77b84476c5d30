// Configuration as files: the watched folder and its last result, which resources came from files
// (by id), export, apply (a dry run first), and a managed resource detached or written back.
import type { ConfigFile, ConfigKind, ConfigPlan, ConfigState, ManagedResource, pruneModes } from '../../../../shared/contract';
import type { Slice } from '../../store';

export type PruneMode = (typeof pruneModes)[number];

export interface ConfigSlice {
  /** Undefined until loaded (or when this Steward cannot tell: an older one, a narrower key). */
  config: ConfigState | undefined;
  loadConfig: () => Promise<void>;
  /** Loads it again shortly, once for a burst of changes (a folder applied changes many resources). */
  configChanged: () => void;
  /** The resource's origin, when it came from a file. */
  managedOf: (id: string) => ManagedResource | undefined;
  setConfigFolder: (folder: string | null) => Promise<void>;
  exportConfig: () => Promise<ConfigFile[]>;
  applyConfig: (files: ConfigFile[], options: { dryRun: boolean; prune: PruneMode }) => Promise<ConfigPlan>;
  detachFromFile: (id: string) => Promise<void>;
  /** Writes the resource as it is now into its file; the file's path. */
  writeBackToFile: (id: string) => Promise<string>;
}

const changedDelayMs = 300;

export const configSlice: Slice<ConfigSlice> = (set, get) => {
  let reload: ReturnType<typeof setTimeout> | undefined;
  return {
    config: undefined,
    async loadConfig() {
      set({ config: (await get().client.call('config.get')).config });
    },
    configChanged() {
      if (reload !== undefined || get().config === undefined) return;
      reload = setTimeout(() => {
        reload = undefined;
        void get().loadConfig().catch(() => undefined);
      }, changedDelayMs);
    },
    managedOf: (id) => get().config?.managed.find((each) => each.id === id),
    async setConfigFolder(folder) {
      set({ config: (await get().client.call('config.setFolder', { body: { folder } })).config });
    },
    async exportConfig() {
      return (await get().client.call('config.export')).files;
    },
    async applyConfig(files, { dryRun, prune }) {
      const plan = await get().client.call('config.apply', { body: { files, dryRun, prune } });
      if (plan.applied) {
        // What changed is announced live too; the origins are read here, the lists for certain.
        const state = get();
        await Promise.all([state.loadConfig(), state.loadAutomations(), state.loadWebhooks(), state.loadInstances()]);
      }
      return plan;
    },
    async detachFromFile(id) {
      await get().client.call('config.detach', { params: { id } });
      await get().loadConfig();
    },
    async writeBackToFile(id) {
      const { file } = await get().client.call('config.writeBack', { params: { id } });
      await get().loadConfig();
      return file;
    },
  };
};

/** The kinds as a person counts them. */
const kindWords: Record<ConfigKind, [string, string]> = { instance: ['instance', 'instances'], automation: ['automation', 'automations'], webhook: ['webhook', 'webhooks'] };
const counted = (count: number, [one, many]: [string, string]) => `${count} ${count === 1 ? one : many}`;

/** The kind of an exported file, from its folder (`automations/x.yaml`). */
export function kindOfPath(path: string): ConfigKind | undefined {
  const folder = path.split('/')[0];
  return (['instance', 'automation', 'webhook'] as const).find((kind) => folder === `${kind}s`);
}

/** "12 resources: 3 instances, 7 automations, 2 webhooks" (kinds with none left out). */
export function exportWords(files: ConfigFile[]): string {
  const counts: Record<ConfigKind, number> = { instance: 0, automation: 0, webhook: 0 };
  for (const file of files) {
    const kind = kindOfPath(file.path);
    if (kind) counts[kind] += 1;
  }
  const parts = (Object.keys(counts) as ConfigKind[]).filter((kind) => counts[kind] > 0).map((kind) => counted(counts[kind], kindWords[kind]));
  const total = counted(files.length, ['resource', 'resources']);
  return parts.length > 0 ? `${total}: ${parts.join(', ')}` : total;
}

/** One YAML stream of the files, in their order; each document ends with a newline before the next `---`. */
export function oneYaml(files: ConfigFile[]): string {
  return files.map((file) => (file.text.endsWith('\n') ? file.text : `${file.text}\n`)).join('---\n');
}

/** A path short enough for a card: inside the watched folder from the folder's name, else its last two parts. */
export function shortPath(file: string, folder: string | null): string {
  const separator = file.includes('\\') && !file.includes('/') ? '\\' : '/';
  if (folder) {
    const base = folder.replace(/[\\/]+$/, '');
    if (file.startsWith(base + separator)) return `…${separator}${base.split(/[\\/]/).at(-1) ?? ''}${separator}${file.slice(base.length + 1)}`;
  }
  const parts = file.split(/[\\/]/).filter(Boolean);
  return parts.length > 2 ? `…${separator}${parts.slice(-2).join(separator)}` : file;
}

/** The problems of an `invalid_config` refusal, one `file:line:col: problem` a line, without its first sentence. */
export function configProblems(message: string): string[] {
  const [, ...lines] = message.split('\n');
  return lines.map((line) => line.trim()).filter(Boolean);
}

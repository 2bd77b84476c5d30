// Configuration as files: export, apply, the watched folder and its last result, and the
// resources that came from files (detached, or written back to their file). The YAML reader and
// writer load at first use: `serve` starts without them.
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ConfigFile, ConfigKind, ConfigPlan, ConfigState, pruneModes } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import type { Logger } from '../logger';
import { slugPart } from '../services/instances';
import { folderWriters } from './folder-safety';
import { isAtOrUnder } from '../sandbox/paths';
import type { ApplyDeps } from './apply';
import type { FolderWatch } from './config-folder';

const keys = { folder: 'config.folder', lastApplied: 'config.lastApplied', error: 'config.error' };

const loadApply = () => import('./apply');
const loadYaml = () => import('./yaml-files');
const loadFolder = () => import('./config-folder');

export interface ExportQuery {
  kind?: ConfigKind | undefined;
  name?: string | undefined;
}

export function createConfigService(deps: ApplyDeps & { logger: Logger }) {
  const { store } = deps;
  let watch: FolderWatch | undefined;

  const stored = <T>(key: string): T | null => {
    const raw = store.settings.get(key);
    return raw === undefined || raw === '' ? null : (JSON.parse(raw) as T);
  };
  const folder = () => stored<string>(keys.folder);

  function state(): ConfigState {
    const managed = store.configOrigins.list().map(({ resourceId, kind, file, appliedAt }) => {
      const name = kind === 'instance' ? store.instances.get(resourceId)?.name : kind === 'automation' ? store.automations.get(resourceId)?.name : store.webhooks.get(resourceId)?.name;
      return { id: resourceId, kind, name: name ?? '', file, writable: path.isAbsolute(file) && existsSync(file), appliedAt };
    });
    return { folder: folder(), lastApplied: stored(keys.lastApplied), error: stored(keys.error), managed };
  }

  /** `folder`: the folder the files were read from; `watched`: the watched folder's own apply. */
  async function apply(files: ConfigFile[], options: { dryRun: boolean; prune: (typeof pruneModes)[number]; folder?: string | undefined; watched?: boolean }): Promise<ConfigPlan> {
    const { applyConfig } = await loadApply();
    return applyConfig(deps, files, { ...options, watchedFolder: folder() });
  }

  async function applyFolder(dir: string, files: ConfigFile[]): Promise<void> {
    const at = deps.now().toISOString();
    try {
      // Checked again at each apply: an instance may have been given the folder since.
      const writers = folderWriters(store, deps.dataDir, dir);
      if (writers) throw new AppError('invalid_field', `The folder was not applied: ${writers}`, { field: 'folder' });
      // No file at all is a clone or checkout under way far more often than a wish to delete everything (the API refuses an empty list too).
      if (files.length === 0) throw new AppError('invalid_config', `${dir} holds no .yaml or .yml files: nothing was applied or pruned. To remove everything that came from it, choose no folder and delete the resources.`);
      // The folder is the source of truth for what came from it: a file removed is a resource pruned.
      const plan = await apply(files, { dryRun: false, prune: 'files', folder: dir, watched: true });
      const changes = plan.changes.slice(0, 100).map(({ kind, name, action }) => ({ kind, name, action }));
      store.settings.set(keys.lastApplied, JSON.stringify({ at, commit: await commitOf(dir), summary: plan.summary, changes }));
      store.settings.set(keys.error, '');
      if (plan.applied) deps.logger.info({ folder: dir, summary: plan.summary }, 'configuration folder applied');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      store.settings.set(keys.error, JSON.stringify({ at, message, commit: await commitOf(dir) }));
      deps.logger.warn({ folder: dir, err: message }, 'configuration folder refused; the last good state stays');
    }
  }

  /** A file of the watched folder is written only where it lies in it now: a subfolder swapped for a symlink leads out. */
  async function assertInFolder(file: string): Promise<void> {
    const dir = folder();
    if (dir === null || !isAtOrUnder(file, dir)) return;
    const expected = path.join(await fs.realpath(dir), path.relative(dir, file));
    const actual = await fs.realpath(file).catch(() => undefined);
    if (actual !== expected) throw new AppError('not_found', `${file} no longer lies in the configuration folder (${actual ? `it leads to ${actual}` : 'it is gone'}): nothing was written. Detach the resource instead.`);
  }

  async function commitOf(dir: string): Promise<string | null> {
    return (await loadFolder()).commitOf(dir);
  }

  async function refuse(dir: string, message: string): Promise<void> {
    store.settings.set(keys.error, JSON.stringify({ at: deps.now().toISOString(), message, commit: await commitOf(dir) }));
  }

  async function startWatching(): Promise<void> {
    watch?.stop();
    watch = undefined;
    const dir = folder();
    if (dir === null) return;
    const { watchFolder } = await loadFolder();
    // A refusal noted while Steward stops (its database closed) is dropped with it.
    watch = watchFolder(dir, (files) => applyFolder(dir, files), (message) => void refuse(dir, message).catch(() => undefined));
  }

  return {
    state,
    apply,

    /** The files of every resource (or of one kind, or of one name): `instances/<name>.yaml`, `automations/…`, `webhooks/…`. */
    async export(query: ExportQuery = {}): Promise<ConfigFile[]> {
      const [{ exportResources }, { documentText }] = await Promise.all([import('./documents'), loadYaml()]);
      const taken = new Set<string>();
      return exportResources(store, deps.dataDir)
        .filter((resource) => (query.kind === undefined || resource.kind === query.kind) && (query.name === undefined || resource.name === query.name))
        .map((resource) => {
          const base = `${resource.kind}s/${slugPart(resource.name) || resource.kind}`;
          let file = `${base}.yaml`;
          for (let n = 2; taken.has(file); n++) file = `${base}-${n}.yaml`;
          taken.add(file);
          return { path: file, text: documentText(resource.document) };
        });
    },

    async setFolder(dir: string | null): Promise<ConfigState> {
      if (dir !== null) {
        const stat = await fs.stat(dir).catch(() => undefined);
        if (!stat?.isDirectory()) throw new AppError('invalid_field', `${dir} is not a folder here.`, { field: 'folder' });
        const writers = folderWriters(store, deps.dataDir, dir);
        if (writers) throw new AppError('invalid_field', writers, { field: 'folder' });
      }
      store.settings.set(keys.folder, dir === null ? '' : JSON.stringify(path.resolve(dir)));
      store.settings.set(keys.error, '');
      store.settings.set(keys.lastApplied, '');
      await startWatching();
      await watch?.applyNow();
      return state();
    },

    detach(id: string): void {
      const origin = store.configOrigins.get(id);
      if (!origin || origin.detached) throw new AppError('not_found', `${id} did not come from a configuration file.`);
      store.configOrigins.detach(id);
    },

    /** Replaces the resource's document in its file with the resource as it is now; the file's other documents stay as written. */
    async writeBack(id: string): Promise<string> {
      const origin = store.configOrigins.get(id);
      if (!origin || origin.detached) throw new AppError('not_found', `${id} did not come from a configuration file.`);
      const [{ exportResources }, { documentText, readFile }] = await Promise.all([import('./documents'), loadYaml()]);
      const resource = exportResources(store, deps.dataDir).find((each) => each.id === id);
      if (!resource) throw new AppError('not_found', `No ${origin.kind} ${id}.`);
      const text = await fs.readFile(origin.file, 'utf8').catch(() => {
        throw new AppError('not_found', `${origin.file} is not a file here (it came from an upload or another machine): detach the ${origin.kind} instead.`);
      });
      await assertInFolder(origin.file);
      const { documents } = readFile({ path: origin.file, text });
      const found = documents.find((each) => {
        const value = each.value as { kind?: unknown; name?: unknown } | null;
        return value?.kind === origin.kind && value.name === origin.name;
      });
      if (!found) throw new AppError('not_found', `${origin.file} no longer holds ${origin.kind} "${origin.name}": detach it instead.`);
      const written = text.slice(0, found.range[0]) + documentText(resource.document) + text.slice(found.range[1]);
      const temporary = `${origin.file}.${process.pid}.tmp`;
      await fs.writeFile(temporary, written);
      await fs.rename(temporary, origin.file);
      store.configOrigins.put({ ...origin, name: resource.name, appliedAt: deps.now().toISOString() });
      return origin.file;
    },

    start: () => startWatching(),
    stop() {
      watch?.stop();
      watch = undefined;
    },
  };
}

export type ConfigService = ReturnType<typeof createConfigService>;

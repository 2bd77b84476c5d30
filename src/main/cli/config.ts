// `steward export` and `steward apply`: configuration as files, through the daemon serving the
// data folder (or the folder itself), or through it to a remote Steward (--remote NAME).
import fs from 'node:fs';
import path from 'node:path';
import { type ConfigFile, type ConfigPlan, configKinds } from '../../shared/contract';
import { folderFiles } from '../core/config/config-folder';
import { printable } from '../../shared/printable';
import type { Steward } from './open-steward';
import { UsageError } from './usage-error';

export interface ExportOptions {
  out: string | undefined;
  remote: string | undefined;
}

/** Documents as one file, separated by `---` (the same text the app's Export downloads). */
export const oneFile = (files: ConfigFile[]): string => files.map((file) => file.text).join('---\n');

/** What export names its files: `instances/<name>.yaml` and the like, never a path that climbs out. */
const exportedPath = /^(instances|automations|webhooks)\/[a-z0-9][a-z0-9-]*\.yaml$/;

export async function exportCommand(steward: Steward, args: string[], options: ExportOptions, write: (text: string) => void): Promise<void> {
  const [kind, name] = args;
  if (kind !== undefined && !configKinds.includes(kind as never)) throw new UsageError(`export takes a kind (${configKinds.join(', ')}) and a name, not "${kind}".`);
  const { files } = await steward.call('config.export', { query: { kind, name, remote: options.remote } });
  if (files.length === 0) throw new Error(kind ? `Nothing to export: no ${kind}${name ? ` named "${name}"` : ''}.` : 'Nothing to export.');
  if (options.out === undefined) return write(printable(oneFile(files), true));
  const out = path.resolve(options.out);
  if (/\.ya?ml$/i.test(out)) {
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, oneFile(files));
    return write(`Wrote ${files.length} resource${files.length === 1 ? '' : 's'} to ${out}.\n`);
  }
  // The paths come from the answer (a remote Steward's, with --remote): only names export makes are written.
  const stray = files.find((file) => !exportedPath.test(file.path));
  if (stray) throw new Error(`The export named a file "${stray.path}", which is not a path export makes: nothing was written.`);
  for (const file of files) {
    const target = path.join(out, file.path);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, file.text);
  }
  write(`Wrote ${files.length} file${files.length === 1 ? '' : 's'} under ${out}.\n`);
  // A file an earlier export wrote, of a resource since deleted or renamed, would bring it back at the next apply.
  const written = new Set(files.map((file) => file.path));
  const left = ['instances', 'automations', 'webhooks'].flatMap((folder) =>
    (fs.existsSync(path.join(out, folder)) ? fs.readdirSync(path.join(out, folder)) : []).map((name) => `${folder}/${name}`).filter((file) => /\.ya?ml$/.test(file) && !written.has(file)),
  );
  if (left.length > 0 && kind === undefined) {
    write(`These files name nothing this Steward has now, and an apply of the folder would make them again: delete them if they are gone for good:\n${left.map((file) => `  ${file}\n`).join('')}`);
  }
}

export interface ApplyOptions {
  file: string | undefined;
  dryRun: boolean;
  prune: boolean;
  pruneAll: boolean;
  remote: string | undefined;
}

/** The files at `target`: a file, a folder's YAML files, or `-` for standard input. */
async function readTarget(target: string, stdin: () => Promise<string>): Promise<ConfigFile[]> {
  if (target === '-') return [{ path: '(stdin)', text: await stdin() }];
  const full = path.resolve(target);
  const stat = fs.statSync(full, { throwIfNoEntry: false });
  if (!stat) throw new UsageError(`${target}: no such file or folder.`);
  if (stat.isDirectory()) {
    const files = await folderFiles(full);
    if (files.length === 0) throw new UsageError(`${target} holds no .yaml or .yml files.`);
    return files;
  }
  return [{ path: full, text: fs.readFileSync(full, 'utf8') }];
}

/** The plan in words: the summary, then each change with its diff. */
export function planText(plan: ConfigPlan): string {
  const lines: string[] = [];
  // Every part one line, escaped: the plan may be a remote Steward's answer (--remote).
  for (const change of plan.changes) {
    const sign = change.action === 'add' ? '+' : change.action === 'delete' ? '-' : '~';
    lines.push(printable(`${sign} ${change.kind} "${change.name}" (${change.action}${change.file ? `, from ${change.file}` : ''})`));
    if (change.note) lines.push(`  ${printable(change.note)}`);
    lines.push(...change.diff.split('\n').map((line) => `    ${printable(line)}`));
  }
  lines.push(printable(plan.summary));
  return `${lines.join('\n')}\n`;
}

export async function applyCommand(steward: Steward, options: ApplyOptions, write: (text: string) => void, stdin: () => Promise<string>): Promise<void> {
  if (!options.file) throw new UsageError('apply needs -f PATH (a file, a folder of .yaml files, or - for standard input).');
  if (options.prune && options.pruneAll) throw new UsageError('Give --prune or --prune-all, not both.');
  const files = await readTarget(options.file, stdin);
  const prune = options.pruneAll ? 'all' : options.prune ? 'files' : 'none';
  const query = { remote: options.remote };
  // A folder's files that are gone are its own to prune: what came from them before is no longer named.
  const folder = options.file !== '-' && fs.statSync(options.file).isDirectory() ? path.resolve(options.file) : undefined;
  const body = { files, prune, folder };
  const plan = await steward.call('config.apply', { query, body: { ...body, dryRun: true } });
  write(planText(plan));
  if (options.dryRun || plan.changes.length === 0) {
    if (options.dryRun && plan.changes.length > 0) write('Dry run: nothing changed.\n');
    if (plan.changes.length === 0 && !options.dryRun) await steward.call('config.apply', { query, body: { ...body, dryRun: false } });
    return;
  }
  const applied = await steward.call('config.apply', { query, body: { ...body, dryRun: false } });
  write(`Applied: ${applied.summary}\n`);
}

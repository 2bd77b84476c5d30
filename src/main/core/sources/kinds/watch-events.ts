// A folder's settled changes as events: one per file, or one per batch (`files: [...]`, keyed by a
// hash of its contents). In batch mode the trigger's filter is applied to each file here, and the
// batch's per-file fields are lists of the passing files' values, grouped so that an `equals` or
// `in` condition still holds for the whole batch when the frame applies the filter to it. A batch
// event stays small: `files` lists what fits in 40 KB and `more` counts the rest.
import crypto from 'node:crypto';
import path from 'node:path';
import type { WatchTrigger } from '../../../../shared/contract';
import { eventFilterVerdict } from '../event-prompt';
import type { CursorChange, SourceEvent } from '../source-kind';
import { parseValue } from './watch-walk';

export type FileChange = 'created' | 'changed' | 'deleted';

/** A change found, settled, waiting to be handed over: the file's value now (deleted: its last known one). */
export interface SettledChange {
  relativePath: string;
  change: FileChange;
  value: string;
}

/** The most files in one batch event: a larger batch is cut into several. */
export const filesPerBatch = 1000;

export const fileKey = (relativePath: string): string => `f:${relativePath}`;

// eslint-disable-next-line no-control-regex -- a file name may hold line breaks; a summary is one line
const oneLine = (text: string): string => text.replace(/[\u0000-\u001f\u007f]/g, ' ');

export function fileFields(root: string, settled: SettledChange): Record<string, unknown> {
  const { size, mtimeMs } = parseValue(settled.value);
  return { path: path.join(root, settled.relativePath), relativePath: settled.relativePath, name: path.basename(settled.relativePath), change: settled.change, size, modifiedAt: new Date(mtimeMs).toISOString() };
}

function fileEvent(root: string, shown: string, settled: SettledChange, now: Date): SourceEvent {
  const { mtimeMs } = parseValue(settled.value);
  return {
    key: `${settled.change}:${settled.relativePath}:${mtimeMs}`,
    at: settled.change === 'deleted' ? now.toISOString() : new Date(mtimeMs).toISOString(),
    summary: `${oneLine(settled.relativePath)} ${settled.change} in ${shown}`,
    fields: fileFields(root, settled),
  };
}

const plural = (count: number) => (count === 1 ? '1 file' : `${count} files`);

function batchEvent(root: string, shown: string, files: SettledChange[], now: Date): SourceEvent {
  if (files.length === 1) {
    const single = fileEvent(root, shown, files[0], now);
    return { ...single, key: `batch:${single.key}`, fields: batchFields(root, files) };
  }
  const lines = files.map((file) => `${file.change}:${file.relativePath}:${parseValue(file.value).mtimeMs}`).sort();
  const counts = { created: 0, changed: 0, deleted: 0 };
  for (const file of files) counts[file.change] += 1;
  const kinds = (Object.keys(counts) as FileChange[]).filter((change) => counts[change] > 0);
  const summary = kinds.length === 1
    ? `${plural(files.length)} ${kinds[0]} in ${shown}`
    : `${plural(files.length)} changed in ${shown} (${kinds.map((change) => `${counts[change]} ${change}`).join(', ')})`;
  const newest = Math.max(...files.map((file) => (file.change === 'deleted' ? 0 : parseValue(file.value).mtimeMs)));
  return {
    key: `batch:${crypto.createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 32)}`,
    at: newest > 0 ? new Date(newest).toISOString() : now.toISOString(),
    summary,
    fields: { ...batchFields(root, files), ...counts },
  };
}

/** The bytes a batch's `files` list takes at most: the rest are counted in `more` (an event stays within 64 KiB). */
const batchListBytes = 40_000;
/** The values of each per-file field listed at the batch's top level (the whole list is in `files`). */
const valuesListed = 20;

function batchFields(root: string, files: SettledChange[]): Record<string, unknown> {
  const each: Record<string, unknown>[] = [];
  let bytes = 0;
  for (const file of files) {
    const fields = fileFields(root, file);
    bytes += JSON.stringify(fields).length + 1;
    if (bytes > batchListBytes) break;
    each.push(fields);
  }
  const listOf = (field: string) => [...new Set(each.map((fields) => fields[field]))].slice(0, valuesListed);
  return { folder: root, count: files.length, files: each, more: files.length - each.length, path: listOf('path'), relativePath: listOf('relativePath'), name: listOf('name'), change: listOf('change') };
}

/** The events these settled changes make (only the changes the trigger is `on`), oldest first. */
export function eventsOf(config: WatchTrigger, root: string, shown: string, settled: readonly SettledChange[], now: Date): SourceEvent[] {
  const wanted = settled.filter((file) => config.on.includes(file.change));
  wanted.sort((a, b) => parseValue(a.value).mtimeMs - parseValue(b.value).mtimeMs || (a.relativePath < b.relativePath ? -1 : 1));
  if (config.per === 'file') return wanted.map((file) => fileEvent(root, shown, file, now));
  const passing = wanted.filter((file) => eventFilterVerdict(config.filter, { key: '', at: '', summary: '', fields: fileFields(root, file) }) === null);
  // Files whose values differ in a field an equals or in condition tests go in separate batches.
  const groupedBy = [...new Set(config.filter.filter((condition) => condition.equals !== undefined || condition.in !== undefined).map((condition) => condition.field))];
  const groups = new Map<string, SettledChange[]>();
  for (const file of passing) {
    const fields = fileFields(root, file);
    const group = JSON.stringify(groupedBy.map((field) => fields[field]));
    const members = groups.get(group);
    if (members) members.push(file);
    else groups.set(group, [file]);
  }
  const events: SourceEvent[] = [];
  for (const files of groups.values()) {
    for (let start = 0; start < files.length; start += filesPerBatch) events.push(batchEvent(root, shown, files.slice(start, start + filesPerBatch), now));
  }
  return events;
}

/** The cursor's move for these settled changes: a row set per created or changed file, removed per deleted one. */
export function cursorChangeOf(settled: readonly SettledChange[], extra: [string, string][] = []): CursorChange {
  return {
    set: [...extra, ...settled.filter((file) => file.change !== 'deleted').map((file) => [fileKey(file.relativePath), file.value] as [string, string])],
    delete: settled.filter((file) => file.change === 'deleted').map((file) => fileKey(file.relativePath)),
  };
}

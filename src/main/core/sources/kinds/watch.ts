// The `watch` source: a run per file created, changed or deleted in a folder (or per batch). The
// cursor holds a row per known file (`f:<relative path>` → `<size>:<mtimeMs>`); the folder's
// watchers only say where to look, and every path is confirmed by stat against the cursor. A file
// counts once it kept its size and mtime for settleMs; settled changes within debounceMs of each
// other are handed over together. Every livenessMs the folders' modification times are checked
// (a folder whose entries changed unseen is read again, and a full walk follows); the full walk,
// statting every file, runs at start and then paced for the whole process (watch-walk.ts).
import fs from 'node:fs';
import path from 'node:path';
import type { WatchTrigger } from '../../../../shared/contract';
import { eventFilterVerdict } from '../event-prompt';
import type { SourceContext, SourceEvent, SourceKind } from '../source-kind';
import { type FileChange, type SettledChange, cursorChangeOf, eventsOf, fileKey } from './watch-events';
import { folderTree } from './watch-tree';
import { countFiles, expandFolder, fileValue, folderProblem, folderStats, forgetFiles, fullWalkEveryMs, joinRelative, oneWalkAtATime, parseValue, selection, walkFolder } from './watch-walk';
import { sleep } from '../sleep';

const livenessMs = 60_000;
/** The most files one source knows: a larger tree is refused. */
export const maxFiles = 200_000;
/** Notices this close together are looked at together. */
const gatherMs = 20;
/** The most files handed over in one transaction (per-file mode). */
const filesPerEmit = 1000;
/** The cursor row that says the folder was looked at once, even when it held no file. */
const folderKey = 'folder';

async function runWatch(ctx: SourceContext<WatchTrigger>): Promise<void> {
  const { config, signal } = ctx;
  const shown = config.path;
  const root = expandFolder(shown);
  const chosen = selection(config.glob);
  const rootStats = folderStats(root, shown);
  const me = {};
  let failure: Error | undefined;
  /** Paths a watcher named, not yet looked at. */
  const dirty = new Set<string>();
  /** Files seen changed, waiting to keep their value for settleMs. */
  const pending = new Map<string, { value: string; since: number }>();
  /** Settled changes waiting for the batch to close. */
  const ready = new Map<string, SettledChange>();
  let lastNotice = 0;
  let readySince = 0;
  let files = 0;
  const maxWaitMs = Math.max(10 * config.debounceMs, 10_000);

  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;
  let wake: (() => void) | undefined;
  const wakeAt = (at: number) => {
    if (at >= timerAt) return;
    clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(() => {
      timerAt = Infinity;
      wake?.();
    }, Math.max(0, at - Date.now()));
  };
  const onAbort = () => wake?.();
  signal.addEventListener('abort', onAbort);

  const tree = folderTree(root, shown, ctx.logger, {
    noticed(folder, name) {
      const relativePath = name === null ? folder : joinRelative(folder, name);
      dirty.add(relativePath);
      if (name === null || chosen.matches(relativePath)) lastNotice = Date.now();
      wakeAt(Date.now() + gatherMs);
    },
    failed(error) {
      failure ??= error;
      wakeAt(Date.now());
    },
  });

  function stat(relativePath: string): fs.Stats | undefined {
    try {
      return fs.lstatSync(path.join(root, relativePath), { throwIfNoEntry: false });
    } catch (error) {
      // A folder on the way replaced by a file: the path is gone.
      if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
      throw error;
    }
  }

  function settle(relativePath: string, change: FileChange, value: string) {
    if (ready.size === 0) readySince = Date.now();
    ready.set(relativePath, { relativePath, change, value });
  }

  /** A path that is no file (any more): a known file there was deleted. */
  function gone(relativePath: string) {
    pending.delete(relativePath);
    const known = ctx.cursor.get(fileKey(relativePath));
    if (known !== undefined) settle(relativePath, 'deleted', known);
    else ready.delete(relativePath);
  }

  /** A folder that appeared (made, or moved in): watched, and each of its files looked at. */
  function addFolder(folder: string) {
    if (!tree.add(folder)) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(root, folder), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const relativePath = joinRelative(folder, entry.name);
      if (entry.isDirectory() && chosen.descends(relativePath)) addFolder(relativePath);
      else if (entry.isFile() && chosen.matches(relativePath)) dirty.add(relativePath);
    }
  }

  /** A folder that went away (removed, or moved out): its known files were deleted. */
  function removeFolder(folder: string) {
    tree.remove(folder);
    const prefix = `${folder}/`;
    for (const key of ctx.cursor.entries(fileKey(prefix)).keys()) gone(key.slice(2));
    for (const relativePath of [...pending.keys(), ...ready.keys()]) if (relativePath.startsWith(prefix)) gone(relativePath);
  }

  function inspect(relativePath: string, now: number) {
    const stats = stat(relativePath);
    if (stats?.isDirectory()) {
      gone(relativePath);
      if (chosen.descends(relativePath)) addFolder(relativePath);
      return;
    }
    if (tree.has(relativePath)) removeFolder(relativePath);
    if (!stats?.isFile()) return gone(relativePath);
    if (!chosen.matches(relativePath)) return;
    const value = fileValue(stats);
    if (value === ctx.cursor.get(fileKey(relativePath))) {
      pending.delete(relativePath);
      ready.delete(relativePath);
      return;
    }
    if (pending.get(relativePath)?.value !== value) {
      pending.set(relativePath, { value, since: now });
      ready.delete(relativePath);
    }
  }

  /** A file that waited settleMs: counted if it kept its value, else it waits again. */
  function confirm(relativePath: string, waited: { value: string; since: number }, now: number) {
    const stats = stat(relativePath);
    if (!stats?.isFile()) return gone(relativePath);
    const value = fileValue(stats);
    if (value !== waited.value) {
      pending.set(relativePath, { value, since: now });
      return;
    }
    pending.delete(relativePath);
    const known = ctx.cursor.get(fileKey(relativePath));
    if (known !== value) settle(relativePath, known === undefined ? 'created' : 'changed', value);
  }

  function checkRoot() {
    const stats = folderStats(root, shown);
    if (stats.ino !== rootStats.ino || stats.dev !== rootStats.dev) throw new Error(`${shown} was replaced by another folder`);
  }

  function look() {
    const now = Date.now();
    if (dirty.size > 0) checkRoot();
    const paths = [...dirty];
    dirty.clear();
    for (const relativePath of paths) inspect(relativePath, now);
    for (const [relativePath, waited] of pending) if (now - waited.since >= config.settleMs) confirm(relativePath, waited, now);
  }

  const batchCloses = (now: number) => now - readySince >= maxWaitMs || (now - lastNotice >= config.debounceMs && (config.per === 'file' || pending.size === 0));

  function handOver() {
    checkRoot();
    while (ready.size > 0) {
      const settled = [...ready.values()].slice(0, config.per === 'file' ? filesPerEmit : ready.size);
      ctx.emit(eventsOf(config, root, shown, settled, ctx.now()), cursorChangeOf(settled));
      for (const file of settled) {
        ready.delete(file.relativePath);
        files += file.change === 'created' ? 1 : file.change === 'deleted' ? -1 : 0;
      }
    }
    countFiles(me, files);
  }

  /** Walks the whole folder (one walk at a time in the process): what differs from the cursor, settled or not. */
  function fullWalk(): Promise<{ found: Map<string, string | undefined>; count: number }> {
    return oneWalkAtATime(async () => {
      const known = ctx.cursor.entries('f:');
      const found = new Map<string, string | undefined>();
      let count = 0;
      await walkFolder(root, {
        ...chosen,
        signal,
        onFolder: (folder) => void tree.add(folder),
        onFile(relativePath, stats) {
          if (++count > maxFiles) throw new Error(`${shown} holds more than ${maxFiles} files: watch a smaller folder or a narrower glob`);
          const value = fileValue(stats);
          const key = fileKey(relativePath);
          if (known.get(key) !== value) found.set(relativePath, value);
          known.delete(key);
        },
        onUnreadable: (folder, error) => ctx.logger.warn({ folder, err: (error as Error).message }, 'watch: a subfolder cannot be read; it is left out'),
      }).catch((error: unknown) => {
        throw (error as NodeJS.ErrnoException).code ? folderProblem(shown, error) : error;
      });
      for (const key of known.keys()) found.set(key.slice(2), undefined);
      return { found, count };
    });
  }

  /** The first look: the baseline, or what changed while the source was not running, once settled. */
  async function firstLook() {
    const { found, count } = await fullWalk();
    files = count;
    const young = (value: string | undefined) => value !== undefined && Date.now() - parseValue(value).mtimeMs < config.settleMs;
    // A file written within settleMs may still be being written: wait until it keeps still (at most a minute).
    const until = Date.now() + 60_000;
    while (ctx.cursor.get(folderKey) !== undefined && [...found.values()].some(young) && Date.now() < until && !signal.aborted) {
      await sleep(config.settleMs, signal);
      for (const [relativePath, value] of found) {
        if (!young(value)) continue;
        const stats = stat(relativePath);
        found.set(relativePath, stats?.isFile() ? fileValue(stats) : undefined);
      }
    }
    if (signal.aborted) return;
    const settled: SettledChange[] = [];
    for (const [relativePath, value] of found) {
      const known = ctx.cursor.get(fileKey(relativePath));
      if (value === known) continue;
      if (value === undefined) settled.push({ relativePath, change: 'deleted', value: known! });
      else settled.push({ relativePath, change: known === undefined ? 'created' : 'changed', value });
    }
    // Without a cursor this is a baseline whatever the phase: a first look that failed (the folder
    // was not there yet) is retried as a reconnect, and must not run every file it then finds.
    const baseline = ctx.phase === 'first' || ctx.cursor.get(folderKey) === undefined;
    const events: SourceEvent[] = baseline ? [] : eventsOf(config, root, shown, settled, ctx.now());
    ctx.emit(events, cursorChangeOf(settled, [[folderKey, root]]), { initial: true });
    countFiles(me, files);
  }

  const described = () => `watching ${files === 1 ? '1 file' : `${files} files`} in ${tree.size === 1 ? '1 folder' : `${tree.size} folders`}`;

  /** The cheap check every livenessMs: the root is still there, and folders whose entries changed are read again. */
  function check(): boolean {
    checkRoot();
    let unseen = 0;
    for (const folder of tree.moved()) {
      const names = new Set<string>();
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(path.join(root, folder), { withFileTypes: true });
      } catch {
        dirty.add(folder);
        continue;
      }
      for (const entry of entries) {
        const relativePath = joinRelative(folder, entry.name);
        names.add(relativePath);
        const waiting = dirty.has(relativePath) || pending.has(relativePath) || ready.has(relativePath);
        if (waiting) continue;
        const unknownFolder = entry.isDirectory() && chosen.descends(relativePath) && !tree.has(relativePath);
        const unknownFile = entry.isFile() && chosen.matches(relativePath) && ctx.cursor.get(fileKey(relativePath)) === undefined;
        if (unknownFolder || unknownFile) {
          unseen++;
          dirty.add(relativePath);
        }
      }
      for (const key of ctx.cursor.entries(fileKey(folder === '' ? '' : `${folder}/`)).keys()) {
        const relativePath = key.slice(2);
        if (path.posix.dirname(relativePath) !== (folder === '' ? '.' : folder) || names.has(relativePath) || ready.has(relativePath) || dirty.has(relativePath)) continue;
        unseen++;
        dirty.add(relativePath);
      }
    }
    if (unseen > 0) ctx.logger.info({ unseen }, 'watch: changes the watchers did not report (an overflow?); walking the whole folder');
    return unseen > 0;
  }

  try {
    tree.add('');
    await firstLook();
    if (signal.aborted) return;
    ctx.alive(described());
    let nextCheck = Date.now() + livenessMs;
    let lastWalkAt = Date.now();
    const jitter = 0.9 + Math.random() * 0.2;
    // The periodic walk runs beside the loop: a source waiting its turn to walk still handles its notices.
    let walking: Promise<void> | undefined;
    const nextWalk = () => (walking ? Infinity : lastWalkAt + fullWalkEveryMs(livenessMs) * jitter);
    while (!signal.aborted) {
      if (failure) throw failure;
      let now = Date.now();
      if (now >= nextCheck) {
        if (check()) lastWalkAt = 0;
        nextCheck = now + livenessMs;
        ctx.alive(described());
      }
      if (now >= nextWalk()) {
        walking = fullWalk().then(
          ({ found, count }) => {
            for (const relativePath of found.keys()) dirty.add(relativePath);
            files = count;
            countFiles(me, files);
            lastWalkAt = Date.now();
            walking = undefined;
            if (!signal.aborted) ctx.alive(described());
            wakeAt(Date.now());
          },
          (error: unknown) => {
            failure ??= error instanceof Error ? error : new Error(String(error));
            walking = undefined;
            wakeAt(Date.now());
          },
        );
      }
      look();
      now = Date.now();
      if (ready.size > 0 && batchCloses(now)) handOver();
      let next = Math.min(nextCheck, nextWalk());
      if (dirty.size > 0) next = Math.min(next, now + gatherMs);
      for (const waited of pending.values()) next = Math.min(next, waited.since + config.settleMs);
      if (ready.size > 0) next = Math.min(next, readySince + maxWaitMs, Math.max(lastNotice + config.debounceMs, pending.size > 0 && config.per === 'batch' ? Infinity : 0));
      await new Promise<void>((resolve) => {
        wake = resolve;
        clearTimeout(timer);
        timerAt = Infinity;
        if (signal.aborted || failure) resolve();
        else wakeAt(Math.max(next, Date.now()));
      });
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    clearTimeout(timer);
    tree.close();
    forgetFiles(me);
  }
}

/** Files created or changed in the last 24 h that match, newest first (a file made in that time counts as created). */
async function preview(config: WatchTrigger, tools: Pick<SourceContext<WatchTrigger>, 'now' | 'signal'>): Promise<SourceEvent[]> {
  const root = expandFolder(config.path);
  folderStats(root, config.path);
  const since = tools.now().getTime() - 24 * 3600_000;
  const settled: SettledChange[] = [];
  await walkFolder(root, {
    ...selection(config.glob),
    signal: tools.signal,
    onFile(relativePath, stats) {
      if (stats.mtimeMs < since) return;
      settled.push({ relativePath, change: stats.birthtimeMs >= since ? 'created' : 'changed', value: fileValue(stats) });
    },
  });
  const events = eventsOf({ ...config, per: 'file' }, root, config.path, settled, tools.now());
  return events.filter((event) => eventFilterVerdict(config.filter, event) === null).sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
}

export const watchSource: SourceKind<WatchTrigger> = {
  kind: 'watch',
  run: runWatch,
  livenessMs: () => livenessMs,
  preview,
};

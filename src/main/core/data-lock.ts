// The serving lock on a data folder: `steward.lock` names the one process (pid, host) that serves
// the folder, so a second `steward serve` or desktop app on it stops with a clear error instead of
// running every automation twice. The file appears whole or not at all (written aside, then
// hard-linked into place, which fails if it exists); a lock whose process is gone is taken over. Gone
// includes a zombie (it ended; only its exit status waits to be read) and a pid the system has
// since given to another program: the lock records its process's start time and command line, and
// a process whose differ is not the Steward that wrote it (process-identity.ts).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type ProcessIdentity, identityOf, isProcessAlive } from './process-identity';

export const lockFileName = 'steward.lock';

export class DataDirInUseError extends Error {
  readonly code = 'data_dir_in_use';

  /** `pid` null: a lock file still being written; `host`: the owner runs on another machine. */
  constructor(
    readonly dataDir: string,
    readonly pid: number | null,
    readonly host?: string,
  ) {
    const who = pid === null ? 'pid unknown' : `pid ${pid}${host ? ` on ${host}` : ''}`;
    super(`The data folder ${dataDir} is in use by another Steward (${who}). Stop it, or use --data-dir.`);
    this.name = 'DataDirInUseError';
  }
}

interface Owner extends Partial<ProcessIdentity> {
  pid: number;
  hostname: string;
  token: string;
  startedAt: string;
}

export interface DataLock {
  readonly file: string;
  release(): void;
}

/**
 * Tokens of the locks this process holds. A lock naming our own pid that is not among them was
 * left by an earlier process that had the same pid (pid 1 in a restarted container): it is stale.
 * Kept on globalThis so that two copies of this module in one process (two bundles, a test
 * runner's module reset) still see each other's locks.
 */
const heldHere: Set<string> = ((globalThis as { [key: symbol]: Set<string> | undefined })[Symbol.for('steward.dataLocks')] ??= new Set<string>());

export { isProcessAlive };

/** Whether the lock's owner still runs: the same process (start time, command line) and not a zombie. */
function ownerRuns(owner: Owner): boolean {
  if (!isProcessAlive(owner.pid)) return false;
  const now = identityOf(owner.pid);
  // Where the process cannot be inspected, being there is all that can be known.
  if (now === undefined) return true;
  if (now.ended) return false;
  if (owner.startTicks !== undefined && now.startTicks !== undefined && owner.startTicks !== now.startTicks) return false;
  return owner.command === undefined || now.command === undefined || owner.command === now.command;
}

/** The lock's owner; null when the file is gone; `garbage` when it holds something else. */
function readOwner(file: string): Owner | null | 'garbage' {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const owner = JSON.parse(text) as Partial<Owner>;
    return Number.isInteger(owner.pid) && typeof owner.token === 'string' && typeof owner.hostname === 'string' ? (owner as Owner) : 'garbage';
  } catch {
    return 'garbage';
  }
}

/** Creates the lock file holding `owner`; false when one exists. */
function create(file: string, owner: Owner): boolean {
  const text = `${JSON.stringify(owner)}\n`;
  const aside = `${file}.${owner.token}`;
  fs.writeFileSync(aside, text, { mode: 0o600 });
  try {
    fs.linkSync(aside, file);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // A file system without hard links (FAT, some network shares): exclusive create instead, at
    // the price of a moment in which the file exists but is still empty.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EXDEV') throw error;
    try {
      fs.writeFileSync(file, text, { flag: 'wx', mode: 0o600 });
      return true;
    } catch (fallbackError) {
      if ((fallbackError as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw fallbackError;
    }
  } finally {
    fs.rmSync(aside, { force: true });
  }
}

/**
 * Removes a stale lock, unless another process replaced it since we read it: the file is moved
 * aside first (atomic), and put back if what was moved is not the stale one.
 */
function removeStale(file: string, stale: Owner | 'garbage', token: string): void {
  const moved = `${file}.stale-${token}`;
  try {
    fs.renameSync(file, moved);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const found = readOwner(moved);
  const same = stale === 'garbage' ? found === 'garbage' : found !== null && found !== 'garbage' && found.token === stale.token;
  if (!same) {
    try {
      fs.linkSync(moved, file);
    } catch {
      // Yet another process made a lock meanwhile; it is the one that counts now.
    }
  }
  fs.rmSync(moved, { force: true });
}

// A lock file that does not parse is either being written (the no-hard-link fallback) or damaged.
const garbageGraceMs = 10_000;

/**
 * The Steward serving the data folder now, if one does: read only, the lock is not taken (a
 * command that takes it even for a moment could make a daemon starting then refuse to start).
 * `pid` null: its lock is still being written; `host`: it runs on another machine.
 */
export function dataDirServer(dataDir: string): { pid: number | null; host?: string } | undefined {
  const file = path.join(dataDir, lockFileName);
  const owner = readOwner(file);
  if (owner === null) return undefined;
  if (owner === 'garbage') {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    return stat && Date.now() - stat.mtimeMs < garbageGraceMs ? { pid: null } : undefined;
  }
  if (owner.hostname !== os.hostname()) return { pid: owner.pid, host: owner.hostname };
  const runs = owner.pid === process.pid ? heldHere.has(owner.token) : ownerRuns(owner);
  return runs ? { pid: owner.pid } : undefined;
}

export function acquireDataLock(dataDir: string): DataLock {
  const file = path.join(dataDir, lockFileName);
  const { pid } = process;
  const hostname = os.hostname();
  const self = identityOf(pid);
  const owner: Owner = {
    pid,
    hostname,
    token: randomBytes(12).toString('hex'),
    startedAt: new Date().toISOString(),
    ...(self?.startTicks === undefined ? {} : { startTicks: self.startTicks }),
    ...(self?.command === undefined ? {} : { command: self.command }),
  };

  for (let attempt = 0; attempt < 5; attempt++) {
    if (create(file, owner)) {
      heldHere.add(owner.token);
      return {
        file,
        release() {
          if (!heldHere.delete(owner.token)) return;
          const current = readOwner(file);
          if (current !== null && current !== 'garbage' && current.token === owner.token) fs.rmSync(file, { force: true });
        },
      };
    }
    const other = readOwner(file);
    if (other === null) continue;
    if (other === 'garbage') {
      const stat = fs.statSync(file, { throwIfNoEntry: false });
      if (!stat) continue;
      if (Date.now() - stat.mtimeMs < garbageGraceMs) throw new DataDirInUseError(dataDir, null);
      removeStale(file, other, owner.token);
      continue;
    }
    // A process on another machine (a shared folder) cannot be checked: it counts as running.
    if (other.hostname !== hostname) throw new DataDirInUseError(dataDir, other.pid, other.hostname);
    if (other.pid === pid ? heldHere.has(other.token) : ownerRuns(other)) throw new DataDirInUseError(dataDir, other.pid);
    removeStale(file, other, owner.token);
  }
  throw new Error(`Could not take the lock ${file}: other processes keep taking and dropping it.`);
}

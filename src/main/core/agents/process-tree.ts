// An agent CLI's whole process tree, and how to end it. Signalling the CLI's own process group is
// not enough: Gemini CLI's node-pty and OpenCode start shell commands with setsid, in sessions and
// groups of their own. Descendants are found by parent links, remembered as they are seen (a
// grandchild whose parent died has parent 1 and no other link to the CLI), and on Linux also by a
// marker in their environment; each one and its process group is signalled.
import { type ChildProcess, execFile } from 'node:child_process';
import fs from 'node:fs';

export interface ProcessEntry {
  pid: number;
  ppid: number;
  pgid: number;
  /** When it started, as the OS tells it: a pid seen again with another start is another process. */
  start: string;
}

export type ProcessTable = Map<number, ProcessEntry>;

const pollMs = 100;

/** One process from /proc/<pid>/stat, zombies included; undefined once it is gone. */
function readStat(pid: number): (ProcessEntry & { zombie: boolean }) | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // it ended between the listing and the read
  }
  // "pid (comm) state ppid pgrp session … starttime …": comm may hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { pid, ppid: Number(fields[1]), pgid: Number(fields[2]), start: fields[19] ?? '', zombie: fields[0] === 'Z' || fields[0] === 'X' };
}

/** `ps -A -o pid=,ppid=,pgid=,stat=,lstart=` output as a table, zombies left out (macOS and other Unixes). */
export function parsePs(output: string): ProcessTable {
  const table: ProcessTable = new Map();
  for (const line of output.split('\n')) {
    const match = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(.+?)\s*$/.exec(line);
    if (!match || match[4].startsWith('Z')) continue;
    table.set(Number(match[1]), { pid: Number(match[1]), ppid: Number(match[2]), pgid: Number(match[3]), start: match[5] });
  }
  return table;
}

/** Every live process; empty on Windows, where taskkill walks the tree itself. */
export async function listProcesses(): Promise<ProcessTable> {
  if (process.platform === 'win32') return new Map();
  if (process.platform !== 'linux') {
    return new Promise((resolve) => {
      execFile('ps', ['-A', '-o', 'pid=,ppid=,pgid=,stat=,lstart='], { maxBuffer: 16 * 1024 * 1024 }, (_error, stdout) => resolve(parsePs(stdout)));
    });
  }
  // Read synchronously: a few ms for hundreds of processes, where async reads cost ten times that.
  const table: ProcessTable = new Map();
  let names: string[];
  try {
    names = fs.readdirSync('/proc');
  } catch {
    return table;
  }
  for (const name of names) {
    const entry = /^\d+$/.test(name) ? readStat(Number(name)) : undefined;
    if (entry && !entry.zombie) table.set(entry.pid, { pid: entry.pid, ppid: entry.ppid, pgid: entry.pgid, start: entry.start });
  }
  return table;
}

/** The roots and everything below them in the table. */
export function descendantsOf(table: ProcessTable, roots: ProcessEntry[]): ProcessEntry[] {
  const children = new Map<number, ProcessEntry[]>();
  for (const entry of table.values()) {
    const siblings = children.get(entry.ppid);
    if (siblings) siblings.push(entry);
    else children.set(entry.ppid, [entry]);
  }
  const found = new Map(roots.map((entry) => [entry.pid, entry]));
  const queue = [...roots];
  for (let entry = queue.pop(); entry !== undefined; entry = queue.pop()) {
    for (const child of children.get(entry.pid) ?? []) {
      if (found.has(child.pid)) continue;
      found.set(child.pid, child);
      queue.push(child);
    }
  }
  return [...found.values()];
}

function carriesMarker(pid: number, marker: string): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(marker);
  } catch {
    return false; // gone, or another user's
  }
}

function send(target: number, signal: NodeJS.Signals): void {
  try {
    process.kill(target, signal);
  } catch {
    // already gone
  }
}

/**
 * How long a stopped agent's tree has to obey SIGTERM before SIGKILL: short enough that a cancel
 * ends a run within 5 s even when something in it cannot hear SIGTERM (a sandbox's pid-namespace
 * init, a process that ignores it).
 */
export const killGraceMs = 2_000;

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ProcessTree {
  /** Remembers the descendants there are now, so that one whose parent dies is still known. */
  observe(): Promise<void>;
  /** SIGTERM to the tree and its process groups; SIGKILL after `graceMs` to whatever is left then. */
  end(graceMs: number): Promise<void>;
}

/** The root as its parent sees it: once it has exited and been reaped, its pid may be another process's. */
export type TreeRoot = Pick<ChildProcess, 'pid' | 'exitCode' | 'signalCode'>;

/**
 * The tree under `root`. `marker` (`NAME=value`, unique to this tree and set in the root's
 * environment) also finds, on Linux, descendants that were never seen with a living parent.
 */
export function processTree(root: TreeRoot, marker?: string): ProcessTree {
  const known = new Map<number, string>(); // pid → start
  const rootRuns = () => root.pid !== undefined && root.exitCode === null && root.signalCode === null;
  // Only a process started after the root can descend from it: the environment of the rest is never read.
  const rootStart = process.platform === 'linux' && root.pid !== undefined ? readStat(root.pid)?.start : undefined;

  function members(table: ProcessTable): ProcessEntry[] {
    const roots: ProcessEntry[] = [];
    const rootEntry = rootRuns() ? table.get(root.pid!) : undefined;
    if (rootEntry) roots.push(rootEntry);
    for (const [pid, start] of known) {
      const entry = table.get(pid);
      if (entry?.start === start) roots.push(entry);
      else known.delete(pid);
    }
    if (marker !== undefined && rootStart !== undefined) {
      for (const entry of table.values()) {
        if (Number(entry.start) >= Number(rootStart) && !known.has(entry.pid) && carriesMarker(entry.pid, marker)) roots.push(entry);
      }
    }
    const found = descendantsOf(table, roots).filter((entry) => entry.pid !== process.pid);
    for (const entry of found) if (entry !== rootEntry) known.set(entry.pid, entry.start);
    return found;
  }

  function signal(entries: ProcessEntry[], table: ProcessTable, name: NodeJS.Signals): void {
    const ownGroup = table.get(process.pid)?.pgid;
    for (const group of new Set(entries.map((entry) => entry.pgid))) {
      if (group > 1 && group !== ownGroup) send(-group, name);
    }
    for (const entry of entries) send(entry.pid, name);
  }

  // taskkill walks the tree by parent links itself, so only while the root runs.
  async function endOnWindows(): Promise<void> {
    if (!rootRuns()) return;
    await new Promise((resolve) => execFile('taskkill', ['/T', '/F', '/PID', String(root.pid)], resolve));
  }

  return {
    async observe() {
      members(await listProcesses());
    },
    async end(graceMs) {
      if (process.platform === 'win32') return endOnWindows();
      let table = await listProcesses();
      let left = members(table);
      signal(left, table, 'SIGTERM');
      const deadline = Date.now() + graceMs;
      while (left.length > 0 && Date.now() < deadline) {
        await delay(pollMs);
        table = await listProcesses();
        left = members(table);
      }
      // What ignored SIGTERM, and what was forked meanwhile; again for anything forked during that.
      for (let round = 0; round < 3 && left.length > 0; round++) {
        signal(left, table, 'SIGKILL');
        await delay(pollMs / 2);
        table = await listProcesses();
        left = members(table);
      }
    },
  };
}

/**
 * At start, what a run Steward was stopped in left behind: every process whose environment holds
 * `marker` (`STEWARD_RUN_ID=<id>`), escapees into sessions of their own included, is killed. Linux
 * only (elsewhere a process's environment cannot be read); the number killed.
 */
export function sweepMarked(markers: string[]): number {
  if (process.platform !== 'linux' || markers.length === 0) return 0;
  let killed = 0;
  let names: string[];
  try {
    names = fs.readdirSync('/proc');
  } catch {
    return 0;
  }
  for (const name of names) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    if (markers.some((marker) => carriesMarker(pid, marker))) {
      send(pid, 'SIGKILL');
      killed++;
    }
  }
  return killed;
}

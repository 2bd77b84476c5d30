// Which process a pid names now: whether it has ended (a zombie counts as ended: kill(pid, 0) still
// succeeds on one), when it started and what command it runs. The data-folder lock records these
// for its owner, so that a pid reused by another program, or a Steward that crashed and is not yet
// reaped, does not hold the folder. Linux reads /proc; macOS asks ps; elsewhere nothing is known.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

export interface ProcessIdentity {
  /** The start time in clock ticks since boot (Linux, /proc/<pid>/stat field 22): unique per pid. */
  startTicks?: number | undefined;
  /** The command line, its arguments joined by spaces. */
  command?: string | undefined;
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, as another user's process.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function fromProc(pid: number): (ProcessIdentity & { ended: boolean }) | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name in parentheses may hold spaces and parentheses: the fields start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const startTicks = Number(fields[19]);
  let command: string | undefined;
  try {
    command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '').split('\0').join(' ');
  } catch {
    command = undefined;
  }
  return { ended: state === 'Z' || state === 'X', startTicks: Number.isSafeInteger(startTicks) ? startTicks : undefined, command: command || undefined };
}

function fromPs(pid: number): (ProcessIdentity & { ended: boolean }) | undefined {
  const answer = spawnSync('ps', ['-ww', '-o', 'stat=', '-o', 'command=', '-p', String(pid)], { encoding: 'utf8', timeout: 2_000 });
  const line = answer.status === 0 ? answer.stdout.trim() : '';
  if (line === '') return undefined;
  const [state = '', ...command] = line.split(/\s+/);
  return { ended: state.startsWith('Z'), command: command.join(' ') || undefined };
}

/** What is known of the process `pid` now; undefined when it cannot be inspected (or is gone). */
export function identityOf(pid: number): (ProcessIdentity & { ended: boolean }) | undefined {
  if (process.platform === 'linux') return fromProc(pid);
  if (process.platform === 'darwin') return fromPs(pid);
  return undefined;
}

// One run's cgroup, where the machine has them for Steward (limits.ts): made when the run's sandbox
// opens, with the run's memory and process limits; every process of the run joins it before it
// becomes bubblewrap (the launcher's first line), so nothing of the run starts outside it. Its
// counters tell afterwards whether a limit stopped the run; at the end, what is left is killed and
// the cgroup removed.
import fs from 'node:fs';
import path from 'node:path';
import type { SandboxLimits } from '../../../shared/contract';
import type { LimitReached, LimitsMechanism } from './limits';

export interface RunCgroup {
  /** The folders whose cgroup.procs a process of the run writes itself into. */
  dirs: string[];
  /** Which limit the kernel enforced, if one did: a process killed for memory, a fork refused. */
  reached(): LimitReached | undefined;
  close(): Promise<void>;
}

const mib = 1024 * 1024;

function write(dir: string, file: string, value: string | number, optional = false): void {
  const target = path.join(dir, file);
  if (optional && !fs.existsSync(target)) return;
  fs.writeFileSync(target, String(value));
}

/** A counter in a flat-keyed cgroup file ("oom_kill 2"), 0 when the file or the key is missing. */
function counter(file: string, key: string): number {
  try {
    const match = new RegExp(`^${key} (\\d+)$`, 'm').exec(fs.readFileSync(file, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

function processesIn(dir: string): number[] {
  try {
    return fs.readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Kills what is left in `dir` (cgroup.kill where the kernel has it), then removes it once empty. */
async function removeCgroup(dir: string): Promise<void> {
  // A process that just exited leaves the cgroup a moment later: the first waits are short.
  for (let attempt = 0, waitMs = 1; attempt < 20; attempt++, waitMs = Math.min(waitMs * 2, 100)) {
    const left = processesIn(dir);
    if (left.length === 0) {
      try {
        fs.rmdirSync(dir);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      }
    }
    try {
      write(dir, 'cgroup.kill', 1, true);
    } catch {
      // an older kernel: signalled one by one below
    }
    for (const pid of left) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await pause(waitMs);
  }
  throw new Error(`the run's cgroup ${dir} still has processes`);
}

export function openRunCgroup(mechanism: LimitsMechanism, runId: string, limits: SandboxLimits): RunCgroup | undefined {
  const bytes = limits.memoryMb * mib;
  if (mechanism.kind === 'cgroup2') {
    const dir = path.join(mechanism.runsDir, runId);
    fs.mkdirSync(dir, { recursive: true });
    write(dir, 'memory.max', bytes);
    // No swap beyond the limit: the limit would otherwise hold only for what stays in RAM.
    write(dir, 'memory.swap.max', 0, true);
    write(dir, 'pids.max', limits.processes);
    return {
      dirs: [dir],
      reached: () => (counter(path.join(dir, 'memory.events'), 'oom_kill') > 0 ? 'memory' : counter(path.join(dir, 'pids.events'), 'max') > 0 ? 'processes' : undefined),
      close: () => removeCgroup(dir),
    };
  }
  if (mechanism.kind === 'cgroup1') {
    const memory = path.join(mechanism.memoryDir, runId);
    const pids = path.join(mechanism.pidsDir, runId);
    fs.mkdirSync(memory, { recursive: true });
    fs.mkdirSync(pids, { recursive: true });
    write(memory, 'memory.limit_in_bytes', bytes);
    // memsw (memory and swap together) must not be below the memory limit, so it is written second.
    write(memory, 'memory.memsw.limit_in_bytes', bytes, true);
    write(pids, 'pids.max', limits.processes);
    return {
      dirs: [memory, pids],
      reached: () => (counter(path.join(memory, 'memory.oom_control'), 'oom_kill') > 0 ? 'memory' : counter(path.join(pids, 'pids.events'), 'max') > 0 ? 'processes' : undefined),
      close: async () => {
        await Promise.all([removeCgroup(pids), removeCgroup(memory)]);
      },
    };
  }
  return undefined;
}

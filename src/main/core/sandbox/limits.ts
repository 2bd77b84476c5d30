// What bounds one sandboxed run (its processes, its memory, its /tmp) and by which means this
// machine can hold it: a cgroup v2 subtree Steward was delegated, else the cgroup v1 pids and memory
// hierarchies where Steward may write them (root, usually), else rlimits set inside the sandbox.
// The /tmp size is the tmpfs's own (bwrap --size) whatever the means. Found once, by trying.
//
// Why not rlimits alone: the kernel never enforces RLIMIT_NPROC for a process whose real uid is
// the host's root (copy_process exempts INIT_USER), and a sandbox of Steward run as root is root's
// outside its user namespace; and RLIMIT_DATA bounds each process, not the run.
import fs from 'node:fs';
import path from 'node:path';
import { type SandboxConfig, type SandboxLimits, defaultLimits } from '../../../shared/contract';

export type LimitsMechanism =
  /** Per-run cgroups are made in `runsDir`, whose subtree has the memory and pids controllers. */
  | { kind: 'cgroup2'; runsDir: string }
  /** Per-run cgroups are made in these folders of the two v1 hierarchies. */
  | { kind: 'cgroup1'; memoryDir: string; pidsDir: string }
  /** rlimits inside the sandbox; `processes` false where the kernel would not enforce them (root). */
  | { kind: 'rlimit'; processes: boolean };

export type LimitReached = 'memory' | 'processes' | 'tmp';

/** An instance's limits, with the defaults for what it does not set (instances made before limits existed set nothing). */
export const limitsOf = (sandbox: Pick<SandboxConfig, 'limits'>): SandboxLimits => ({ ...defaultLimits, ...sandbox.limits });

export const sizeWords = (mb: number): string => (mb % 1024 === 0 ? `${mb / 1024} GiB` : `${mb} MiB`);

/** How the limits are held, as imageTag says it: "limits by cgroup v1". */
export function limitsWords(mechanism: LimitsMechanism): string {
  if (mechanism.kind === 'cgroup2') return 'limits by cgroup v2';
  if (mechanism.kind === 'cgroup1') return 'limits by cgroup v1';
  return mechanism.processes ? 'limits by rlimit' : 'limits by rlimit, no process limit as root';
}

/** A run's error when it ended on a limit. */
export function limitReachedText(which: LimitReached, limits: SandboxLimits): string {
  const said = {
    memory: `its memory limit, ${sizeWords(limits.memoryMb)}`,
    processes: `its process limit, ${limits.processes}`,
    tmp: `its /tmp limit, ${sizeWords(limits.tmpMb)}`,
  }[which];
  const field = { memory: 'memoryMb', processes: 'processes', tmp: 'tmpMb' }[which];
  return `The run reached ${said}: raise the instance's sandbox limits (${field}) if it needs more.`;
}

/** /proc/self/mountinfo's octal escapes (\040 for a space). */
const unescape = (field: string) => field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));

interface CgroupMount {
  type: 'cgroup' | 'cgroup2';
  /** The hierarchy's folder that is mounted (not / in some containers). */
  root: string;
  mountPoint: string;
  options: string[];
}

function cgroupMounts(mountinfo: string): CgroupMount[] {
  return mountinfo.split('\n').flatMap((line) => {
    const [before, after] = line.split(' - ');
    if (!before || !after) return [];
    const fields = before.split(' ');
    const [type, , superOptions] = after.split(' ');
    if (type !== 'cgroup' && type !== 'cgroup2') return [];
    return [{ type, root: unescape(fields[3] ?? '/'), mountPoint: unescape(fields[4] ?? ''), options: (superOptions ?? '').split(',') }];
  });
}

/** The folder of `cgroupPath` (as /proc/self/cgroup says it) under `mount`, when that mount shows it. */
function folderIn(mount: CgroupMount, cgroupPath: string): string | undefined {
  if (mount.root === '/') return path.join(mount.mountPoint, cgroupPath);
  if (cgroupPath === mount.root || cgroupPath.startsWith(`${mount.root}/`)) return path.join(mount.mountPoint, cgroupPath.slice(mount.root.length));
  return undefined;
}

const read = (file: string) => fs.readFileSync(file, 'utf8');
const words = (file: string) => read(file).trim().split(/\s+/);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * This process's folder of run cgroups in `base` (`base/<pid>`): several Stewards may share a cgroup
 * (tests, two data folders). What a Steward that is gone left (a crash) is removed: a cgroup with no
 * process left goes, a busy one stays.
 */
function processFolder(base: string, pid: number, controllers?: string): string {
  for (const name of fs.readdirSync(base)) {
    const left = path.join(base, name);
    if (!/^\d+$/.test(name) || Number(name) === pid || alive(Number(name)) || !fs.statSync(left).isDirectory()) continue;
    try {
      for (const run of fs.readdirSync(left)) if (fs.statSync(path.join(left, run)).isDirectory()) fs.rmdirSync(path.join(left, run));
      fs.rmdirSync(left);
    } catch {
      // still in use
    }
  }
  const mine = path.join(base, String(pid));
  fs.mkdirSync(mine, { recursive: true });
  if (controllers) fs.writeFileSync(path.join(mine, 'cgroup.subtree_control'), controllers);
  return mine;
}

/**
 * cgroup v2: Steward's own cgroup, when it may write it and has both controllers. A cgroup may pass
 * controllers to its children only while no process is in it, so Steward first moves itself into a
 * leaf of its own (`steward-daemon`), as services with Delegate=yes do; where another process shares
 * its cgroup (a login shell's), that fails and it moves back.
 */
function delegatedV2(own: string, pid: number): string | undefined {
  if (!['memory', 'pids'].every((controller) => words(path.join(own, 'cgroup.controllers')).includes(controller))) return undefined;
  const enabled = () => ['memory', 'pids'].every((controller) => words(path.join(own, 'cgroup.subtree_control')).includes(controller));
  if (!enabled()) {
    const leaf = path.join(own, 'steward-daemon');
    fs.mkdirSync(leaf, { recursive: true });
    fs.writeFileSync(path.join(leaf, 'cgroup.procs'), String(pid));
    try {
      fs.writeFileSync(path.join(own, 'cgroup.subtree_control'), '+memory +pids');
    } catch {
      fs.writeFileSync(path.join(own, 'cgroup.procs'), String(pid));
      fs.rmdirSync(leaf);
      return undefined;
    }
  }
  const base = path.join(own, 'steward-runs');
  fs.mkdirSync(base, { recursive: true });
  fs.writeFileSync(path.join(base, 'cgroup.subtree_control'), '+memory +pids');
  return processFolder(base, pid, '+memory +pids');
}

/** cgroup v1: a `steward` folder in Steward's own cgroup of the memory and of the pids hierarchy, when it may make them; its runs in `steward/<pid>`. */
function writableV1(memoryOwn: string, pidsOwn: string, pid: number): { memoryDir: string; pidsDir: string } {
  const memoryBase = path.join(memoryOwn, 'steward');
  const pidsBase = path.join(pidsOwn, 'steward');
  fs.mkdirSync(memoryBase, { recursive: true });
  fs.mkdirSync(pidsBase, { recursive: true });
  return { memoryDir: processFolder(memoryBase, pid), pidsDir: processFolder(pidsBase, pid) };
}

export interface LimitsHost {
  /** /proc/self/cgroup and /proc/self/mountinfo. */
  cgroups: string;
  mountinfo: string;
  pid: number;
  uid: number;
}

const thisProcess = (): LimitsHost => ({ cgroups: read('/proc/self/cgroup'), mountinfo: read('/proc/self/mountinfo'), pid: process.pid, uid: process.getuid?.() ?? 0 });

/** How this machine holds a run's limits, trying the cgroups first. */
export function findLimitsMechanism(host: LimitsHost = thisProcess()): LimitsMechanism {
  const mounts = cgroupMounts(host.mountinfo);
  const lines = host.cgroups.split('\n').flatMap((line) => {
    const match = /^(\d+):([^:]*):(.*)$/.exec(line);
    return match ? [{ controllers: match[2].split(','), path: match[3] }] : [];
  });
  const unified = lines.find((line) => line.controllers.length === 1 && line.controllers[0] === '');
  const v2 = mounts.find((mount) => mount.type === 'cgroup2');
  const v2Own = unified && v2 ? folderIn(v2, unified.path) : undefined;
  if (v2Own) {
    try {
      const runsDir = delegatedV2(v2Own, host.pid);
      if (runsDir) return { kind: 'cgroup2', runsDir };
    } catch {
      // not delegated to Steward
    }
  }
  const v1Own = (controller: string) => {
    const line = lines.find((each) => each.controllers.includes(controller));
    const mount = mounts.find((each) => each.type === 'cgroup' && each.options.includes(controller));
    return line && mount ? folderIn(mount, line.path) : undefined;
  };
  const memoryOwn = v1Own('memory');
  const pidsOwn = v1Own('pids');
  if (memoryOwn && pidsOwn) {
    try {
      return { kind: 'cgroup1', ...writableV1(memoryOwn, pidsOwn, host.pid) };
    } catch {
      // the hierarchies are root's
    }
  }
  return { kind: 'rlimit', processes: host.uid !== 0 };
}

// A sandbox policy as a bubblewrap command line (Linux). The sandbox's root is empty but for what the
// policy shows (mount-plan.ts: the system's folders read-only, the workspace and the CLI's state
// read-write, secrets covered, startup files protected), with /tmp private. Every namespace is new:
// the run sees only its own processes, and its network is loopback alone, where small bridges
// (socat) listen: the filtering proxy and each loopback port it was given, forwarded to Steward's
// sockets outside. --die-with-parent ends the sandbox with Steward.
//
// Nothing inside is privileged, whoever runs Steward: the agent is an ordinary uid in a user
// namespace of its own, with no capability (bwrap keeps them all for a root caller unless told), no
// way to make another user namespace, and the seccomp filter (seccomp.ts) on every process, so no
// mount can be undone or made. Its /tmp and /dev/shm have a size, and the root, /dev and the empty
// folders that hide paths are read-only, so that the run's temporary files stay within its limit.
import fs from 'node:fs';
import { type MountPlan, planMounts } from './mount-plan';
import type { SandboxPolicy } from './policy';

/** Inside the sandbox: where the bridges' sockets are, and the proxy's port. */
export const bridgeDir = '/tmp/.steward-bridge';

export interface Bridges {
  /** The host folder holding the sockets (`proxy`, and one per forwarded port), mounted at bridgeDir. */
  hostDir: string;
  /** The proxy's port on the sandbox's loopback; undefined when nothing beyond loopback is allowed. */
  proxyPort: number | undefined;
  /** Loopback ports forwarded to the machine's own. */
  ports: number[];
  /** socat's full path: the agent's PATH may not hold it. */
  socat: string;
}

/** Each policy's plan, made once when its sandbox opens: every process of the run gets the same mounts. */
const plans = new WeakMap<SandboxPolicy, MountPlan>();

/** The policy's mount plan (made on first use, then the same for every process of the run). */
export function mountPlanOf(policy: SandboxPolicy): MountPlan {
  let plan = plans.get(policy);
  if (plan === undefined) {
    plan = planMounts(policy);
    plans.set(policy, plan);
  }
  return plan;
}

/** The mount arguments for the policy's paths. */
export function mountArgs(policy: SandboxPolicy): string[] {
  return mountPlanOf(policy).args;
}

/**
 * rlimits set from inside, after bwrap made the user namespace: there RLIMIT_NPROC counts this
 * sandbox's processes alone (the kernel counts per namespace and uid), where set outside it would
 * count all of the user's. Both soft and hard, which nothing inside may raise again. dash names the
 * process limit -p, bash and busybox -u. A limit that cannot be set stops the run.
 */
function rlimitLines(rlimits: Confinement['rlimits']): string[] {
  const fail = (what: string) => `{ echo "steward: could not set the run's ${what} limit" >&2; exit 125; }`;
  return [
    ...(rlimits?.memoryMb === undefined ? [] : [`ulimit -d ${rlimits.memoryMb * 1024} || ${fail('memory')}`]),
    ...(rlimits?.processes === undefined ? [] : [`{ ulimit -u ${rlimits.processes} || ulimit -p ${rlimits.processes}; } 2>/dev/null || ${fail('process')}`]),
  ];
}

const hexPort = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');

/**
 * The shell that starts the bridges inside, waits until they listen, and becomes the command
 * (`"$@"`). Each bridge is socat from a loopback port to a socket in bridgeDir.
 */
export function bridgeScript(bridges: Bridges, rlimits?: Confinement['rlimits']): string {
  const limits = rlimitLines(rlimits);
  const listeners: { port: number; socket: string }[] = [
    ...(bridges.proxyPort === undefined ? [] : [{ port: bridges.proxyPort, socket: 'proxy' }]),
    ...bridges.ports.map((port) => ({ port, socket: String(port) })),
  ];
  if (listeners.length === 0) return [...limits, 'exec "$@"'].join('\n');
  const quiet = '</dev/null >/dev/null 2>&1 &';
  const socat = `'${bridges.socat.replace(/'/g, `'\\''`)}'`;
  const lines = listeners.flatMap(({ port, socket }) => [
    `${socat} TCP4-LISTEN:${port},bind=127.0.0.1,reuseaddr,fork UNIX-CONNECT:${bridgeDir}/${socket} ${quiet}`,
    `${socat} TCP6-LISTEN:${port},bind=[::1],ipv6only=1,reuseaddr,fork UNIX-CONNECT:${bridgeDir}/${socket} ${quiet}`,
  ]);
  // A command started before its bridges listen would find its endpoints refused: wait (bounded)
  // until /proc/net/tcp shows each listening (state 0A), with the shell's builtins alone.
  const listening = [
    'listening() { while read -r _ local _ state _; do [ "$state" = 0A ] && [ "${local##*:}" = "$1" ] && return 0; done < /proc/net/tcp; return 1; }',
  ];
  const ready = listeners.map(({ port }) => `listening ${hexPort(port)}`).join(' && ');
  return [...limits, ...lines, ...listening, `n=0; until ${ready}; do n=$((n+1)); [ $n -lt 5000 ] || break; done`, 'exec "$@"'].join('\n');
}

/** Who the agent is inside, and what bounds it there. */
export interface Confinement extends Identity {
  /** The size of /tmp, and of /dev/shm. */
  tmpMb: number;
  /** Set inside where no cgroup holds the run: processes (RLIMIT_NPROC) and each process's data (RLIMIT_DATA). */
  rlimits?: { processes?: number | undefined; memoryMb?: number | undefined } | undefined;
}

export interface Identity {
  uid: number;
  gid: number;
  /** bwrap's --disable-userns (0.8.0 and later); the seccomp filter refuses new user namespaces either way. */
  disableUserns: boolean;
}

/**
 * The uid and gid inside: the caller's own, or 1000 for root (uid 0 inside would be root to every
 * program that checks). Either maps to the caller outside, so the caller's files are the agent's.
 */
export function sandboxIdentity(uid = process.getuid?.() ?? 0, gid = process.getgid?.() ?? 0): { uid: number; gid: number } {
  return uid === 0 ? { uid: 1000, gid: 1000 } : { uid, gid };
}

/** The descriptors the launcher opens for bwrap: the seccomp filter to read, and where bwrap says its sandbox's pid. */
export const seccompFd = 9;
export const infoFd = 8;

/** The arguments that make the sandbox unprivileged, the same in every sandbox and in the host check. */
export function unprivilegedArgs(identity: Identity): string[] {
  return [
    '--unshare-all',
    // Explicit: bwrap only implies it for a caller that is not root.
    '--unshare-user',
    ...(identity.disableUserns ? ['--disable-userns'] : []),
    '--uid', String(identity.uid),
    '--gid', String(identity.gid),
    '--cap-drop', 'ALL',
    '--seccomp', String(seccompFd),
  ];
}

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/**
 * The shell on the host that becomes bwrap (`"$@"`): it first writes itself into the run's cgroups,
 * so that everything the sandbox starts is counted, then opens the filter and the info file.
 */
export function launcherScript(cgroupDirs: string[], filterFile: string, infoFile: string): string {
  const joins = cgroupDirs.map((dir) => `echo $$ > ${quote(`${dir}/cgroup.procs`)} || { echo "steward: the run's limits could not be applied" >&2; exit 125; }`);
  return [...joins, `exec "$@" ${seccompFd}<${quote(filterFile)} ${infoFd}>${quote(infoFile)}`].join('\n');
}

/** Each tmpfs the mounts made to hide a folder, made read-only once everything inside it is mounted. */
function readOnlyTmpfs(mounts: string[]): string[] {
  return mounts.flatMap((arg, index) => (arg === '--tmpfs' && mounts[index + 1] ? ['--remount-ro', mounts[index + 1]] : []));
}

/**
 * The parts of /proc that change the machine, not the sandbox (/proc/sys's global settings such as
 * kernel.core_pattern, sysrq-trigger, irq affinities, bus devices), bound read-only over the
 * sandbox's own /proc. bwrap covers them itself only when its write check passes, and for a root
 * caller whose agent runs as another uid it does not: that uid is root outside, which the kernel's
 * sysctl check asks about, so without this a run could set core_pattern and run code as root.
 */
const procCovers = ['sys', 'sysrq-trigger', 'irq', 'bus'].filter((entry) => fs.existsSync(`/proc/${entry}`)).flatMap((entry) => ['--ro-bind', `/proc/${entry}`, `/proc/${entry}`]);

/** The bwrap arguments that run `command args` under the policy, from the workspace. */
export function bubblewrapArgs(policy: SandboxPolicy, bridges: Bridges, confinement: Confinement, command: string, args: string[]): string[] {
  const mounts = mountArgs(policy);
  const tmpBytes = String(confinement.tmpMb * 1024 * 1024);
  return [
    '--die-with-parent',
    '--new-session',
    ...unprivilegedArgs(confinement),
    '--info-fd', String(infoFd),
    '--dev', '/dev',
    '--size', tmpBytes, '--tmpfs', '/dev/shm',
    '--proc', '/proc', ...procCovers,
    '--size', tmpBytes, '--tmpfs', '/tmp',
    ...mounts,
    ...(bridges.proxyPort !== undefined || bridges.ports.length > 0 ? ['--ro-bind', bridges.hostDir, bridgeDir] : []),
    // /dev is a tmpfs of bwrap's, writable and unbounded but for this.
    ...readOnlyTmpfs(mounts), '--remount-ro', '/dev', '--remount-ro', '/',
    '--chdir', policy.workspaceDir,
    '--',
    '/bin/sh', '-c', bridgeScript(bridges, confinement.rlimits), 'steward-sandbox', command, ...args,
  ];
}

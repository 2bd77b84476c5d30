// A sandbox policy as a bubblewrap command line (Linux). The sandbox's root is empty but for what the
// policy shows (mount-plan.ts: the system's folders read-only, the workspace and the CLI's state
// read-write, secrets covered, startup files protected), with /tmp private. Every namespace is new:
// the run sees only its own processes, and its network is loopback alone, where small bridges
// (socat) listen: the filtering proxy and each loopback port it was given, forwarded to Steward's
// sockets outside. --die-with-parent ends the sandbox with Steward.
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

const hexPort = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');

/**
 * The shell that starts the bridges inside, waits until they listen, and becomes the command
 * (`"$@"`). Each bridge is socat from a loopback port to a socket in bridgeDir.
 */
export function bridgeScript(bridges: Bridges): string {
  const listeners: { port: number; socket: string }[] = [
    ...(bridges.proxyPort === undefined ? [] : [{ port: bridges.proxyPort, socket: 'proxy' }]),
    ...bridges.ports.map((port) => ({ port, socket: String(port) })),
  ];
  if (listeners.length === 0) return 'exec "$@"';
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
  return [...lines, ...listening, `n=0; until ${ready}; do n=$((n+1)); [ $n -lt 5000 ] || break; done`, 'exec "$@"'].join('\n');
}

/** The bwrap arguments that run `command args` under the policy, from the workspace. */
export function bubblewrapArgs(policy: SandboxPolicy, bridges: Bridges, command: string, args: string[]): string[] {
  return [
    '--die-with-parent',
    '--new-session',
    '--unshare-all',
    '--dev', '/dev',
    '--proc', '/proc',
    '--tmpfs', '/tmp',
    ...mountArgs(policy),
    ...(bridges.proxyPort !== undefined || bridges.ports.length > 0 ? ['--ro-bind', bridges.hostDir, bridgeDir] : []),
    '--chdir', policy.workspaceDir,
    '--',
    '/bin/sh', '-c', bridgeScript(bridges), 'steward-sandbox', command, ...args,
  ];
}

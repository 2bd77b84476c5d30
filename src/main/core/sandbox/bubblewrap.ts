// A sandbox policy as a bubblewrap command line (Linux). The whole file system is mounted read-only,
// with /tmp private; hidden paths are covered (an empty tmpfs over a folder, /dev/null over a file);
// writable ones are bound back read-write. bwrap applies mounts in order, so they go parents
// first: a workspace inside the hidden data folder lands over it. Every namespace is new: the run
// sees only its own processes, and its network is loopback alone, where small bridges (socat)
// listen: the filtering proxy and each loopback port it was given, forwarded to Steward's sockets
// outside. --die-with-parent ends the sandbox with Steward.
import fs from 'node:fs';
import path from 'node:path';
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

type Mount = { path: string; kind: 'hide' | 'read' | 'write' | 'deny' };
/** At the same depth, Steward's hiding first, then what the run may read or write, then the user's own denials. */
const order: Record<Mount['kind'], number> = { hide: 0, read: 1, write: 2, deny: 3 };
const depth = (file: string) => file.split(path.sep).filter(Boolean).length;

function kindOf(file: string): 'folder' | 'file' | undefined {
  try {
    return fs.statSync(file).isDirectory() ? 'folder' : 'file';
  } catch {
    return undefined;
  }
}

/** The mount arguments for the policy's paths; paths that do not exist are left alone (nothing to read, and a read-only parent). */
export function mountArgs(policy: SandboxPolicy): string[] {
  const mounts: Mount[] = [
    ...policy.hidden.map((file): Mount => ({ path: file, kind: 'hide' })),
    ...(policy.readable ?? []).map((file): Mount => ({ path: file, kind: 'read' })),
    ...policy.writable.map((file): Mount => ({ path: file, kind: 'write' })),
    ...policy.denied.map((file): Mount => ({ path: file, kind: 'deny' })),
  ].sort((a, b) => depth(a.path) - depth(b.path) || order[a.kind] - order[b.kind]);
  return mounts.flatMap((mount) => {
    const kind = kindOf(mount.path);
    if (kind === undefined) return [];
    if (mount.kind === 'write') return ['--bind', mount.path, mount.path];
    if (mount.kind === 'read') return ['--ro-bind', mount.path, mount.path];
    return kind === 'folder' ? ['--tmpfs', mount.path] : ['--ro-bind', '/dev/null', mount.path];
  });
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
    '--ro-bind', '/', '/',
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

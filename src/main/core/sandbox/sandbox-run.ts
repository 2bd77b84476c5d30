// One run's sandbox while it lasts: its ways out (egress.ts) listening in a private folder, and
// the command line that puts a process inside (bubblewrap on Linux, Seatbelt on macOS). Every
// process of the run goes through `wrap`: the CLI, the built-in agent's shell commands, its MCP
// servers. On Linux each goes through a launcher shell that joins the run's cgroup (run-cgroup.ts)
// and hands bwrap the seccomp filter, from a second private folder no sandbox sees. `close` ends
// the ways out, removes the folders and the placeholders bwrap made.
import fs from 'node:fs';
import path from 'node:path';
import type net from 'node:net';
import { type SandboxLimits, defaultLimits } from '../../../shared/contract';
import { createRunDir } from '../agents/steward-server';
import { stateEnv } from './agent-state';
import { type Bridges, bridgeDir, bubblewrapArgs, launcherScript, mountPlanOf, sandboxIdentity } from './bubblewrap';
import { type Denial, openEgress } from './egress';
import type { SandboxSupport } from './host-support';
import { limitReachedText } from './limits';
import { loopbackPorts } from './network-rules';
import { SandboxRefused } from './mount-plan';
import { holdPlaceholders, releasePlaceholders } from './placeholders';
import type { SandboxPolicy } from './policy';
import { openRunCgroup } from './run-cgroup';
import { seatbeltProfile } from './seatbelt';
import { seccompFilter } from './seccomp';
import { watchTmp } from './tmp-watch';

export interface Wrapped {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

export interface SandboxRun {
  /** What runs the sandbox: "bubblewrap 0.8.0". */
  tool: string;
  policy: SandboxPolicy;
  wrap(command: string, args: string[], env: NodeJS.ProcessEnv): Wrapped;
  /** Why the run should be said to have failed, when one of its limits stopped it: "The run reached its memory limit, 4 GiB…". */
  limitReached(): string | undefined;
  close(): Promise<void>;
}

const defaultProxyPort = 3128;

/**
 * The environment inside: proxies pointed at the sandbox's own, loopback direct, a private TMPDIR,
 * and HOME and the CLIs' state variables in the instance's own state (`home`): the user's are not
 * there, whatever the instance's env says.
 */
export function sandboxEnv(env: NodeJS.ProcessEnv, proxyPort: number | undefined, tmpDir: string, home: string): NodeJS.ProcessEnv {
  const inside: NodeJS.ProcessEnv = { ...env, ...stateEnv(home) };
  for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy', 'ALL_PROXY', 'all_proxy']) delete inside[name];
  if (proxyPort !== undefined) {
    const proxy = `http://127.0.0.1:${proxyPort}`;
    Object.assign(inside, { HTTP_PROXY: proxy, HTTPS_PROXY: proxy, http_proxy: proxy, https_proxy: proxy });
  }
  // Loopback ports the run was given listen inside; the rest of loopback is the sandbox's own, and empty.
  Object.assign(inside, { NO_PROXY: 'localhost,127.0.0.1,::1', no_proxy: 'localhost,127.0.0.1,::1', NODE_USE_ENV_PROXY: '1' });
  // Temporary files go to the run's private folder, whatever folder the user gave the CLI for them.
  for (const name of ['TMPDIR', 'TMP', 'TEMP', 'CLAUDE_CODE_TMPDIR']) inside[name] = tmpDir;
  // Claude Code lets itself skip permissions as root only in a sandbox, which this is.
  inside.IS_SANDBOX = '1';
  return inside;
}

/**
 * The placeholders bwrap makes for missing startup files are files in the workspace while the run
 * lasts: git inside is told to ignore them (as the run's global excludes file), so that a run's
 * `git add -A` does not commit them. An environment that sets git config of its own keeps it.
 */
function gitExcludesEnv(env: NodeJS.ProcessEnv, excludes: string | undefined): NodeJS.ProcessEnv {
  if (excludes === undefined || env.GIT_CONFIG_COUNT !== undefined) return env;
  return { ...env, GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'core.excludesFile', GIT_CONFIG_VALUE_0: excludes };
}

function listenOn(server: net.Server, target: string | number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    const done = () => {
      server.off('error', reject);
      resolve();
    };
    if (typeof target === 'string') server.listen(target, done);
    else server.listen(target, '127.0.0.1', done);
  });
}

/** `runsDir`: where the run's private folder goes (found after a crash by the run's id, like its configuration folder). */
export async function openSandbox(
  policy: SandboxPolicy,
  support: Extract<SandboxSupport, { ok: true }>,
  options: { runId: string; runsDir: string; onDenied(denial: Denial): void; limits?: SandboxLimits | undefined },
): Promise<SandboxRun> {
  const linux = process.platform === 'linux';
  // Planned before anything is opened: a startup file that cannot be protected refuses the run.
  const placeholders = linux ? mountPlanOf(policy).placeholders.map((placeholder) => placeholder.path) : [];
  // Each loopback port is a bridge listening inside, as the agent's ordinary uid: below 1024 it could not, and the run would wait on it.
  const low = linux ? loopbackPorts(policy.network).filter((port) => port < 1024) : [];
  if (low.length > 0) {
    throw new SandboxRefused(`The sandbox cannot bring loopback port ${low.join(', ')} inside: its agent runs as an ordinary user, who may not listen below port 1024. Serve it on port 1024 or above, or set the instance's sandbox to "off".`);
  }
  const hostDir = createRunDir(options.runsDir, options.runId);
  const ports = loopbackPorts(policy.network);
  const listening: Promise<void>[] = [];
  const servers = new Map<string, net.Server>();
  const egress = openEgress({ rules: policy.network, refused: policy.refused, stewardPort: policy.stewardPort, onDenied: (denial) => options.onDenied(denial) }, linux ? ports : [], (server, name) => {
    servers.set(name, server);
    listening.push(listenOn(server, linux ? path.join(hostDir, name) : 0));
  });
  try {
    await Promise.all(listening);
  } catch (error) {
    await egress.close();
    fs.rmSync(hostDir, { recursive: true, force: true });
    throw error;
  }
  holdPlaceholders(placeholders);
  const close = async () => {
    await egress.close();
    fs.rmSync(hostDir, { recursive: true, force: true });
    releasePlaceholders(placeholders);
  };
  if (linux) {
    const ignored = placeholders.filter((file) => file.startsWith(`${policy.workspaceDir}${path.sep}`)).map((file) => `/${path.relative(policy.workspaceDir, file)}`);
    if (ignored.length > 0) fs.writeFileSync(path.join(hostDir, 'git-excludes'), `${ignored.join('\n')}\n`);
    const excludes = ignored.length > 0 ? `${bridgeDir}/git-excludes` : undefined;
    try {
      return linuxSandbox(policy, support, { ...options, hostDir, ports, excludes, close });
    } catch (error) {
      await close();
      throw error;
    }
  }
  // macOS: one loopback for all, so the proxy listens on a port of its own and the named ports are let through.
  const address = servers.get('proxy')?.address();
  const proxyPort = address && typeof address === 'object' ? address.port : undefined;
  const tmpDir = path.join(hostDir, 'tmp');
  fs.mkdirSync(tmpDir);
  const profile = seatbeltProfile(policy, { tmpDir, proxyPort, ports });
  return {
    tool: support.tool,
    policy,
    wrap: (command, args, env) => ({ command: '/usr/bin/sandbox-exec', args: ['-p', profile, command, ...args], env: sandboxEnv(env, proxyPort, tmpDir, policy.home) }),
    limitReached: () => undefined,
    close,
  };
}

/**
 * Linux: bwrap behind the launcher shell. The run's limits are its cgroup's where the machine has
 * one for Steward, else rlimits set inside; /tmp's size is the tmpfs's in both.
 */
function linuxSandbox(
  policy: SandboxPolicy,
  support: Extract<SandboxSupport, { ok: true }>,
  options: { runId: string; runsDir: string; limits?: SandboxLimits | undefined; hostDir: string; ports: number[]; excludes: string | undefined; close(): Promise<void> },
): SandboxRun {
  const limits = options.limits ?? defaultLimits;
  // A support found before limits were looked for (none is, but the type allows it) gets rlimits.
  const mechanism = support.limits ?? { kind: 'rlimit', processes: (process.getuid?.() ?? 0) !== 0 };
  if (!support.seccomp) throw new Error('no seccomp filter for this machine');
  // Never mounted: the filter and bwrap's reports stay out of the sandbox's sight.
  const launchDir = createRunDir(options.runsDir, options.runId);
  const filterFile = path.join(launchDir, 'seccomp.bpf');
  let cgroup: ReturnType<typeof openRunCgroup>;
  try {
    fs.writeFileSync(filterFile, seccompFilter(support.seccomp), { mode: 0o600 });
    cgroup = openRunCgroup(mechanism, options.runId, limits);
  } catch (error) {
    fs.rmSync(launchDir, { recursive: true, force: true });
    throw error;
  }
  const tmp = watchTmp(launchDir, limits.tmpMb);
  // Always a proxy, even with nothing beyond loopback allowed: a client that asks for a host then
  // hears why it is refused, and the run's feed says so, instead of a bare DNS failure.
  let proxyPort = defaultProxyPort;
  while (options.ports.includes(proxyPort)) proxyPort++;
  const bridges: Bridges = { hostDir: options.hostDir, proxyPort, ports: options.ports, socat: support.socat! };
  const rlimits = mechanism.kind === 'rlimit' ? { processes: mechanism.processes ? limits.processes : undefined, memoryMb: limits.memoryMb } : undefined;
  const confinement = { ...sandboxIdentity(), disableUserns: support.disableUserns ?? false, tmpMb: limits.tmpMb, rlimits };
  let launches = 0;
  return {
    tool: support.tool,
    policy,
    wrap: (command, args, env) => {
      const infoFile = path.join(launchDir, `bwrap-${++launches}.json`);
      const script = launcherScript(cgroup?.dirs ?? [], filterFile, infoFile);
      return { command: '/bin/sh', args: ['-c', script, 'steward-sandbox', support.bwrap!, ...bubblewrapArgs(policy, bridges, confinement, command, args)], env: gitExcludesEnv(sandboxEnv(env, proxyPort, '/tmp', policy.home), options.excludes) };
    },
    limitReached: () => {
      const reached = cgroup?.reached() ?? (tmp.full() ? 'tmp' : undefined);
      return reached && limitReachedText(reached, limits);
    },
    close: async () => {
      tmp.stop();
      try {
        await cgroup?.close();
      } finally {
        fs.rmSync(launchDir, { recursive: true, force: true });
        await options.close();
      }
    },
  };
}

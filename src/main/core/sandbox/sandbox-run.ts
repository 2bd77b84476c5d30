// One run's sandbox while it lasts: its ways out (egress.ts) listening in a private folder, and
// the command line that puts a process inside (bubblewrap on Linux, Seatbelt on macOS). Every
// process of the run goes through `wrap`: the CLI, the built-in agent's shell commands, its MCP
// servers. `close` ends the ways out, removes the folder and the placeholders bwrap made.
import fs from 'node:fs';
import path from 'node:path';
import type net from 'node:net';
import { createRunDir } from '../agents/steward-server';
import { stateEnv } from './agent-state';
import { type Bridges, bridgeDir, bubblewrapArgs, mountPlanOf } from './bubblewrap';
import { type Denial, openEgress } from './egress';
import type { SandboxSupport } from './host-support';
import { loopbackPorts } from './network-rules';
import { holdPlaceholders, releasePlaceholders } from './placeholders';
import type { SandboxPolicy } from './policy';
import { seatbeltProfile } from './seatbelt';

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
export async function openSandbox(policy: SandboxPolicy, support: Extract<SandboxSupport, { ok: true }>, options: { runId: string; runsDir: string; onDenied(denial: Denial): void }): Promise<SandboxRun> {
  const linux = process.platform === 'linux';
  // Planned before anything is opened: a startup file that cannot be protected refuses the run.
  const placeholders = linux ? mountPlanOf(policy).placeholders.map((placeholder) => placeholder.path) : [];
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
    // Always a proxy, even with nothing beyond loopback allowed: a client that asks for a host then
    // hears why it is refused, and the run's feed says so, instead of a bare DNS failure.
    let proxyPort = defaultProxyPort;
    while (ports.includes(proxyPort)) proxyPort++;
    const bridges: Bridges = { hostDir, proxyPort, ports, socat: support.socat! };
    const ignored = placeholders.filter((file) => file.startsWith(`${policy.workspaceDir}${path.sep}`)).map((file) => `/${path.relative(policy.workspaceDir, file)}`);
    if (ignored.length > 0) fs.writeFileSync(path.join(hostDir, 'git-excludes'), `${ignored.join('\n')}\n`);
    const excludes = ignored.length > 0 ? `${bridgeDir}/git-excludes` : undefined;
    return {
      tool: support.tool,
      policy,
      wrap: (command, args, env) => ({ command: support.bwrap!, args: bubblewrapArgs(policy, bridges, command, args), env: gitExcludesEnv(sandboxEnv(env, proxyPort, '/tmp', policy.home), excludes) }),
      close,
    };
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
    close,
  };
}

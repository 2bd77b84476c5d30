// One run's sandbox as rules: what its processes may read and write, and which hosts they may
// reach. An allow-list: the run sees the system's folders, its workspace, its instance's own CLI
// state (agent-state.ts), the files its commands run from (agent-executable.ts), Steward's own
// installation, and what readAllow and writeAllow name; nothing else of the disk, so the rest of the
// home folder and other people's are simply absent. Inside what it sees, secrets are hidden (/etc's,
// credential stores, Steward's data folder, other workspaces, every CLI's login of the user's), the
// user's readDeny narrows it, and the files of a writable folder that start programs later are
// protected. The network: its CLI's model endpoints, from the instance's configuration and the
// user's own files, never from what a run can write. Built from the instance alone; platform
// backends (bubblewrap.ts, seatbelt.ts) turn it into their own terms.
import fs from 'node:fs';
import path from 'node:path';
import type { AgentConfig, SandboxConfig } from '../../../shared/contract';
import { agentNeeds, userStates } from './agent-footprint';
import { executableFootprint, type Link, pathFolders } from './agent-executable';
import { type NetworkRule, parseRule } from './network-rules';
import { isAtOrUnder, isStrictlyUnder, unique } from './paths';
import { type ToolFolders, credentialStores, startupEntries } from './protected-paths';
import { systemView } from './system-folders';

/** A path of a writable folder that starts programs later: not writable, not creatable. */
export interface ProtectedPath {
  path: string;
  kind: 'file' | 'folder';
  /** The writable folder it lies in. */
  root: string;
}

export interface SandboxPolicy {
  workspaceDir: string;
  /** The run's HOME: its instance's own CLI state. */
  home: string;
  /** Readable, not writable: the system's folders, the CLI's files, Steward's installation, readAllow. */
  readable: string[];
  /** Readable and writable: the workspace, the instance's CLI state, the run's own files, writeAllow. */
  writable: string[];
  /** Links made inside so that paths through them resolve as outside (/bin → usr/bin, a CLI's bin link). */
  links: Link[];
  /** Not readable where they lie inside what is: /etc's secrets, credential stores, Steward's data, other workspaces, the user's CLI logins. */
  hidden: string[];
  /** The user's readDeny: hidden even where it lies inside something writable. */
  denied: string[];
  /** Startup files of writable folders: read-only where they exist, not creatable where they do not. */
  protected: ProtectedPath[];
  /** Hosts the run may reach. */
  network: NetworkRule[];
  /** Steward's own port on loopback, when the run has Steward's tools: only /mcp is served through it. */
  stewardPort: number | undefined;
  /** Hosts refused whatever the rules say: Steward's own public trigger URL (a run reaches Steward through /mcp alone). */
  refused?: NetworkRule[] | undefined;
}

export interface PolicyInput {
  sandbox: SandboxConfig;
  agent: AgentConfig;
  /** The environment the agent's process gets, before Steward's own additions for the run. */
  env: NodeJS.ProcessEnv;
  /** The user's home folder (`~` of readAllow and writeAllow, where the user's own CLI state is). */
  home: string;
  workspaceDir: string;
  dataDir: string;
  /** The instance's own CLI state (agent-state.ts): the run's HOME, writable. */
  agentHome: string;
  otherWorkspaces: string[];
  /** The commands the run starts: its CLI, or a custom command, or the built-in agent's MCP servers. */
  commands?: { command: string; wholeFolder: boolean }[] | undefined;
  /** The run's own configuration folder (Steward's MCP server), when it has one. */
  runDir?: string | undefined;
  /** Steward's /mcp, when the run has Steward's tools. */
  stewardUrl?: string | undefined;
  /** Steward's public URL through the tunnel, when it is up: its trigger URLs would start runs the depth limit cannot see. */
  stewardPublicUrl?: string | undefined;
  /** Steward's own installation (its code and the tools it ships hold no secret): readable in every sandbox. */
  appFolders?: string[] | undefined;
  /** What of /etc only its owner may read (system-folders.ts `etcSecrets`). */
  systemSecrets?: string[] | undefined;
  platform?: NodeJS.Platform | undefined;
}

/** `~` and `~/x` from the home folder; the real path of what exists, so that mounts land where the files are. */
export function resolvePath(value: string, home: string): string {
  const absolute = value === '~' ? home : value.startsWith('~/') ? path.join(home, value.slice(2)) : path.resolve(value);
  try {
    return fs.realpathSync(absolute);
  } catch {
    return absolute;
  }
}

/** Sockets of the machine's services (Docker, D-Bus, the user's session) that a sandbox must not talk to. */
const serviceSockets = ['/run/user', '/run/dbus', '/run/docker.sock', '/run/containerd', '/run/podman', '/run/snapd.socket', '/var/run/docker.sock'];

/** Where people's files are on macOS, whose file system is otherwise readable (Linux shows only the system's folders). */
const macHomes = ['/Users', '/Volumes', '/private/var/root'];

function toolFoldersOf(folder: string): ToolFolders {
  const at = (name: string) => fs.lstatSync(path.join(folder, name), { throwIfNoEntry: false });
  const git = at('.git');
  return { git: git === undefined ? 'absent' : git.isDirectory() ? 'folder' : 'file', opencode: at('.opencode') !== undefined, codex: at('.codex') !== undefined };
}

const isFolder = (file: string) => {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
};

/**
 * The startup files of each writable folder (the workspace, writeAllow's folders, and the home
 * folder when one of them holds it), but those writeAllow names: an entry inside the folder that is
 * the path or holds it.
 */
function protectedPaths(folders: string[], writeAllow: string[], home: string): ProtectedPath[] {
  const roots = unique([...folders.filter(isFolder), ...(folders.some((folder) => isAtOrUnder(home, folder)) ? [home] : [])]);
  const found = new Map<string, ProtectedPath>();
  for (const root of roots) {
    for (const entry of startupEntries(toolFoldersOf(root), root === home)) {
      const file = path.join(root, entry.relative);
      if (writeAllow.some((allowed) => isAtOrUnder(file, allowed) && isStrictlyUnder(allowed, root))) continue;
      found.set(file, { path: file, kind: entry.kind, root });
    }
  }
  return [...found.values()];
}

/** The protected startup file `file` is or lies in, if any: what a run may not write, whoever writes for it. */
export function protectedAt(policy: SandboxPolicy, file: string): ProtectedPath | undefined {
  return policy.protected.find((entry) => isAtOrUnder(file, entry.path));
}

export function sandboxPolicy(input: PolicyInput): SandboxPolicy {
  const { home, sandbox } = input;
  const platform = input.platform ?? process.platform;
  const resolve = (value: string) => resolvePath(value, home);
  const workspaceDir = resolve(input.workspaceDir);
  const agentHome = resolve(input.agentHome);
  const dataDir = resolve(input.dataDir);
  const otherWorkspaces = input.otherWorkspaces.map(resolve);
  // Steward's data folder is never given, by readAllow or writeAllow either; another instance's workspace in it may be (a shared one).
  const givable = (entry: string) => !isAtOrUnder(entry, dataDir) || otherWorkspaces.some((workspace) => isAtOrUnder(entry, workspace));
  const writeAllow = sandbox.writeAllow.map(resolve).filter(givable);
  const system = systemView(platform);
  const executable = executableFootprint(input.commands ?? [], input.env.PATH, home);
  const readable = unique([...system.read, ...executable.read, ...pathFolders(input.env.PATH, home), ...(input.appFolders ?? []).map(resolve), ...sandbox.readAllow.map(resolve).filter(givable)]);
  const writable = unique([workspaceDir, agentHome, ...(input.runDir ? [resolve(input.runDir)] : []), ...writeAllow]);
  const allowed = new Set([...readable, ...writable]);
  const hidden = unique([
    ...(input.systemSecrets ?? []),
    ...(platform === 'darwin' ? [...macHomes, resolve(home)] : []),
    ...[...credentialStores(home, platform), ...otherWorkspaces, ...userStates(input.env, home), ...serviceSockets, ...(input.env.XDG_RUNTIME_DIR ? [input.env.XDG_RUNTIME_DIR] : [])]
      .map(resolve)
      // What the run may read or write by name is not hidden by Steward's own rules (a workspace
      // shared by two instances, a store the user gave it); what lies inside a hidden folder (the
      // workspace in the data folder) is shown over it.
      .filter((hide) => !allowed.has(hide)),
    // Steward's data folder never: its database, keys and secret key. What the run has of it (its
    // workspace, its CLI state, its run folder) lies inside and is shown over it.
    dataDir,
  ]);
  const steward = input.stewardUrl ? parseRule(input.stewardUrl) : undefined;
  const needs = agentNeeds(input.agent, input.env, home);
  const network = [...needs.network, ...sandbox.network.map((host) => parseRule(host)).filter((rule) => rule !== undefined), ...(steward ? [steward] : [])];
  const publicHost = input.stewardPublicUrl ? parseRule(input.stewardPublicUrl) : undefined;
  const refused = publicHost ? [{ host: publicHost.host, port: undefined }] : [];
  return {
    workspaceDir,
    home: agentHome,
    readable,
    writable,
    links: [...system.links, ...executable.links],
    hidden,
    denied: unique(sandbox.readDeny.map(resolve)),
    protected: protectedPaths([workspaceDir, ...writeAllow], writeAllow, resolve(home)),
    network,
    stewardPort: steward?.port,
    refused,
  };
}

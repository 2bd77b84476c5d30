// One run's sandbox as rules: what its processes may write, what they may not read, and which hosts
// they may reach. Built from the instance's sandbox settings, what its agent CLI needs
// (agent-footprint.ts) and what Steward keeps for itself (its data folder, the other instances'
// workspaces). Platform backends (bubblewrap.ts, seatbelt.ts) turn it into their own terms.
import fs from 'node:fs';
import path from 'node:path';
import type { AgentConfig, SandboxConfig } from '../../../shared/contract';
import { agentNeeds, footprintName, otherAgentsState } from './agent-footprint';
import { type NetworkRule, parseRule } from './network-rules';
import { credentialStores } from './protected-paths';

export interface SandboxPolicy {
  workspaceDir: string;
  /** Readable and writable: the workspace, the CLI's state, the run's own files, writeAllow. */
  writable: string[];
  /** Not readable: credential stores, Steward's data, other workspaces, other CLIs' logins. Writable paths inside them stay writable. */
  hidden: string[];
  /** The user's readDeny: hidden even where it lies inside something writable. */
  denied: string[];
  /** Readable although under the sandbox's private /tmp: Steward's own folder, when it lives there. */
  readable?: string[] | undefined;
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
  home: string;
  workspaceDir: string;
  dataDir: string;
  otherWorkspaces: string[];
  /** The run's own configuration folder (Steward's MCP server), when it has one. */
  runDir?: string | undefined;
  /** Steward's /mcp, when the run has Steward's tools. */
  stewardUrl?: string | undefined;
  /** Steward's public URL through the tunnel, when it is up: its trigger URLs would start runs the depth limit cannot see. */
  stewardPublicUrl?: string | undefined;
  /** Steward's own installation (its code and the tools it ships hold no secret): readable in every sandbox, /tmp or not. */
  appRoot?: string | undefined;
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

const unique = (paths: string[]) => [...new Set(paths)];

/** Sockets of the machine's services (Docker, D-Bus, the user's session) that a sandbox must not talk to. */
const serviceSockets = ['/run/user', '/run/dbus', '/run/docker.sock', '/run/containerd', '/run/podman', '/run/snapd.socket', '/var/run/docker.sock'];

export function sandboxPolicy(input: PolicyInput): SandboxPolicy {
  const { home, sandbox } = input;
  const resolve = (value: string) => resolvePath(value, home);
  const workspaceDir = resolve(input.workspaceDir);
  const needs = agentNeeds(input.agent, input.env, home, workspaceDir);
  const writable = unique([workspaceDir, ...needs.state, ...(input.runDir ? [input.runDir] : []), ...sandbox.writeAllow].map(resolve));
  const preset = footprintName(input.agent);
  const hidden = unique(
    [...credentialStores(home), input.dataDir, ...input.otherWorkspaces, ...otherAgentsState(preset, input.env, home), ...serviceSockets, ...(input.env.XDG_RUNTIME_DIR ? [input.env.XDG_RUNTIME_DIR] : [])]
      .map(resolve)
      // What the run must write is never hidden by Steward's own rules (a workspace shared by two
      // instances); what lies inside a hidden folder (a HOME inside the data folder) is mounted back over it.
      .filter((hide) => !writable.includes(hide)),
  );
  const steward = input.stewardUrl ? parseRule(input.stewardUrl) : undefined;
  const network = [...needs.network, ...sandbox.network.map((host) => parseRule(host)).filter((rule) => rule !== undefined), ...(steward ? [steward] : [])];
  const publicHost = input.stewardPublicUrl ? parseRule(input.stewardPublicUrl) : undefined;
  const refused = publicHost ? [{ host: publicHost.host, port: undefined }] : [];
  const readable = input.appRoot ? [resolve(input.appRoot)] : [];
  return { workspaceDir, writable, hidden, denied: unique(sandbox.readDeny.map(resolve)), readable, network, stewardPort: steward?.port, refused };
}

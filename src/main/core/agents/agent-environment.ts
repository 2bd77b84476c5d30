// The environment an agent's processes start with, built rather than inherited: Steward's own
// environment holds what its user and its host gave the daemon (NGROK_AUTHTOKEN, GITHUB_TOKEN, a
// cloud login), none of it meant for an agent that a stranger's webhook may drive. An agent gets a
// short list of Steward's variables that say where and how it runs, the variables its instance
// passes on by name (`sandbox.envAllow`), what its preset needs, and its own `env`, in that order
// (a later one wins). Sandboxed or off, the same rule: every agent process Steward starts (the CLI,
// an ACP agent, the built-in agent's shell commands and stdio MCP servers, the probes) gets this.
// The base list (the contract's agentEnvBase): where it runs (PATH, HOME, TMPDIR), who and how
// (USER, LANG and LC_*, TZ, TERM, SHELL), and the proxy to use.
import { agentEnvBase, agentEnvBasePrefix } from '../../../shared/contract';

/** Windows needs these for a process to start at all (its system folder, its own profile folders); names there ignore case. */
const windowsVariables = ['SYSTEMROOT', 'WINDIR', 'COMSPEC', 'PATHEXT', 'SYSTEMDRIVE', 'USERPROFILE', 'APPDATA', 'LOCALAPPDATA', 'TEMP', 'TMP', 'HOMEDRIVE', 'HOMEPATH', 'USERNAME', 'PROGRAMFILES', 'PROGRAMDATA'];

export interface AgentEnvironmentParts {
  /** What the agent's preset (or its ACP command's CLI) sets for itself. */
  preset?: Record<string, string> | undefined;
  /** The instance's agent `env`: the user's own values, which win. */
  agent?: Record<string, string> | undefined;
  /** Names of Steward's variables the instance passes on too (`sandbox.envAllow`). */
  envAllow: readonly string[];
}

/** The agent's environment from `from` (Steward's own, by default): the base list, envAllow, the preset's, then the agent's. */
export function agentEnvironment(parts: AgentEnvironmentParts, from: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Record<string, string> {
  const windows = platform === 'win32';
  const wanted = new Set<string>([...agentEnvBase, ...parts.envAllow, ...(windows ? windowsVariables : [])].map((name) => (windows ? name.toUpperCase() : name)));
  const passed: Record<string, string> = {};
  for (const [name, value] of Object.entries(from)) {
    if (value === undefined) continue;
    const key = windows ? name.toUpperCase() : name;
    if (wanted.has(key) || key.startsWith(agentEnvBasePrefix)) passed[name] = value;
  }
  return { ...passed, ...parts.preset, ...parts.agent };
}

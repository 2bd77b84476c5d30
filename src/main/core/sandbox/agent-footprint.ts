// What each agent CLI needs beyond its workspace, inside a sandbox: the folders and files where it
// keeps its own state and login (writable to it, hidden from the other CLIs), the hosts of its
// vendor's model service, and the configuration where a user points it at another endpoint (a
// base URL in its env or config files, a local model server on loopback included).
import fs from 'node:fs';
import path from 'node:path';
import type { AgentConfig } from '../../../shared/contract';
import { type NetworkRule, parseRule } from './network-rules';

type Preset = Extract<AgentConfig, { provider: 'command' }>['preset'];

interface Footprint {
  /** Its state and login, from the environment it runs with. */
  state(env: NodeJS.ProcessEnv, home: string): string[];
  /** Its vendor's hosts. */
  hosts: string[];
  /** Configuration files that may name another endpoint. */
  configFiles(env: NodeJS.ProcessEnv, home: string, workspaceDir: string): string[];
}

const xdg = (env: NodeJS.ProcessEnv, home: string) => ({
  config: env.XDG_CONFIG_HOME || path.join(home, '.config'),
  data: env.XDG_DATA_HOME || path.join(home, '.local/share'),
  state: env.XDG_STATE_HOME || path.join(home, '.local/state'),
  cache: env.XDG_CACHE_HOME || path.join(home, '.cache'),
});

const inXdg = (env: NodeJS.ProcessEnv, home: string, name: string) => Object.values(xdg(env, home)).map((folder) => path.join(folder, name));

const footprints: Record<Exclude<Preset, 'custom'>, Footprint> = {
  'claude-code': {
    state: (env, home) =>
      env.CLAUDE_CONFIG_DIR ? [env.CLAUDE_CONFIG_DIR] : [path.join(home, '.claude'), path.join(home, '.claude.json'), ...inXdg(env, home, 'claude')],
    hosts: ['api.anthropic.com', '*.anthropic.com', 'claude.ai', '*.claude.ai', 'claude.com', '*.claude.com'],
    configFiles: (env, home, workspaceDir) => [
      path.join(env.CLAUDE_CONFIG_DIR || path.join(home, '.claude'), 'settings.json'),
      path.join(workspaceDir, '.claude/settings.json'),
      path.join(workspaceDir, '.claude/settings.local.json'),
    ],
  },
  codex: {
    state: (env, home) => [env.CODEX_HOME || path.join(home, '.codex')],
    hosts: ['api.openai.com', 'auth.openai.com', 'chatgpt.com', '*.chatgpt.com'],
    configFiles: (env, home) => [path.join(env.CODEX_HOME || path.join(home, '.codex'), 'config.toml')],
  },
  gemini: {
    state: (env, home) => [path.join(env.GEMINI_CLI_HOME || home, '.gemini')],
    hosts: ['generativelanguage.googleapis.com', 'cloudcode-pa.googleapis.com', 'oauth2.googleapis.com', 'www.googleapis.com', 'accounts.google.com'],
    configFiles: (env, home, workspaceDir) => [path.join(env.GEMINI_CLI_HOME || home, '.gemini/settings.json'), path.join(workspaceDir, '.gemini/settings.json')],
  },
  opencode: {
    state: (env, home) => inXdg(env, home, 'opencode'),
    hosts: ['opencode.ai', '*.opencode.ai', 'models.dev', 'api.anthropic.com', 'api.openai.com', 'generativelanguage.googleapis.com', 'openrouter.ai'],
    configFiles: (env, home, workspaceDir) => [
      ...(env.OPENCODE_CONFIG ? [env.OPENCODE_CONFIG] : []),
      path.join(xdg(env, home).config, 'opencode/opencode.json'),
      path.join(xdg(env, home).config, 'opencode/opencode.jsonc'),
      path.join(workspaceDir, 'opencode.json'),
      path.join(workspaceDir, 'opencode.jsonc'),
    ],
  },
  goose: {
    state: (env, home) => inXdg(env, home, 'goose'),
    hosts: ['api.anthropic.com', 'api.openai.com', 'generativelanguage.googleapis.com', 'openrouter.ai'],
    configFiles: (env, home) => [path.join(xdg(env, home).config, 'goose/config.yaml')],
  },
};

/** Environment variables that name a model endpoint: ANTHROPIC_BASE_URL, GOOGLE_GEMINI_BASE_URL, OLLAMA_HOST, AZURE_OPENAI_ENDPOINT, ... */
const endpointVariable = /(BASE_URL|_ENDPOINT)$|^OLLAMA_HOST$/i;
/** `base_url = "…"`, `"baseURL": "…"`, `OLLAMA_HOST: …`, `"ANTHROPIC_BASE_URL": "…"` in a config file. */
const endpointSetting = /["']?([A-Za-z_]*(?:base_?url|_ENDPOINT|OLLAMA_HOST))["']?\s*[:=]\s*["']?([^"'\s,}]+)/gi;

/** The endpoint a value names, as a rule; a bare `host:port` (OLLAMA_HOST) counts. */
function endpointRule(value: string): NetworkRule | undefined {
  const text = value.trim();
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text) && !/^[\w.-]+:\d+$/.test(text)) return undefined;
  const rule = parseRule(/:\/\//.test(text) ? text : `http://${text}`);
  return rule?.host ? rule : undefined;
}

function readSmall(file: string): string {
  try {
    return fs.statSync(file).size <= 1024 * 1024 ? fs.readFileSync(file, 'utf8') : '';
  } catch {
    return '';
  }
}

/** The endpoints named in an environment and configuration texts. */
export function endpointsIn(env: NodeJS.ProcessEnv, texts: string[]): NetworkRule[] {
  const rules: NetworkRule[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value && endpointVariable.test(name)) rules.push(...[endpointRule(value)].filter((rule) => rule !== undefined));
  }
  for (const text of texts) {
    for (const match of text.matchAll(endpointSetting)) {
      const rule = endpointRule(match[2]);
      if (rule) rules.push(rule);
    }
  }
  return rules;
}

export interface AgentNeeds {
  /** The CLI's own state: writable. */
  state: string[];
  /** The model endpoints it may reach. */
  network: NetworkRule[];
}

/** The CLIs an ACP agent's command may run, by a word of its command line (`gemini`, `npx … @agentclientprotocol/claude-agent-acp`). */
const acpCommands: [RegExp, Exclude<Preset, 'custom'>][] = [
  [/^gemini/, 'gemini'],
  [/^opencode/, 'opencode'],
  [/^goose/, 'goose'],
  [/claude/, 'claude-code'],
  [/codex/, 'codex'],
];

/** Whose footprint the agent has: its preset, the CLI an ACP command runs, `custom` when unknown, `openai` for the built-in agent. */
export function footprintName(agent: AgentConfig): Preset | 'openai' {
  if (agent.provider === 'command') return agent.preset;
  if (agent.provider === 'openai') return 'openai';
  const words = [agent.command, ...(agent.args ?? [])].map((word) => path.basename(word));
  return acpCommands.find(([pattern]) => words.some((word) => pattern.test(word)))?.[1] ?? 'custom';
}

/** What the agent of `agent` needs inside a sandbox, given the environment its process gets. */
export function agentNeeds(agent: AgentConfig, env: NodeJS.ProcessEnv, home: string, workspaceDir: string): AgentNeeds {
  const name = footprintName(agent);
  if (name === 'custom' || name === 'openai') {
    // A custom command's endpoint is whatever its env names; the built-in agent's model calls leave from Steward itself.
    return { state: [], network: agent.provider === 'openai' ? [] : endpointsIn(agent.env ?? {}, []) };
  }
  const footprint = footprints[name];
  const configTexts = footprint.configFiles(env, home, workspaceDir).map(readSmall);
  if (name === 'opencode' && env.OPENCODE_CONFIG_CONTENT) configTexts.push(env.OPENCODE_CONFIG_CONTENT);
  return {
    state: footprint.state(env, home),
    network: [...footprint.hosts.map((host) => parseRule(host)!), ...endpointsIn(env, configTexts)],
  };
}

/** Every CLI's state but `preset`'s: their logins are none of this agent's business. */
export function otherAgentsState(preset: string, env: NodeJS.ProcessEnv, home: string): string[] {
  return Object.entries(footprints)
    .filter(([name]) => name !== preset)
    .flatMap(([, footprint]) => footprint.state(env, home));
}

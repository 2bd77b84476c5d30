// What each agent CLI brings into a sandbox: the hosts of its vendor's model service; the user's
// own configuration, where a user points it at another endpoint (a base URL in its env or config
// files, a local model server on loopback included), read for the network policy and never from a
// file a run can write (not the workspace, not the instance's own state); where the user keeps the
// CLI's state and login (hidden from every sandbox: a sandboxed run has its instance's own, see
// agent-state.ts); and which of the user's files the instance's state starts from.
import fs from 'node:fs';
import path from 'node:path';
import type { AgentConfig } from '../../../shared/contract';
import { readRunWrittenFile } from '../run-written-file';
import { type NetworkRule, parseRule } from './network-rules';

type Preset = Extract<AgentConfig, { provider: 'command' }>['preset'];
export type CliName = Exclude<Preset, 'custom'>;

/**
 * A file of the user's that the instance's state carries, at `to` (relative to the instance's
 * home). A `login` is copied when the user's is newer (a token the CLI refreshed inside is kept);
 * a `config` at every run start (the user's configuration decides); an `account` file gives only
 * its `keys`, merged into the instance's own (the CLI keeps the rest of that file to itself).
 */
export interface Carried {
  from: string;
  to: string;
  kind: 'login' | 'config' | 'account';
  keys?: string[];
}

interface Footprint {
  /** The user's own state and login, from the environment it runs with. */
  userState(env: NodeJS.ProcessEnv, home: string): string[];
  /** Its vendor's hosts. */
  hosts: string[];
  /** The user's configuration files that may name another endpoint. */
  configFiles(env: NodeJS.ProcessEnv, home: string): string[];
  /** What the instance's state carries of the user's. */
  carried(env: NodeJS.ProcessEnv, home: string): Carried[];
}

const xdg = (env: NodeJS.ProcessEnv, home: string) => ({
  config: env.XDG_CONFIG_HOME || path.join(home, '.config'),
  data: env.XDG_DATA_HOME || path.join(home, '.local/share'),
  state: env.XDG_STATE_HOME || path.join(home, '.local/state'),
  cache: env.XDG_CACHE_HOME || path.join(home, '.cache'),
});

const inXdg = (env: NodeJS.ProcessEnv, home: string, name: string) => Object.values(xdg(env, home)).map((folder) => path.join(folder, name));

const claudeDir = (env: NodeJS.ProcessEnv, home: string) => env.CLAUDE_CONFIG_DIR || path.join(home, '.claude');
const codexHome = (env: NodeJS.ProcessEnv, home: string) => env.CODEX_HOME || path.join(home, '.codex');
const geminiDir = (env: NodeJS.ProcessEnv, home: string) => path.join(env.GEMINI_CLI_HOME || home, '.gemini');
const carry = (from: string, to: string, kind: Carried['kind']): Carried => ({ from, to, kind });

const footprints: Record<CliName, Footprint> = {
  'claude-code': {
    userState: (env, home) => [claudeDir(env, home), ...(env.CLAUDE_CONFIG_DIR ? [] : [path.join(home, '.claude.json')]), ...inXdg(env, home, 'claude')],
    hosts: ['api.anthropic.com', '*.anthropic.com', 'claude.ai', '*.claude.ai', 'claude.com', '*.claude.com'],
    configFiles: (env, home) => [path.join(claudeDir(env, home), 'settings.json')],
    carried: (env, home) => [
      carry(path.join(claudeDir(env, home), '.credentials.json'), '.claude/.credentials.json', 'login'),
      carry(path.join(claudeDir(env, home), 'settings.json'), '.claude/settings.json', 'config'),
      // Its global file is beside its folder, or inside CLAUDE_CONFIG_DIR when that is set; the account part of it is the login.
      { ...carry(env.CLAUDE_CONFIG_DIR ? path.join(env.CLAUDE_CONFIG_DIR, '.claude.json') : path.join(home, '.claude.json'), '.claude/.claude.json', 'account'), keys: ['oauthAccount', 'userID', 'primaryApiKey', 'customApiKeyResponses', 'hasCompletedOnboarding'] },
    ],
  },
  codex: {
    userState: (env, home) => [codexHome(env, home)],
    hosts: ['api.openai.com', 'auth.openai.com', 'chatgpt.com', '*.chatgpt.com'],
    configFiles: (env, home) => [path.join(codexHome(env, home), 'config.toml')],
    carried: (env, home) => [carry(path.join(codexHome(env, home), 'auth.json'), '.codex/auth.json', 'login'), carry(path.join(codexHome(env, home), 'config.toml'), '.codex/config.toml', 'config')],
  },
  gemini: {
    userState: (env, home) => [geminiDir(env, home)],
    hosts: ['generativelanguage.googleapis.com', 'cloudcode-pa.googleapis.com', 'oauth2.googleapis.com', 'www.googleapis.com', 'accounts.google.com'],
    configFiles: (env, home) => [path.join(geminiDir(env, home), 'settings.json'), path.join(geminiDir(env, home), '.env')],
    carried: (env, home) => [
      ...['oauth_creds.json', 'google_accounts.json', '.env'].map((name) => carry(path.join(geminiDir(env, home), name), `.gemini/${name}`, 'login')),
      carry(path.join(geminiDir(env, home), 'settings.json'), '.gemini/settings.json', 'config'),
    ],
  },
  opencode: {
    userState: (env, home) => inXdg(env, home, 'opencode'),
    hosts: ['opencode.ai', '*.opencode.ai', 'models.dev', 'api.anthropic.com', 'api.openai.com', 'generativelanguage.googleapis.com', 'openrouter.ai'],
    configFiles: (env, home) => [
      ...(env.OPENCODE_CONFIG ? [env.OPENCODE_CONFIG] : []),
      ...['opencode.json', 'opencode.jsonc', 'config.json'].map((name) => path.join(xdg(env, home).config, 'opencode', name)),
    ],
    carried: (env, home) => [
      carry(path.join(xdg(env, home).data, 'opencode/auth.json'), '.local/share/opencode/auth.json', 'login'),
      ...['opencode.json', 'opencode.jsonc', 'config.json'].map((name) => carry(path.join(xdg(env, home).config, 'opencode', name), `.config/opencode/${name}`, 'config')),
    ],
  },
  goose: {
    userState: (env, home) => inXdg(env, home, 'goose'),
    hosts: ['api.anthropic.com', 'api.openai.com', 'generativelanguage.googleapis.com', 'openrouter.ai'],
    configFiles: (env, home) => [path.join(xdg(env, home).config, 'goose/config.yaml')],
    carried: (env, home) => [carry(path.join(xdg(env, home).config, 'goose/secrets.yaml'), '.config/goose/secrets.yaml', 'login'), carry(path.join(xdg(env, home).config, 'goose/config.yaml'), '.config/goose/config.yaml', 'config')],
  },
};

/**
 * One of the user's own files, through links (a user's dotfiles may be links), but never a FIFO or
 * a device, nor a huge one: an unsandboxed run could have put one there to stall Steward.
 */
export function readUserFile(file: string): { text: string; mtimeMs: number } | undefined {
  try {
    const real = fs.realpathSync(file);
    const text = readRunWrittenFile(real);
    return text === undefined ? undefined : { text, mtimeMs: fs.statSync(real).mtimeMs };
  } catch {
    return undefined;
  }
}

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
  /** The model endpoints it may reach. */
  network: NetworkRule[];
}

/** The CLIs an ACP agent's command may run, by a word of its command line (`gemini`, `npx … @agentclientprotocol/claude-agent-acp`). */
const acpCommands: [RegExp, CliName][] = [
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

const cliOf = (agent: AgentConfig): CliName | undefined => {
  const name = footprintName(agent);
  return name === 'custom' || name === 'openai' ? undefined : name;
};

/**
 * The endpoints the agent of `agent` may reach inside a sandbox, from the environment its process
 * gets and the user's own configuration files: nothing a sandboxed run could have written.
 */
export function agentNeeds(agent: AgentConfig, env: NodeJS.ProcessEnv, home: string): AgentNeeds {
  // The built-in agent's model calls leave from Steward itself.
  if (agent.provider === 'openai') return { network: [] };
  const cli = cliOf(agent);
  // A custom command's endpoint is whatever its env names.
  if (cli === undefined) return { network: endpointsIn(agent.env ?? {}, []) };
  const footprint = footprints[cli];
  const configTexts = footprint.configFiles(env, home).map((file) => readUserFile(file)?.text ?? '');
  if (cli === 'opencode' && env.OPENCODE_CONFIG_CONTENT) configTexts.push(env.OPENCODE_CONFIG_CONTENT);
  return { network: [...footprint.hosts.map((host) => parseRule(host)!), ...endpointsIn(env, configTexts)] };
}

/** Where the user keeps every CLI's state and login: none of them is a sandboxed run's to read. */
export function userStates(env: NodeJS.ProcessEnv, home: string): string[] {
  return Object.values(footprints).flatMap((footprint) => footprint.userState(env, home));
}

/** What of the user's files the instance's state carries for the agent's CLI (none for a custom command or the built-in agent). */
export function carriedFiles(agent: AgentConfig, env: NodeJS.ProcessEnv, home: string): Carried[] {
  const cli = cliOf(agent);
  return cli === undefined ? [] : footprints[cli].carried(env, home);
}

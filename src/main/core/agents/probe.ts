// Checks that an instance's agent can run before runs reach it, and names what runs it (the
// instance's imageTag): a CLI found on PATH and its version asked for (`claude-code@2.1.3`,
// `custom:cat`); an OpenAI-compatible endpoint reachable with the model listed (`ollama:qwen3:8b`).
// A preset that cannot run as configured (Claude Code as root, a CLI that answers `--version` with
// a usage error) is an error with the remedy, before a run finds out.
// A probe starts the agent's own program, so it runs where a run would (in the instance's sandbox,
// when it has one) but never from the workspace: from an empty private folder (a ProbePlace).
import { execFile } from 'node:child_process';
import path from 'node:path';
import type { AgentConfig, SandboxConfig } from '../../../shared/contract';
import { sandboxSupport, sandboxWords } from '../sandbox/host-support';
import type { SandboxRun } from '../sandbox/sandbox-run';
import { probeAcp } from './acp-probe';
import { agentEnvironment } from './agent-environment';
import { findExecutable } from './find-executable';
import { presets } from './presets';

export { findExecutable };

// Gemini CLI takes 6 s to say its version on a busy two-core machine.
const probeTimeoutMs = 20_000;

export type ProbeResult = { ok: true; imageTag: string } | { ok: false; reason: string };

/** Where a probe runs the agent: its working folder (empty, private) and the sandbox it runs in, if any; closed after. */
export interface ProbePlace {
  cwd: string;
  sandbox: SandboxRun | undefined;
  close(): Promise<void>;
}

/** What a CLI prints when it does not take the arguments it was given. */
const usageError = /usage|unknown (option|argument|command|flag)|unrecogni[sz]ed|invalid (option|argument)|illegal option|unexpected argument/i;

/** The CLI's version; `refusal` when it exits at once with a usage error instead, quoting it. */
export function askVersion(file: string, env: NodeJS.ProcessEnv, place: Pick<ProbePlace, 'cwd' | 'sandbox'>): Promise<{ version?: string; refusal?: string }> {
  const started = place.sandbox ? place.sandbox.wrap(file, ['--version'], env) : { command: file, args: ['--version'], env };
  return new Promise((resolve) => {
    const child = execFile(started.command, started.args, { env: { ...started.env, PWD: place.cwd }, cwd: place.cwd, timeout: probeTimeoutMs, maxBuffer: 64 * 1024 }, (error, stdout, stderr) => {
      const version = /\d+\.\d+(?:\.\d+)?(?:[-+][\w.]+)?/.exec(`${stdout}\n${stderr}`)?.[0];
      if (version !== undefined || !error) return resolve({ version });
      const lines = stderr.split('\n').map((line) => line.trim()).filter(Boolean);
      const exitedAtOnce = typeof error.code === 'number' && error.code !== 0 && !error.killed;
      const said = lines.find((line) => usageError.test(line));
      resolve(exitedAtOnce && said !== undefined ? { refusal: said.length > 300 ? `${said.slice(0, 299)}…` : said } : {});
    });
    child.stdin?.end();
  });
}

/** Why a preset cannot run under this environment, with the remedy; undefined when it can. */
export function refusalOf(preset: string, env: NodeJS.ProcessEnv): string | undefined {
  // Claude Code checks this itself at every run and exits; say so now, with the way out.
  if (preset === 'claude-code' && process.getuid?.() === 0 && env.IS_SANDBOX !== '1') {
    return 'Claude Code refuses --dangerously-skip-permissions as root: set IS_SANDBOX=1 in the agent\'s env ({"env": {"IS_SANDBOX": "1"}}) if Steward runs in a sandbox or container, or run Steward as another user.';
  }
  return undefined;
}

async function probeCommand(agent: Extract<AgentConfig, { provider: 'command' }>, openPlace: () => Promise<ProbePlace>, sandbox: SandboxConfig): Promise<ProbeResult> {
  const sandboxed = sandbox.mode === 'sandbox';
  const preset = agent.preset === 'custom' ? undefined : presets[agent.preset];
  const command = agent.command ?? preset?.command;
  if (!command) return { ok: false, reason: 'A custom agent needs a command.' };
  const env = agentEnvironment({ preset: preset?.env, agent: agent.env, envAllow: sandbox.envAllow });
  const file = findExecutable(command, env.PATH);
  if (!file) return { ok: false, reason: `${command} was not found on PATH; install it or set the agent's command to its full path.` };
  if (agent.preset === 'custom') return { ok: true, imageTag: `custom:${path.basename(command)}` };
  // In a sandbox Steward sets IS_SANDBOX=1 itself, since it is true.
  const refusal = sandboxed ? undefined : refusalOf(agent.preset, env);
  if (refusal !== undefined) return { ok: false, reason: refusal };
  const { version, refusal: usage } = await inPlace(openPlace, (place) => askVersion(file, env, place));
  if (usage !== undefined) return { ok: false, reason: `${command} --version exited with a usage error: "${usage}"; check that the agent's command is the ${agent.preset} CLI.` };
  return { ok: true, imageTag: `${agent.preset}@${version ?? 'unknown'}` };
}

async function probeOpenAi(agent: Extract<AgentConfig, { provider: 'openai' }>, apiKey: string | undefined): Promise<ProbeResult> {
  const url = `${agent.baseUrl.replace(/\/+$/, '')}/models`;
  let response: Response;
  try {
    response = await fetch(url, { headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {}, signal: AbortSignal.timeout(probeTimeoutMs) });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    return { ok: false, reason: `Could not reach the model server at ${agent.baseUrl}: ${cause}` };
  }
  if (response.status === 401 || response.status === 403) return { ok: false, reason: `The model server at ${agent.baseUrl} refused the API key (${response.status}).` };
  if (!response.ok) return { ok: false, reason: `The model server at ${agent.baseUrl} answered ${response.status} to GET /models.` };
  let ids: string[];
  try {
    const body = (await response.json()) as { data?: { id?: unknown }[] };
    ids = (body.data ?? []).map((model) => String(model.id));
  } catch {
    return { ok: false, reason: `GET ${url} did not answer with a model list.` };
  }
  if (!ids.includes(agent.model)) {
    const known = ids.length > 0 ? `it has ${ids.slice(0, 10).join(', ')}${ids.length > 10 ? ', …' : ''}` : 'it lists no models';
    return { ok: false, reason: `The model ${agent.model} is not available at ${agent.baseUrl}; ${known}.` };
  }
  const host = new URL(agent.baseUrl);
  const vendor = host.port === '11434' || host.hostname.includes('ollama') ? 'ollama' : 'openai';
  return { ok: true, imageTag: `${vendor}:${agent.model}` };
}

/** `probe` run in a place opened for it, and closed after whatever happens. */
async function inPlace<T>(openPlace: () => Promise<ProbePlace>, probe: (place: ProbePlace) => Promise<T>): Promise<T> {
  const place = await openPlace();
  try {
    return await probe(place);
  } finally {
    await place.close();
  }
}

export interface ProbeOptions {
  sandbox: SandboxConfig;
  /** Opens the place the agent's program is started in: an empty private folder, in the instance's sandbox if it has one. */
  openPlace: () => Promise<ProbePlace>;
  revealSecret: (name: string) => string | undefined;
}

/**
 * The agent and what it runs in: `claude-code@2.1.330 · sandbox (bubblewrap 0.8.0)` or `… · host`.
 * A sandbox the machine cannot make is an error with its remedy, never a silent `host`.
 */
export async function probeAgent(agent: AgentConfig, options: ProbeOptions): Promise<ProbeResult> {
  const sandboxed = options.sandbox.mode === 'sandbox';
  const support = sandboxed ? await sandboxSupport() : undefined;
  if (support && !support.ok) return { ok: false, reason: support.reason };
  let result: ProbeResult;
  try {
    result = await probeBare(agent, options);
  } catch (error) {
    // The place could not be opened (a full disk, the sandbox's proxy failing to listen).
    return { ok: false, reason: `The agent could not be started to check it: ${(error as Error).message}` };
  }
  if (!result.ok) return result;
  return { ok: true, imageTag: `${result.imageTag} · ${support?.ok ? `sandbox (${sandboxWords(support)})` : 'host'}` };
}

function probeBare(agent: AgentConfig, options: ProbeOptions): Promise<ProbeResult> {
  if (agent.provider === 'command') return probeCommand(agent, options.openPlace, options.sandbox);
  if (agent.provider === 'acp') return probeAcp(agent, (check) => inPlace(options.openPlace, check), probeTimeoutMs, options.sandbox.envAllow);
  const apiKey = agent.apiKeyRef === undefined ? undefined : options.revealSecret(agent.apiKeyRef);
  if (agent.apiKeyRef !== undefined && apiKey === undefined) {
    return Promise.resolve({ ok: false, reason: `No secret named ${agent.apiKeyRef} is stored; add it (PUT /api/secrets/${agent.apiKeyRef}) or change apiKeyRef.` });
  }
  return probeOpenAi(agent, apiKey);
}

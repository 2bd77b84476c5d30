// What agents this machine offers, for the first-start onboarding: each CLI preset found on the
// daemon's PATH with the version it answers (the same lookup and `--version` the instance probe
// uses, from an empty private folder as it does), and whether an OpenAI-compatible server answers
// GET /models, with its models.
import type { AgentDetection, DetectedAgent } from '../../../shared/contract';
import { defaultOpenAiBaseUrl } from '../../../shared/contract';
import { askVersion, findExecutable, refusalOf } from '../agents/probe';
import { presets } from '../agents/presets';
import { createRunDir, removeRunDir } from '../agents/steward-server';
import { probeIdOf } from '../sandbox/run-sandbox';

/** A model server that does not answer in this long is as good as absent on a first screen. */
const serverTimeoutMs = 3_000;

async function detectPreset(preset: keyof typeof presets, runsDir: string): Promise<DetectedAgent> {
  const { command, env: presetEnv } = presets[preset];
  const env = { ...process.env, ...presetEnv };
  const file = findExecutable(command, env.PATH);
  if (!file) return { preset, command, found: false, path: null, version: null, problem: null };
  const refusal = refusalOf(preset, env) ?? null;
  const cwd = createRunDir(runsDir, probeIdOf('detect'));
  const { version, refusal: usage } = await askVersion(file, env, { cwd, sandbox: undefined }).finally(() => removeRunDir(cwd));
  const problem = refusal ?? (usage === undefined ? null : `${command} --version exited with a usage error: "${usage}"`);
  return { preset, command, found: true, path: file, version: version ?? null, problem };
}

async function detectServer(baseUrl: string): Promise<AgentDetection['openai']> {
  const url = `${baseUrl.replace(/\/+$/, '')}/models`;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(serverTimeoutMs) });
    if (!response.ok) return { baseUrl, reachable: false, models: [], error: `GET ${url} answered ${response.status}.` };
    const body = (await response.json()) as { data?: { id?: unknown }[] };
    if (!Array.isArray(body.data)) return { baseUrl, reachable: false, models: [], error: `GET ${url} did not answer with a model list.` };
    return { baseUrl, reachable: true, models: body.data.map((model) => String(model.id)), error: null };
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    return { baseUrl, reachable: false, models: [], error: `Nothing answers at ${baseUrl}: ${cause}` };
  }
}

/** `runsDir`: where the empty folders the CLIs are asked from are made (Steward's own, out of every run's reach). */
export function createAgentDetector(options: { runsDir: string }) {
  return {
    async detect(baseUrl: string = defaultOpenAiBaseUrl): Promise<AgentDetection> {
      const names = Object.keys(presets) as (keyof typeof presets)[];
      const [agents, openai] = await Promise.all([Promise.all(names.map((name) => detectPreset(name, options.runsDir))), detectServer(baseUrl)]);
      return { agents, openai };
    },
  };
}

export type AgentDetector = ReturnType<typeof createAgentDetector>;

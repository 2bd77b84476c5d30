// The probe of an ACP agent: its command found on PATH, then started and asked `initialize`, which
// names the agent and says whether it can load sessions (`acp:gemini-cli 0.61.0 · loads sessions`).
// It starts in the place the probe opens for it (probe.ts: an empty private folder, in the instance's
// sandbox if it has one), never in the workspace.
import path from 'node:path';
import { type AcpAgent, acpEnv, acpStream, errorText, initializeRequest, loadAcpSdk } from './acp-agent';
import { spawnAgent, within } from './agent-spawn';
import { findExecutable } from './find-executable';
import type { ProbePlace, ProbeResult } from './probe';

export async function probeAcp(
  agent: AcpAgent,
  inPlace: (check: (place: ProbePlace) => Promise<ProbeResult>) => Promise<ProbeResult>,
  timeoutMs: number,
  envAllow: readonly string[],
): Promise<ProbeResult> {
  const env = acpEnv(agent, envAllow);
  if (!findExecutable(agent.command, env.PATH)) return { ok: false, reason: `${agent.command} was not found on PATH; install it or set the agent's command to its full path.` };
  return inPlace((place) => initialize(agent, env, place, timeoutMs));
}

async function initialize(agent: AcpAgent, env: NodeJS.ProcessEnv, place: ProbePlace, timeoutMs: number): Promise<ProbeResult> {
  const commandLine = [agent.command, ...(agent.args ?? [])].join(' ');
  const { child, tree, stderr, stopWatching } = spawnAgent(agent.command, agent.args ?? [], env, { env: {}, workspaceDir: place.cwd, sandbox: place.sandbox });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  child.on('error', () => {}); // the request below fails as the stream closes
  try {
    const sdk = await loadAcpSdk();
    const answer = await sdk.client({ name: 'steward' }).connectWith(acpStream(sdk, child), (ctx) => ctx.request('initialize', initializeRequest(sdk), { cancellationSignal: AbortSignal.timeout(timeoutMs), stopWaitingOnCancel: true }));
    const name = answer.agentInfo?.name ?? path.basename(agent.command);
    const version = answer.agentInfo?.version ? ` ${answer.agentInfo.version}` : '';
    return { ok: true, imageTag: `acp:${name}${version}${answer.agentCapabilities?.loadSession ? ' · loads sessions' : ''}` };
  } catch (error) {
    // Its last words may still be on their way (the write failed as it exited): wait for its end, briefly.
    await within(exited, 1_000);
    const said = stderr().trim().split('\n').at(-1);
    return { ok: false, reason: `${commandLine} did not answer ACP's initialize (${errorText(error)})${said ? `: ${said}` : ''}; check that its arguments start its ACP mode (gemini --acp, opencode acp, goose acp).` };
  } finally {
    child.stdin.end();
    await within(exited, 1_000);
    await tree.end(2_000);
    stopWatching();
  }
}

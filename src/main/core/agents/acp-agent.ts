// Agents that speak the Agent Client Protocol over stdio (gemini --acp, opencode acp, goose acp, the
// Claude Code and Codex adapters), driven with the protocol's SDK: initialize, a session (the
// thread's own loaded again when the agent can load sessions), one prompt turn with the run's
// prompt, its updates as the run's events (acp-updates.ts), its permission requests answered
// (acp-permissions.ts). The process is started like a command agent's (agent-spawn.ts) and, since
// an ACP agent waits for the next prompt, ended by Steward when the turn is over. Its output is read
// no faster than the runner records it (acpStream).
import { Readable, Writable } from 'node:stream';
import type * as acp from '@agentclientprotocol/sdk';
import type { AgentConfig } from '../../../shared/contract';
import { footprintName } from '../sandbox/agent-footprint';
import { agentEnvironment } from './agent-environment';
import { spawnAgent, within } from './agent-spawn';
import { createUpdateMapper } from './acp-updates';
import { permissionHandler } from './acp-permissions';
import { lastWords } from './command-agent';
import type { AgentEvent, AgentExit, AgentLaunch, AgentProcess, Backlog } from './events';
import { stewardEnv, stewardServerName } from './steward-server';
import { killGraceMs } from './process-tree';

export type AcpAgent = Extract<AgentConfig, { provider: 'acp' }>;
type AcpSdk = typeof import('@agentclientprotocol/sdk');

let sdk: Promise<AcpSdk> | undefined;
/** The protocol's SDK (and the zod it validates with): loaded by the first ACP run or probe, not by a daemon's start. */
export const loadAcpSdk = (): Promise<AcpSdk> => (sdk ??= import('@agentclientprotocol/sdk'));

/** After session/cancel: how long the turn may take to end before its process is ended. */
const cancelGraceMs = 2_000;
/** After the turn: how long the agent may take to exit once its stdin is closed. */
const exitGraceMs = 2_000;
/**
 * A loaded session's earlier turns are replayed as updates, by some agents (Gemini CLI) after
 * session/load has answered: the prompt waits until they have been quiet this long (at most replayMaxMs).
 */
const replayQuietMs = 300;
const replayMaxMs = 5_000;

/** Why a turn that ended by itself did not succeed, or undefined when it did. */
const stopReasons: Record<acp.StopReason, string | undefined> = {
  end_turn: undefined,
  max_tokens: 'The agent stopped: it reached its token limit (max_tokens).',
  max_turn_requests: 'The agent stopped: it reached its limit of model requests in one turn (max_turn_requests).',
  refusal: 'The agent refused to go on (refusal).',
  cancelled: 'The agent cancelled its turn.',
};

/**
 * What a known CLI needs in ACP mode, by the footprint its command has: Gemini CLI ignores the MCP
 * servers of a session (Steward's among them) in a folder it does not trust, and the workspace is
 * the instance's own.
 */
const acpDefaults: Partial<Record<ReturnType<typeof footprintName>, Record<string, string>>> = {
  gemini: { GEMINI_CLI_TRUST_WORKSPACE: 'true' },
};

/** The agent's environment (agent-environment.ts): a few of Steward's variables and those `envAllow` names, what its CLI needs in ACP mode, then the instance's. */
export const acpEnv = (agent: AcpAgent, envAllow: readonly string[]): NodeJS.ProcessEnv => agentEnvironment({ preset: acpDefaults[footprintName(agent)], agent: agent.env, envAllow });

/**
 * Connects to the agent on the child's stdio. With a backlog, what it writes goes on a chunk at a
 * time, each once the backlog has room: the SDK reads messages as fast as they come whatever its
 * handlers do, so the agent's stdout is held back before it (it then blocks on its pipe).
 */
export function acpStream(sdk: AcpSdk, child: { stdin: NodeJS.WritableStream; stdout: NodeJS.ReadableStream }, backlog?: Backlog): acp.Stream {
  let output = Readable.toWeb(child.stdout as Readable) as ReadableStream<Uint8Array>;
  if (backlog) {
    output = output.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        async transform(chunk, controller) {
          if (backlog.full()) await backlog.room();
          controller.enqueue(chunk);
        },
      }),
    );
  }
  return sdk.ndJsonStream(Writable.toWeb(child.stdin as Writable), output);
}

/** The message of an error from the agent, with the details JSON-RPC errors carry. */
export function errorText(error: unknown): string {
  const data = (error as { data?: unknown }).data;
  const details = typeof data === 'string' ? data : typeof (data as { details?: unknown })?.details === 'string' ? (data as { details: string }).details : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return details && !message.includes(details) ? `${message}: ${details}` : message;
}

export const initializeRequest = (sdk: AcpSdk): acp.InitializeRequest => ({
  protocolVersion: sdk.PROTOCOL_VERSION,
  // No fs or terminal: the agent reads, writes and runs with its own tools, inside the run's sandbox.
  clientCapabilities: {},
  clientInfo: { name: 'steward', version: '0.1.0' },
});

export function startAcpAgent(agent: AcpAgent, launch: AgentLaunch): AgentProcess {
  const { steward } = launch;
  const env = { ...acpEnv(agent, launch.envAllow ?? []), ...(steward ? stewardEnv(steward) : {}) };
  const { child, tree, stderr, stopWatching } = spawnAgent(agent.command, agent.args ?? [], env, launch);
  let failure: string | undefined;
  const emit = (event: AgentEvent) => {
    if (event.type === 'system' && event.failed) failure = event.text;
    launch.onEvent(event);
  };
  const mapper = createUpdateMapper(emit);
  const ending = new AbortController();
  let killedByUs = false;
  let sessionId: string | undefined;
  let agentSide: acp.ClientContext | undefined;
  let prompting = false;
  // Updates while a session loads are its earlier turns replayed: already in the thread.
  let live = false;
  let heardAt = 0;

  // The process starts at once; the SDK, when loaded, reads what it has written meanwhile.
  const turn: Promise<acp.StopReason> = loadAcpSdk().then((acpSdk) => {
    const app = acpSdk
      .client({ name: 'steward' })
      .onNotification('session/update', ({ params }) => {
        heardAt = Date.now();
        if (live && params.sessionId === sessionId) mapper.update(params.update);
      })
      .onRequest('session/request_permission', ({ params, signal }) => {
        mapper.end(); // what it said before asking comes before the question
        return permissionHandler(launch, emit, ending.signal)(params, signal);
      });
    return app.connectWith(acpStream(acpSdk, child, launch.backlog), (ctx) => session(acpSdk, ctx));
  });

  async function session(acpSdk: AcpSdk, ctx: acp.ClientContext): Promise<acp.StopReason> {
    agentSide = ctx;
    const { agentCapabilities: can } = await ctx.request('initialize', initializeRequest(acpSdk));
    const mcpServers: acp.McpServer[] = [];
    if (steward && can?.mcpCapabilities?.http) {
      mcpServers.push({ type: 'http', name: stewardServerName, url: steward.url, headers: [{ name: 'Authorization', value: `Bearer ${steward.key}` }] });
    } else if (steward) {
      emit({ type: 'system', text: "The agent takes no HTTP MCP servers: this run has no Steward tools.", raw: { type: 'acp.no_http_mcp' } });
    }
    const cwd = launch.workspaceDir;
    if (launch.resumeSession !== undefined) {
      if (can?.loadSession) {
        try {
          await ctx.request('session/load', { sessionId: launch.resumeSession, cwd, mcpServers });
          sessionId = launch.resumeSession;
          await replayEnded();
        } catch (error) {
          emit({ type: 'system', text: `The agent could not load its session ${launch.resumeSession} (${errorText(error)}): this run starts a new one.`, raw: { type: 'acp.load_failed' } });
        }
      } else {
        emit({ type: 'system', text: 'The agent cannot load sessions: this run starts a new one.', raw: { type: 'acp.no_load_session' } });
      }
    }
    sessionId ??= (await ctx.request('session/new', { cwd, mcpServers })).sessionId;
    emit({ type: 'session', id: sessionId, raw: { sessionId } });
    live = true;
    if (killedByUs) return 'cancelled';
    prompting = true;
    const { stopReason } = await ctx.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: launch.prompt }] });
    return stopReason;
  }

  async function replayEnded(): Promise<void> {
    const deadline = Date.now() + replayMaxMs;
    heardAt = Date.now();
    while (Date.now() - heardAt < replayQuietMs && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, replayQuietMs - (Date.now() - heardAt)));
    }
  }

  const processExit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const startError = new Promise<NodeJS.ErrnoException>((resolve) => child.on('error', resolve));

  const exited = (async (): Promise<AgentExit> => {
    const outcome = await Promise.race([
      turn.then((stopReason) => ({ stopReason }), (error: unknown) => ({ error })),
      startError.then((error) => ({ startError: error })),
    ]);
    prompting = false;
    mapper.end();
    ending.abort();
    if ('startError' in outcome) {
      stopWatching();
      const reason = outcome.startError.code === 'ENOENT' ? `${agent.command} was not found on PATH` : outcome.startError.message;
      return { code: 127, signal: null, stderr: `${stderr()}${reason}\n`, failure: `The agent could not start: ${reason}.` };
    }
    // An ACP agent waits for its next prompt: closing its stdin asks it to exit, the tree's end makes sure.
    child.stdin.end();
    await within(processExit, exitGraceMs);
    await tree.end(killGraceMs);
    stopWatching();
    const { code, signal } = await processExit;
    if (killedByUs) return { code, signal, stderr: stderr() };
    if ('error' in outcome) {
      const words = lastWords(stderr());
      const why = child.exitCode !== null || child.signalCode !== null ? `The agent exited with ${signal ? `signal ${signal}` : `code ${code}`}${words ? `: ${words}` : ''}` : `The agent's ACP session failed: ${errorText(outcome.error)}`;
      return { code: code ?? 1, signal, stderr: stderr(), failure: failure ?? why };
    }
    const stopped = stopReasons[outcome.stopReason];
    if (stopped !== undefined) emit({ type: 'system', text: stopped, raw: { stopReason: outcome.stopReason }, failed: true });
    // The turn's end decides, not how the process took being ended.
    return { code: failure ? 1 : 0, signal: null, stderr: stderr(), failure, failureShown: failure };
  })();

  function kill(): void {
    if (killedByUs) return;
    killedByUs = true;
    ending.abort();
    if (prompting && agentSide && sessionId !== undefined) {
      void agentSide.notify('session/cancel', { sessionId }).catch(() => {});
      // The turn ends with `cancelled`, and `exited` ends the process; one that does not answer is ended anyway.
      void within(turn.catch(() => {}), cancelGraceMs).then(() => tree.end(killGraceMs));
    } else {
      void tree.end(killGraceMs);
    }
  }
  return { exited, kill };
}

// The built-in agent's MCP client: at the start of a run it connects to the run's MCP servers in
// parallel (a command over stdio, started in the workspace, or a Streamable HTTP URL with headers
// from stored secrets), lists their tools and offers each as a Tool of its own. A server that
// cannot start within the time allowed is a system line, not a failed run. `close()` ends every
// connection, and a stdio server's whole process tree, whatever state the run ended in. The SDK
// is loaded here, on first use: a run without MCP servers never loads it.
import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import packageJson from '../../../../package.json' with { type: 'json' };
import type { McpServerConfig } from '../../../shared/contract';
import type { SandboxRun } from '../sandbox/sandbox-run';
import { agentEnvironment } from './agent-environment';
import { findExecutable } from './find-executable';
import type { AgentEvent } from './events';
import { type McpCallResult, mcpResultText, mcpToolName } from './mcp-results';
import { type ProcessTree, processTree } from './process-tree';
import { type Tool, ToolError } from './tools';

const defaultStartTimeoutMs = 20_000;
/** A tool call may take long (a build, a crawl); the run's own timeout still bounds it. */
const callTimeoutMs = 10 * 60 * 1000;
const maxPages = 100;
/** Set in a stdio server's environment: on Linux, its descendants that lost their parent are found by it. */
const treeMarker = 'STEWARD_MCP_TREE';

const notFound = (command: string) => `the command ${command} was not found (is it installed and on PATH?)`;

export interface McpToolsOptions {
  servers: readonly McpServerConfig[];
  workspaceDir: string;
  /** A stored secret's value, for an HTTP server's headers. */
  revealSecret: (name: string) => string | undefined;
  /** The run's: aborting it stops connecting. */
  signal: AbortSignal;
  /** The system lines: how many tools each server gave, or why it could not start. */
  onEvent: (event: AgentEvent) => void;
  /** Tool names already used (the built-in tools). */
  reservedNames?: Iterable<string>;
  startTimeoutMs?: number;
  /** The run's sandbox: stdio servers start inside it. */
  sandbox?: SandboxRun | undefined;
  /** Names of Steward's own variables the instance passes on (`sandbox.envAllow`); a stdio server gets the agent's environment. */
  envAllow?: readonly string[];
}

export interface McpTools {
  /** Connects to every enabled server; resolves with the tools of those that started. */
  start(): Promise<Tool[]>;
  /** Closes every connection and ends every server process started; safe to call at any time, more than once. */
  close(): Promise<void>;
}

/** A connection being made or made: what closing it takes. */
interface Connection {
  client: Client | undefined;
  transport: Transport | undefined;
  tree: ProcessTree | undefined;
  /** A stdio server's `STEWARD_MCP_TREE=<id>`: on Linux, its descendants are found by it even when orphaned. */
  marker?: string;
  /** The header values sent (secrets' values), kept out of what is reported. */
  secrets: string[];
  /** Set when closing began: a connection still being made then stops before it starts anything. */
  closed: boolean;
  closing: Promise<void> | undefined;
}

type ListedTool = Awaited<ReturnType<Client['listTools']>>['tools'][number];

/** A server that answered: its client and tools; or why it did not. */
type Started = { client: Client; tools: ListedTool[]; seconds: number } | { failure: string };

class StartFailure extends Error {}

export function createMcpTools(options: McpToolsOptions): McpTools {
  const connections: Connection[] = [];
  const startTimeoutMs = options.startTimeoutMs ?? defaultStartTimeoutMs;

  function stopIfClosed(connection: Connection): void {
    if (connection.closed) throw new StartFailure('the run ended while it started');
  }

  async function connect(server: McpServerConfig, connection: Connection): Promise<Client> {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const client = new Client({ name: 'steward', version: packageJson.version }, { capabilities: {} });
    let stderrTail = '';
    if (server.transport === 'stdio') {
      const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
      const treeId = randomUUID();
      const env: Record<string, string> = { ...agentEnvironment({ agent: server.env, envAllow: options.envAllow ?? [] }), PWD: options.workspaceDir, [treeMarker]: treeId };
      // Inside a sandbox a missing command is the shell's "not found": say it as spawn would.
      if (options.sandbox && findExecutable(server.command, env.PATH) === undefined) throw new StartFailure(notFound(server.command));
      // In a sandboxed run the server runs inside the run's sandbox, like every other process of it.
      const started = options.sandbox ? options.sandbox.wrap(server.command, server.args ?? [], env) : { command: server.command, args: server.args ?? [], env };
      const transport = new StdioClientTransport({ command: started.command, args: started.args, cwd: options.workspaceDir, env: started.env as Record<string, string>, stderr: 'pipe' });
      // Its stderr is drained (a full pipe would stall it) and its end kept for the reason it failed.
      transport.stderr?.on('data', (chunk: Buffer) => (stderrTail = (stderrTail + chunk.toString()).slice(-2_000)));
      stopIfClosed(connection);
      connection.transport = transport;
      connection.marker = `${treeMarker}=${treeId}`;
    } else {
      const headers: Record<string, string> = {};
      for (const [header, secret] of Object.entries(server.headers ?? {})) {
        const value = options.revealSecret(secret);
        if (value === undefined) throw new StartFailure(`no secret named ${secret} is stored (for its ${header} header)`);
        headers[header] = value;
        connection.secrets.push(value);
      }
      const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
      stopIfClosed(connection);
      connection.transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } });
    }
    connection.client = client;
    let exited = false;
    connection.transport.onclose = () => (exited = true); // the client chains its own after this one
    const connecting = client.connect(connection.transport, { signal: options.signal, timeout: startTimeoutMs });
    // A stdio server's process is spawned by now (connect starts the transport before its first await).
    const pid = (connection.transport as { pid?: number | null }).pid;
    if (connection.marker && pid) connection.tree = processTree({ pid, get exitCode() { return exited ? 0 : null; }, signalCode: null }, connection.marker);
    try {
      await connecting;
    } catch (error) {
      throw new StartFailure(startFailureText(server, error, stderrTail));
    }
    return client;
  }

  async function listTools(client: Client): Promise<ListedTool[]> {
    if (!client.getServerCapabilities()?.tools) return [];
    const tools: ListedTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < maxPages; page++) {
      const listed = await client.listTools(cursor === undefined ? undefined : { cursor }, { signal: options.signal, timeout: startTimeoutMs });
      tools.push(...listed.tools);
      cursor = listed.nextCursor;
      if (cursor === undefined) break;
    }
    return tools;
  }

  /** Connects to one server and lists its tools, within the start timeout. */
  async function startOne(server: McpServerConfig): Promise<Started> {
    const connection: Connection = { client: undefined, transport: undefined, tree: undefined, secrets: [], closed: false, closing: undefined };
    connections.push(connection);
    const startedAt = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new StartFailure(`it did not answer within ${startTimeoutMs / 1000} s`)), startTimeoutMs);
    });
    try {
      const client = await Promise.race([connect(server, connection), timeout]);
      const tools = await Promise.race([listTools(client), timeout]);
      return { client, tools, seconds: (Date.now() - startedAt) / 1000 };
    } catch (error) {
      await closeOne(connection, false);
      // A server may quote the request in its refusal: a secret sent in a header never reaches the transcript.
      const failure = connection.secrets.reduce((text, secret) => text.split(secret).join('[secret]'), error instanceof Error ? error.message : String(error));
      return { failure };
    } finally {
      clearTimeout(timer);
    }
  }

  function asTool(server: McpServerConfig, client: Client, tool: ListedTool, taken: Set<string>): Tool {
    return {
      name: mcpToolName(server.name, tool.name, taken),
      description: `MCP server ${server.name}: ${tool.description ?? tool.title ?? tool.name}`,
      parameters: tool.inputSchema,
      async run(args, context) {
        const result = (await client.callTool({ name: tool.name, arguments: args }, undefined, { signal: context.signal, timeout: callTimeoutMs })) as McpCallResult;
        const text = mcpResultText(result);
        if (result.isError) throw new ToolError(text);
        return text;
      },
    };
  }

  /** `graceful`: a server in use is let go (stdin closed, then signals); one that failed to start is ended at once. */
  function closeOne(connection: Connection, graceful = true): Promise<void> {
    connection.closed = true;
    connection.closing ??= (async () => {
      await connection.tree?.observe().catch(() => undefined);
      if (!graceful) await connection.tree?.end(1_000);
      const transport: (Transport & { terminateSession?: () => Promise<void> }) | undefined = connection.transport;
      // A session-keeping HTTP server is told the session ended, briefly: it may be gone already.
      if (transport?.terminateSession && transport.sessionId) await Promise.race([transport.terminateSession().catch(() => undefined), delay(1_000)]);
      await (connection.client ?? connection.transport)?.close().catch(() => undefined);
      await connection.tree?.end(1_000);
    })();
    return connection.closing;
  }

  return {
    async start() {
      const enabled = options.servers.filter((server) => server.enabled !== false);
      if (enabled.length === 0) return [];
      const started = await Promise.all(enabled.map(startOne));
      // Named and reported in list order, whatever order they answered in.
      const taken = new Set(options.reservedNames ?? []);
      return enabled.flatMap((server, index) => {
        const outcome = started[index];
        if (options.signal.aborted) return [];
        if ('failure' in outcome) {
          options.onEvent({ type: 'system', text: `MCP server ${server.name} could not start: ${outcome.failure}; the run goes on without its tools`, raw: { mcpServer: server.name, transport: server.transport, error: outcome.failure } });
          return [];
        }
        const tools = outcome.tools.map((tool) => asTool(server, outcome.client, tool, taken));
        const count = `${tools.length} ${tools.length === 1 ? 'tool' : 'tools'}`;
        options.onEvent({ type: 'system', text: `MCP server ${server.name}: ${count}`, raw: { mcpServer: server.name, transport: server.transport, tools: tools.map((tool) => tool.name), seconds: outcome.seconds } });
        return tools;
      });
    },
    async close() {
      await Promise.all(connections.map((connection) => closeOne(connection)));
    },
  };
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

function startFailureText(server: McpServerConfig, error: unknown, stderrTail: string): string {
  const code = (error as { code?: unknown }).code;
  if (server.transport === 'stdio' && code === 'ENOENT') return notFound(server.command);
  let message = error instanceof Error ? error.message : String(error);
  // The SDK's HTTP errors carry the status as their code, and not always in the message.
  if (server.transport === 'http' && typeof code === 'number' && code >= 400 && code <= 599) {
    message = `${server.url} answered HTTP ${code}${code === 401 || code === 403 ? ' (check the secret its headers name)' : ''}: ${message.replace(/^Streamable HTTP error: /, '')}`;
  }
  const lastLine = stderrTail.trim().split('\n').at(-1);
  return lastLine ? `${message} (its last stderr line: ${lastLine})` : message;
}

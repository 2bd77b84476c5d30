// `steward mcp`: Steward's MCP server over stdio, for clients that start a command. When a daemon
// answers on the port, its /mcp serves the calls (with STEWARD_API_KEY); otherwise this process
// opens the data folder itself, without listening and without its lock, as `keys` does. Lines that
// are not JSON-RPC messages are answered with the protocol's errors (mcp-stdio.ts).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createCore, version } from '../core';
import { createLogger } from '../core/logger';
import { createMcpServer } from '../core/mcp-server';
import { LineTransport } from './mcp-stdio';
import { daemonAnswers } from './daemon-answers';

/** Resolves when stdin closes: the client has gone. */
function untilStdinCloses(): Promise<void> {
  return new Promise((resolve) => process.stdin.once('close', resolve).once('end', resolve));
}

/** A stdio server that forwards tools/list and tools/call to the daemon's /mcp. */
async function proxy(baseUrl: string, key: string): Promise<void> {
  const upstream = new Client({ name: 'steward-mcp-stdio', version });
  await upstream.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  const server = new Server({ name: 'steward', version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, (request) => upstream.listTools(request.params));
  server.setRequestHandler(CallToolRequestSchema, (request) => upstream.callTool(request.params));
  await server.connect(new LineTransport());
  await untilStdinCloses();
  await server.close();
  await upstream.close();
}

export async function mcp(dataDir: string, port: number, apiKey: string | undefined): Promise<void> {
  const baseUrl = `http://127.0.0.1:${port}`;
  if (await daemonAnswers(baseUrl)) {
    if (!apiKey) throw new Error(`A Steward daemon answers on ${baseUrl}: set STEWARD_API_KEY to an API key of it (steward keys create --name NAME).`);
    return proxy(baseUrl, apiKey);
  }
  // Logs go to stderr (stdout is the protocol's channel).
  const core = await createCore({ dataDir, listen: false, logger: createLogger('warn') });
  try {
    const server = createMcpServer(core.dispatch);
    await server.connect(new LineTransport());
    await untilStdinCloses();
    await server.close();
  } finally {
    await core.close();
  }
}

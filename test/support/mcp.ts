// MCP servers for tests of the built-in agent's MCP client: where the official reference servers
// are, which of their processes this test process started (and whether they still run), and a
// small Streamable HTTP server on loopback that requires a bearer token and pages its tool list.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { root } from './processes';

export const everythingServer = path.join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const filesystemServer = path.join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

/** Children of this process whose command line contains `needle`, read from /proc (Linux). */
export function childPids(needle: string): number[] {
  const pids: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(ppid) !== process.pid || state === 'Z') continue;
      if (fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(needle)) pids.push(Number(name));
    } catch {
      // it ended meanwhile
    }
  }
  return pids;
}

/** Whether a process runs (a zombie does not count: it has ended, only its exit status is left). */
export function isRunning(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]);
  } catch {
    return false;
  }
}

export interface OrdersServer {
  url: string;
  /** The Authorization header of every request it received. */
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}

const tools = [
  { name: 'lookup_order', description: 'Where an order is', inputSchema: { type: 'object' as const, properties: { id: { type: 'string' } }, required: ['id'] } },
  { name: 'cancel_order', description: 'Cancel an order that has not shipped', inputSchema: { type: 'object' as const, properties: { id: { type: 'string' } }, required: ['id'] } },
];

function orders(): Server {
  const server = new Server({ name: 'orders', version: '1.0.0' }, { capabilities: { tools: {} } });
  // One tool per page: the client must follow nextCursor to see both.
  server.setRequestHandler(ListToolsRequestSchema, ({ params }) => {
    const page = params?.cursor === 'page-2' ? 1 : 0;
    return { tools: [tools[page]], ...(page === 0 ? { nextCursor: 'page-2' } : {}) };
  });
  server.setRequestHandler(CallToolRequestSchema, ({ params }): CallToolResult => {
    const id = String(params.arguments?.id);
    if (params.name === 'lookup_order') return { content: [{ type: 'text', text: `Order ${id}: shipped on 2026-11-20` }] };
    return { isError: true, content: [{ type: 'text', text: `Order ${id} has shipped; it cannot be cancelled.` }] };
  });
  return server;
}

/** A stateless Streamable HTTP MCP server on 127.0.0.1 that answers 401 (quoting the header) without `Authorization: Bearer <token>`. */
export async function startOrdersServer(token: string): Promise<OrdersServer> {
  const authorizations: (string | undefined)[] = [];
  const listener = http.createServer((request, response) => {
    authorizations.push(request.headers.authorization);
    if (request.headers.authorization !== `Bearer ${token}`) {
      // Careless servers quote what they refused: the client must not pass that on.
      response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'unauthorized', got: request.headers.authorization ?? null }));
      return;
    }
    const server = orders();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    void server.connect(transport).then(() => transport.handleRequest(request, response));
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const { port } = listener.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    authorizations,
    close: () => {
      listener.closeAllConnections();
      return new Promise((resolve) => listener.close(() => resolve()));
    },
  };
}

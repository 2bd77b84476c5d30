// The only ways out of a run's sandbox, served by Steward outside it: an HTTP proxy (CONNECT for
// TLS, absolute URLs for plain HTTP) that lets through the hosts the rules allow and refuses the
// rest with 403, telling the run what it refused; one plain forward per loopback port the rules
// name; and, for Steward's own port, a forward of /mcp alone. A name that resolves to the machine
// itself or to a link-local address (cloud metadata) is refused: DNS cannot open loopback.
import dns from 'node:dns/promises';
import http from 'node:http';
import net from 'node:net';
import { pipeline } from 'node:stream';
import { type NetworkRule, allows, forbiddenResolution, isLoopback, parseRule } from './network-rules';

export interface Denial {
  host: string;
  port: number;
  why: string;
}

export interface EgressOptions {
  rules: readonly NetworkRule[];
  /** Refused whatever `rules` say. */
  refused?: readonly NetworkRule[] | undefined;
  /** Steward's port on loopback: through it only /mcp is served. */
  stewardPort?: number | undefined;
  onDenied(denial: Denial): void;
}

/** Where each way out listens: a socket path (Linux, bridged into the sandbox) or 127.0.0.1's port (macOS). */
export type Listen = (server: net.Server, name: string) => void;

export interface Egress {
  close(): Promise<void>;
}

/** The address to dial for host:port, or why not. */
async function destination(host: string, port: number, rules: readonly NetworkRule[], refused: readonly NetworkRule[] = []): Promise<{ address: string } | { why: string }> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (allows(refused, bare, port)) return { why: "it is Steward's own trigger listener, which a run reaches only through Steward's tools (/mcp)" };
  if (!allows(rules, bare, port)) return { why: "it is not in this instance's network list" };
  if (isLoopback(bare)) return { address: bare === 'localhost' ? '127.0.0.1' : bare };
  if (net.isIP(bare)) return forbiddenResolution(bare) ? { why: 'link-local addresses are never reachable' } : { address: bare };
  try {
    const found = (await dns.lookup(bare, { all: true })).find((entry) => !forbiddenResolution(entry.address));
    return found ? { address: found.address } : { why: `${bare} resolves to this machine or a link-local address` };
  } catch (error) {
    return { why: `${bare} could not be resolved (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
}

/** Why a run may not fetch `url`, or undefined when it may (the built-in agent's http tool asks). */
export async function reachable(rules: readonly NetworkRule[], url: string, refused: readonly NetworkRule[] = []): Promise<string | undefined> {
  const target = new URL(url);
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  const found = await destination(target.hostname, port, rules, refused);
  return 'why' in found ? found.why : undefined;
}

function refuse(socket: net.Socket, status: string, text: string): void {
  socket.end(`HTTP/1.1 ${status}\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`);
}

const refusal = (host: string, port: number, why: string) => `Steward's sandbox refused ${host}:${port}: ${why}.\n`;

function proxyServer(options: EgressOptions, sockets: Set<net.Socket>): http.Server {
  const denied = (host: string, port: number, why: string) => options.onDenied({ host, port, why });
  const server = http.createServer((request, response) => void forward(request, response));
  async function forward(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(request.url ?? '');
      if (url.protocol !== 'http:') throw new Error('not http');
    } catch {
      response.writeHead(400, { 'content-type': 'text/plain' }).end("Steward's sandbox proxy takes absolute http:// URLs and CONNECT.\n");
      return;
    }
    const port = Number(url.port || 80);
    const host = url.hostname;
    const target = await destination(host, port, options.rules, options.refused);
    if ('why' in target) {
      denied(host, port, target.why);
      response.writeHead(403, { 'content-type': 'text/plain' }).end(refusal(host, port, target.why));
      return;
    }
    const headers: http.OutgoingHttpHeaders = { ...request.headers, host: url.host };
    delete headers['proxy-connection'];
    delete headers['proxy-authorization'];
    const upstream = http.request({ host: target.address, port, method: request.method, path: `${url.pathname}${url.search}`, headers });
    upstream.on('response', (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      pipeline(answer, response, () => undefined);
    });
    upstream.on('error', (error) => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`Steward's sandbox proxy could not reach ${host}:${port}: ${error.message}\n`);
    });
    pipeline(request, upstream, () => undefined);
  }
  server.on('connect', (request: http.IncomingMessage, client: net.Socket, head: Buffer) => void tunnel(request, client, head));
  async function tunnel(request: http.IncomingMessage, client: net.Socket, head: Buffer): Promise<void> {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    const rule = parseRule(request.url ?? '');
    if (!rule || rule.port === undefined) return refuse(client, '400 Bad Request', 'CONNECT takes host:port.\n');
    const target = await destination(rule.host, rule.port, options.rules, options.refused);
    if ('why' in target) {
      denied(rule.host, rule.port, target.why);
      return refuse(client, '403 Forbidden', refusal(rule.host, rule.port, target.why));
    }
    const upstream = net.connect(rule.port, target.address);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      pipeline(client, upstream, client, () => undefined);
    });
    upstream.once('error', (error) => refuse(client, '502 Bad Gateway', `Steward's sandbox proxy could not reach ${rule.host}:${rule.port}: ${error.message}\n`));
  }
  return server;
}

/** A plain forward to the machine's own port. */
function portForward(port: number, sockets: Set<net.Socket>): net.Server {
  return net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => client.destroy());
    }
    pipeline(client, upstream, client, () => undefined);
  });
}

/** Steward's port as a run sees it: /mcp, and nothing else of the API (the run's key opens only what it may anyway). */
function stewardForward(port: number): http.Server {
  return http.createServer((request, response) => {
    const pathname = (request.url ?? '').split('?')[0];
    if (pathname !== '/mcp') {
      response.writeHead(403, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { code: 'forbidden', message: 'Inside a sandbox, only Steward\'s /mcp is reachable.' } }));
      return;
    }
    const forward = http.request({ host: '127.0.0.1', port, method: request.method, path: request.url, headers: request.headers });
    forward.on('response', (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      pipeline(answer, response, () => undefined);
    });
    forward.on('error', () => response.destroy());
    pipeline(request, forward, () => undefined);
  });
}

/** Starts the ways out: `proxy`, and one per loopback port (`<port>`), each where `listen` puts it. */
export function openEgress(options: EgressOptions, ports: readonly number[], listen: Listen): Egress {
  const sockets = new Set<net.Socket>();
  const servers: net.Server[] = [];
  const proxy = proxyServer(options, sockets);
  listen(proxy, 'proxy');
  servers.push(proxy);
  for (const port of ports) {
    const server = port === options.stewardPort ? stewardForward(port) : portForward(port, sockets);
    server.on('connection', (socket: net.Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    listen(server, String(port));
    servers.push(server);
  }
  for (const server of servers) server.on('error', () => undefined);
  return {
    async close() {
      for (const socket of sockets) socket.destroy();
      for (const server of servers) if (server instanceof http.Server) server.closeAllConnections();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}

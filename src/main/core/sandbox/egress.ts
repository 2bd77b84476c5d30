// The only ways out of a run's sandbox, served by Steward outside it: an HTTP proxy (CONNECT for
// TLS, absolute URLs for plain HTTP) that lets through what the rules allow and refuses the rest
// with 403, telling the run what it refused; and one bridge per loopback port the rules name.
// Every one of them asks network-rules.ts (the proxy through `destination`) and connects to the
// address that was checked, never looking the name up again. Steward's own port, however it is reached (the bridge,
// CONNECT, an absolute URL, any spelling of this machine), goes to one gate that serves /mcp alone.
import dns from 'node:dns';
import http from 'node:http';
import net from 'node:net';
import { pipeline } from 'node:stream';
import { bareHost, parseAddress } from '../../../shared/addresses';
import { type Reach, type Request, type Verdict, nameVerdict, parseRule, verdict } from './network-rules';

export interface Denial {
  /** As the run asked for it, without brackets. */
  host: string;
  port: number;
  why: string;
  /** The entry of the instance's network list that would allow it; absent when nothing would. */
  allow?: string | undefined;
}

export interface EgressOptions extends Reach {
  onDenied(denial: Denial): void;
}

/** Where each way out listens: a socket path (Linux, bridged into the sandbox) or 127.0.0.1's port (macOS). */
export type Listen = (server: net.Server, name: string) => void;

export interface Egress {
  close(): Promise<void>;
}

/** Where a connection to host:port may go: its name looked up once, each address it resolved to judged; the first allowed wins. */
export async function destination(request: Request, reach: Reach): Promise<Verdict> {
  const decided = nameVerdict(request, reach);
  if (decided) return decided;
  let found: dns.LookupAddress[];
  try {
    found = await dns.promises.lookup(bareHost(request.host), { all: true, verbatim: true });
  } catch (error) {
    return { refused: `it could not be resolved (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  const verdicts = found.map((entry) => parseAddress(entry.address)).filter((address) => address !== undefined).map((address) => verdict(request, address, reach));
  return verdicts.find((each) => 'to' in each && each.to === 'address') ?? verdicts.find((each) => 'to' in each) ?? verdicts[0] ?? { refused: 'it resolved to no address' };
}

/** The host and port of an http(s) URL, as a request. */
export function requestOf(url: URL): Request {
  return { host: bareHost(url.hostname), port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)) };
}

/** The body of a 403: what was refused, why, and the fix when one would work (an agent reads it). */
const refusal = (request: Request, refused: Extract<Verdict, { refused: string }>) =>
  `Steward's sandbox refused ${request.host.includes(':') ? `[${request.host}]` : request.host}:${request.port}: ${refused.refused}.${refused.allow ? ` To allow it, add ${refused.allow} to the instance's sandbox network.` : ''}\n`;

function refuseSocket(socket: net.Socket, status: string, text: string): void {
  socket.end(`HTTP/1.1 ${status}\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`);
}

/** Keeps every socket of the ways out, to end them all when the run does. */
function track(sockets: Set<net.Socket>, socket: net.Socket): void {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
  socket.on('error', () => undefined);
}

/** Passes a request on to `port` at `address` and its answer back. */
function forwardTo(address: string, port: number, path: string, request: http.IncomingMessage, response: http.ServerResponse, headers: http.OutgoingHttpHeaders): void {
  const upstream = http.request({ host: address, port, method: request.method, path, headers });
  upstream.on('response', (answer) => {
    response.writeHead(answer.statusCode ?? 502, answer.headers);
    pipeline(answer, response, () => undefined);
  });
  upstream.on('error', (error) => {
    if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
    response.end(`Steward's sandbox proxy could not reach port ${port}: ${error.message}\n`);
  });
  pipeline(request, upstream, () => undefined);
}

/** The one path of Steward's API a sandboxed run reaches: its MCP server. `path` may carry a query. */
export const stewardServes = (path: string): boolean => path.split('?')[0] === '/mcp';

/**
 * Steward's port as a run sees it, whichever way it came: /mcp, and nothing else of the API (the
 * run's key opens only what it may anyway). `path` is the request's path and query as the way in
 * read it: the request line for the bridge and a CONNECT tunnel, the absolute URL's for the proxy.
 */
function serveSteward(stewardPort: number, path: string, request: http.IncomingMessage, response: http.ServerResponse): void {
  if (!stewardServes(path)) {
    response.writeHead(403, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { code: 'forbidden', message: "Inside a sandbox, only Steward's /mcp is reachable." } }));
    return;
  }
  forwardTo('127.0.0.1', stewardPort, path, request, response, request.headers);
}

function proxyServer(options: EgressOptions, gate: http.Server | undefined, sockets: Set<net.Socket>): http.Server {
  const denied = (request: Request, refused: Extract<Verdict, { refused: string }>) => options.onDenied({ host: request.host, port: request.port, why: refused.refused, ...(refused.allow === undefined ? {} : { allow: refused.allow }) });
  const server = http.createServer((request, response) => void forward(request, response).catch(() => response.destroy()));
  async function forward(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(request.url ?? '');
      if (url.protocol !== 'http:') throw new Error('not http');
    } catch {
      response.writeHead(400, { 'content-type': 'text/plain' }).end("Steward's sandbox proxy takes absolute http:// URLs and CONNECT.\n");
      return;
    }
    const wanted = requestOf(url);
    const target = await destination(wanted, options);
    const path = `${url.pathname}${url.search}`;
    if ('refused' in target) {
      denied(wanted, target);
      response.writeHead(403, { 'content-type': 'text/plain' }).end(refusal(wanted, target));
    } else if (target.to === 'steward') {
      serveSteward(options.stewardPort!, path, request, response);
    } else {
      const headers: http.OutgoingHttpHeaders = { ...request.headers, host: url.host };
      delete headers['proxy-connection'];
      delete headers['proxy-authorization'];
      forwardTo(target.address, wanted.port, path, request, response, headers);
    }
  }
  server.on('connect', (request: http.IncomingMessage, client: net.Socket, head: Buffer) => void tunnel(request, client, head).catch(() => client.destroy()));
  async function tunnel(request: http.IncomingMessage, client: net.Socket, head: Buffer): Promise<void> {
    track(sockets, client);
    const rule = parseRule(request.url ?? '');
    // A port out of range would make net.connect throw: refused here, not left to take the process down.
    if (!rule || rule.port === undefined || rule.port < 1 || rule.port > 65535 || rule.host.includes('*')) return refuseSocket(client, '400 Bad Request', 'CONNECT takes host:port.\n');
    const wanted = { host: rule.host, port: rule.port };
    const target = await destination(wanted, options);
    if ('refused' in target) {
      denied(wanted, target);
      return refuseSocket(client, '403 Forbidden', refusal(wanted, target));
    }
    if (target.to === 'steward') {
      // The tunnel's bytes are read as HTTP by the gate: /mcp alone, as through the bridge.
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) client.unshift(head);
      gate?.emit('connection', client);
      return;
    }
    const upstream = net.connect(wanted.port, target.address);
    track(sockets, upstream);
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      pipeline(client, upstream, client, () => undefined);
    });
    upstream.once('error', (error) => refuseSocket(client, '502 Bad Gateway', `Steward's sandbox proxy could not reach ${rule.host}:${rule.port}: ${error.message}\n`));
  }
  return server;
}

/** A plain forward to the machine's own port. */
function portForward(port: number, sockets: Set<net.Socket>): net.Server {
  return net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    for (const socket of [client, upstream]) {
      track(sockets, socket);
      socket.on('error', () => client.destroy());
    }
    pipeline(client, upstream, client, () => undefined);
  });
}

/** Starts the ways out: `proxy`, and one per loopback port (`<port>`), each where `listen` puts it. */
export function openEgress(options: EgressOptions, ports: readonly number[], listen: Listen): Egress {
  const sockets = new Set<net.Socket>();
  const servers: net.Server[] = [];
  const stewardPort = options.stewardPort;
  const gate = stewardPort === undefined ? undefined : http.createServer((request, response) => serveSteward(stewardPort, request.url ?? '', request, response));
  gate?.on('connection', (socket: net.Socket) => track(sockets, socket));
  const proxy = proxyServer(options, gate, sockets);
  listen(proxy, 'proxy');
  servers.push(proxy);
  for (const port of ports) {
    // The bridge asks what the proxy asks: is 127.0.0.1 at this port Steward?
    const bridged = verdict({ host: '127.0.0.1', port }, parseAddress('127.0.0.1')!, options);
    const server = 'to' in bridged && bridged.to === 'steward' ? gate! : portForward(port, sockets);
    server.on('connection', (socket: net.Socket) => track(sockets, socket));
    listen(server, String(port));
    servers.push(server);
  }
  for (const server of servers) server.on('error', () => undefined);
  return {
    async close() {
      for (const socket of sockets) socket.destroy();
      for (const server of [...servers, ...(gate ? [gate] : [])]) if (server instanceof http.Server) server.closeAllConnections();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}

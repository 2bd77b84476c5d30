// Connections a client may hold: a cap per client address (answered 429 before any request is read),
// and what a request that stalls gets when Node's request timeout closes it (408, in the API's error
// shape). Node itself enforces the timeout (requestTimeout, checked every requestCheckMs); this
// module only says how the answer reads, and lets the trigger route tell a timeout from a reset.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { AppError } from '../../../shared/errors';

/** Sockets closed because their request stalled: their body reader fails with request_timeout, not invalid_body. */
const timedOut = new WeakSet<Socket>();

export const requestTimedOut = (socket: Socket): boolean => timedOut.has(socket);

export function timeoutError(): AppError {
  return new AppError('request_timeout', 'The request did not arrive in time: its headers or body stalled. Send it again, whole.');
}

/** A whole HTTP/1.1 answer written straight to a socket that no request handler owns. */
function rawAnswer(error: AppError): string {
  const body = JSON.stringify(error.toBody());
  const reason = { 400: 'Bad Request', 408: 'Request Timeout', 429: 'Too Many Requests' }[error.status] ?? 'Error';
  const headers = Object.entries(error.headers ?? {}).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return `HTTP/1.1 ${error.status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${headers}Connection: close\r\n\r\n${body}`;
}

/** Fastify's clientErrorHandler: Node's client errors (a stalled request, a malformed one) in our error shape. */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const known =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? timeoutError()
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? new AppError('invalid_body', 'The request headers are too large.')
        : new AppError('invalid_body', 'The request is not valid HTTP.');
  if (known.code === 'request_timeout') timedOut.add(socket);
  // An answer already under way cannot be replaced by another.
  const answering = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (socket.writable && !answering) socket.write(rawAnswer(known));
  socket.destroy(error);
}

/**
 * At most `max` open connections per client address. A connection over the cap is answered 429
 * and closed before Node's HTTP parser sees it, so no request on it reaches a route.
 */
export function limitConnectionsPerClient(server: Server, max: number): void {
  const open = new Map<string, number>();
  // Node's HTTP server handles a connection in its own 'connection' listener: those run only for accepted ones.
  const handlers = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    const client = socket.remoteAddress ?? 'unknown';
    const count = open.get(client) ?? 0;
    if (count >= max) return refuse(socket, max);
    open.set(client, count + 1);
    socket.once('close', () => {
      const left = (open.get(client) ?? 1) - 1;
      if (left > 0) open.set(client, left);
      else open.delete(client);
    });
    for (const handle of handlers) handle.call(server, socket);
  });
}

function refuse(socket: Socket, max: number): void {
  const error = new AppError('too_many_connections', `This client has ${max} connections open, as many as Steward takes from one address: close some, or reuse them (keep-alive).`, {
    headers: { 'Retry-After': '1' },
  });
  socket.on('error', () => undefined);
  // Read and discard what the client still sends, so that closing does not reset the answer away (lingering-close.ts).
  socket.resume();
  socket.end(rawAnswer(error));
  const timer = setTimeout(() => socket.destroy(), 2_000);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', () => socket.destroy());
}

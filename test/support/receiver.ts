// A loopback HTTP receiver for outbound notifications: records every request (headers and raw
// body) and answers as the test says; listens on 127.0.0.1 on a port it picks; the test closes it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from './wait';

export interface Received {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** `null`: never answer (a receiver that hangs). */
export type Answer = { status: number; body?: string } | null;

export interface Receiver {
  url: string;
  received: Received[];
  /** Resolves once `count` requests arrived (bounded wait). */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(answer: (request: Received, index: number) => Answer = () => ({ status: 200, body: 'ok' })): Promise<Receiver> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]));
      const request = { method: req.method ?? '', path: req.url ?? '', headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(request);
      const reply = answer(request, received.length - 1);
      if (reply === null) return;
      res.writeHead(reply.status, { 'content-type': 'text/plain' }).end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    async waitFor(count, timeoutMs = 10_000) {
      await waitFor(() => received.length, { what: `the receiver to get ${count} requests`, timeoutMs, intervalMs: 10, until: (got) => got >= count });
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

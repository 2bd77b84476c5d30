// HTTP over a bare TCP socket, for what fetch will not do: send half a request and stall, hold a
// connection open without a request, or stop reading a response while the server keeps writing.
import net from 'node:net';

export interface RawConnection {
  socket: net.Socket;
  /** Everything received so far. */
  received(): Buffer;
  /** Resolves with everything received once the server has closed the connection. */
  closed: Promise<Buffer>;
  /** Resolves once `text` has been received. */
  until(text: string): Promise<void>;
}

/** Connects to `url`'s host and port and writes `request` (a head and maybe part of a body). */
export async function rawConnect(url: string, request = ''): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const socket = net.connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const chunks: Buffer[] = [];
  const waiters: (() => void)[] = [];
  socket.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    for (const wake of waiters.splice(0)) wake();
  });
  // A reset after the answer is a close like any other here.
  socket.on('error', () => undefined);
  const closed = new Promise<Buffer>((resolve) => socket.once('close', () => {
    for (const wake of waiters.splice(0)) wake();
    resolve(Buffer.concat(chunks));
  }));
  if (request !== '') socket.write(request);
  return {
    socket,
    received: () => Buffer.concat(chunks),
    closed,
    async until(text) {
      while (!Buffer.concat(chunks).includes(text)) {
        if (socket.destroyed) throw new Error(`closed before "${text}" arrived: ${Buffer.concat(chunks).toString().slice(0, 300)}`);
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
}

/** The JSON body of a raw HTTP/1.1 answer (no chunked encoding). */
export function bodyOf(answer: Buffer): unknown {
  const text = answer.toString();
  return JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
}

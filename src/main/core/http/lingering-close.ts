// Lingering close, as nginx does it: after answering a request whose body is still arriving (a
// 413), half-close the connection and read and discard what the sender still sends, for a
// bounded time and size, before closing it.
//
// Why: Node answers `Connection: close` with socket.destroySoon(), which closes the socket as soon
// as the answer is written. A socket closed with unread data in it makes the kernel send a TCP
// reset, and a reset makes the sender's kernel drop whatever it had not read yet: a sender still
// busy writing a 5 MB body loses the 413 and sees "connection reset" instead.
import type { IncomingMessage } from 'node:http';

const lingerMs = 2_000;
const lingerBytes = 8 * 1024 * 1024;

/** Makes the close that follows this request's answer a lingering one. */
export function lingerOnClose(request: IncomingMessage): void {
  const socket = request.socket;
  if (request.complete || socket.destroyed) return;
  // destroySoon is what Node's HTTP server calls once a `Connection: close` answer is written.
  socket.destroySoon = function lingeringDestroySoon(this: typeof socket) {
    if (this.writable) this.end();
    let drained = 0;
    const close = () => {
      clearTimeout(timer);
      this.destroy();
    };
    const timer = setTimeout(close, lingerMs);
    timer.unref();
    // The HTTP parser still owns the socket and feeds what arrives to the request: read that.
    request.removeAllListeners('data');
    request.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > lingerBytes) close();
    });
    request.once('end', close);
    request.once('error', close);
    this.once('end', close);
    this.once('close', () => clearTimeout(timer));
    request.resume();
  };
}

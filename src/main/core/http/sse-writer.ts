// One event stream's writer with a bounded backlog. What the reader has not taken yet (Node's
// buffers of the response and its socket, and what waits for the next write) may grow to
// `maxBufferedBytes`; past that, or when it has not drained at all between two heartbeats (the
// kernel's socket buffers, invisible here, are full), the reader has fallen behind: it is sent one
// `overflow` event and closed, rather than the daemon holding every event for a reader that never
// reads (a frozen tab, a stalled client) until memory runs out. Events written in the same turn of
// the event loop go out as one write: a burst of lines costs each stream one system call.
import type { ServerResponse } from 'node:http';
import type { LiveEvent } from '../services/live-events';

/** After `overflow`, the reader has this long to take what is buffered (the event last) before the socket is destroyed with it. */
const overflowGraceMs = 2_000;

// Every stream gets the same text for the same event: framed once, whatever the number of readers.
const framed = new WeakMap<LiveEvent, string>();

/** An event as SSE text; `activity` carries its sequence number as the id (Last-Event-ID resumes from it). */
export function frame(event: LiveEvent): string {
  let text = framed.get(event);
  if (text !== undefined) return text;
  if (event.type === 'activity') text = `id: ${event.seq}\nevent: activity\ndata: ${JSON.stringify({ seq: event.seq, ...event.event })}\n\n`;
  else if (event.type === 'run') text = `event: run\ndata: ${JSON.stringify(event.run)}\n\n`;
  else if (event.type === 'instance') text = `event: instance\ndata: ${JSON.stringify(event.instance)}\n\n`;
  else text = `event: changed\ndata: ${JSON.stringify({ resource: event.resource, id: event.id, ...(event.location ? { location: event.location } : {}) })}\n\n`;
  framed.set(event, text);
  return text;
}

export const named = (name: string, data: unknown, id?: number): string => `${id === undefined ? '' : `id: ${id}\n`}event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

export interface SseWriter {
  /** Queues `text` unless the stream has ended; false once it has (overflowed or closed). */
  write(text: string): boolean;
  /** Called at each heartbeat: a backlog that has not drained since the last one is a reader that stopped. */
  checkStalled(): void;
  /** Ends the stream now, `event` last (its credential was revoked, say), and closes its connection. */
  finish(event: string): void;
  readonly ended: boolean;
}

export function createSseWriter(out: ServerResponse, maxBufferedBytes: number, onEnd: () => void): SseWriter {
  let ended = false;
  let pending: string[] = [];
  let pendingBytes = 0;
  let flushing: NodeJS.Immediate | undefined;
  let behindAtLastCheck = false;
  let drained = false;
  out.on('drain', () => (drained = true));

  const end = () => {
    if (ended) return;
    ended = true;
    if (flushing) clearImmediate(flushing);
    pending = [];
    onEnd();
  };
  out.on('close', end);

  function flush(): void {
    flushing = undefined;
    if (ended || pending.length === 0) return;
    const text = pending.length === 1 ? pending[0] : pending.join('');
    pending = [];
    pendingBytes = 0;
    out.write(text);
  }

  /** Ends the stream with `event` last (after what waits, when `keepPending`), and then its connection. */
  function endWith(event: string, keepPending: boolean): void {
    const waiting = keepPending ? pending.join('') : '';
    end();
    // The connection closes too once the reader has what was written: it is not kept alive for
    // another request. (A finished response has let go of its socket: hold it here.)
    const socket = out.socket;
    out.end(waiting + event, () => socket?.end());
    const timer = setTimeout(() => socket?.destroy(), overflowGraceMs);
    timer.unref();
    socket?.once('close', () => clearTimeout(timer));
  }

  function overflow(why: string): void {
    endWith(named('overflow', { reason: `${why}; reconnect and reload what is shown`, bufferedBytes: out.writableLength }), false);
  }

  return {
    write(text) {
      if (ended) return false;
      // Judged on what already waits, not on the new event: a reader that keeps up takes any one
      // event, however large (an agent's tool output), and a backlog stays under the limit plus one.
      if (out.writableLength + pendingBytes > maxBufferedBytes) {
        overflow(`the client fell more than ${maxBufferedBytes} bytes behind`);
        return false;
      }
      pending.push(text);
      pendingBytes += text.length;
      flushing ??= setImmediate(flush);
      return true;
    },
    checkStalled() {
      if (ended) return;
      const behind = out.writableLength > 0;
      if (behind && behindAtLastCheck && !drained) overflow('the client has read nothing since the last heartbeat');
      behindAtLastCheck = behind;
      drained = false;
    },
    finish(event) {
      if (!ended) endWith(event, true);
    },
    get ended() {
      return ended;
    },
  };
}

// A small EventSource over fetch, for the renderer's stream handling under Node: it sends headers
// (the API key), resumes with Last-Event-ID after a dropped stream as a browser does, gives up on a
// refusal (readyState CLOSED), and can stop reading, as a frozen tab does. (.tsx: the web tsconfig,
// which has the DOM's types, checks it.)
import type { EventSourceLike } from '../../src/renderer/src/lib/api';

type Listener = (message: MessageEvent<string>) => void;

export class FetchEventSource implements EventSourceLike {
  readyState = 0;
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly controller = new AbortController();
  private lastEventId = '';
  private retryMs = 2_000;
  private paused: Promise<void> | undefined;
  private unpause: (() => void) | undefined;

  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string>,
  ) {
    void this.connect();
  }

  addEventListener(type: string, listener: Listener): void {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)!.add(listener);
  }

  close(): void {
    this.readyState = 2;
    this.controller.abort();
  }

  /** Stops reading the stream (the server's writes pile up) until resume(). */
  pause(): void {
    this.paused ??= new Promise((resolve) => (this.unpause = resolve));
  }

  resume(): void {
    this.unpause?.();
    this.paused = undefined;
  }

  private dispatch(type: string, data = ''): void {
    for (const listener of this.listeners.get(type) ?? []) listener({ data, lastEventId: this.lastEventId } as MessageEvent<string>);
  }

  private async connect(): Promise<void> {
    let response: Response;
    try {
      response = await fetch(this.url, { headers: { ...this.headers, ...(this.lastEventId ? { 'last-event-id': this.lastEventId } : {}) }, signal: this.controller.signal });
    } catch {
      return this.dropped();
    }
    if (this.readyState === 2) return;
    if (!response.ok || !response.body) {
      this.readyState = 2;
      this.dispatch('error');
      return;
    }
    this.readyState = 1;
    this.dispatch('open');
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        if (this.paused) await this.paused;
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let type = 'message';
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) type = line.slice(7);
            else if (line.startsWith('data: ')) data += line.slice(6);
            else if (line.startsWith('id: ')) this.lastEventId = line.slice(4);
            else if (line.startsWith('retry: ')) this.retryMs = Number(line.slice(7));
          }
          if (data !== '' && this.readyState === 1) this.dispatch(type, data);
        }
      }
    } catch {
      // aborted, or the connection dropped
    }
    this.dropped();
  }

  private dropped(): void {
    if (this.readyState === 2) return;
    this.readyState = 0;
    this.dispatch('error');
    setTimeout(() => {
      if (this.readyState !== 2) void this.connect();
    }, this.retryMs);
  }
}

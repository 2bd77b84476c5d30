// Reads a text/event-stream body into events, by the lines and fields of the WHATWG format: a line
// ends at CRLF, LF or CR (a CRLF split across two chunks is one line end), a leading BOM is
// dropped, a line starting with `:` is a comment, a blank line ends an event. Of the fields it keeps
// `event` (`message` when absent or empty), `data` (lines joined with LF) and `id`, told with the
// event that carries it only (no last-event-ID is carried over: the follower resumes by cursors,
// not by Last-Event-ID); `retry` and unknown fields are ignored, as is an event without data.

export interface StreamEvent {
  event: string;
  data: string;
  id: string | undefined;
}

/**
 * Reads until the body ends (resolves), fails, or `signal` aborts (rejects with its reason). On
 * every way out the body is cancelled: a reader that stops early does not leave the socket open.
 */
export async function readEventStream(body: ReadableStream<Uint8Array>, onEvent: (event: StreamEvent) => void, signal?: AbortSignal): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  /** The last chunk ended with CR: an LF opening the next one belongs to it. */
  let afterCr = false;
  let event = '';
  let data: string[] = [];
  let id: string | undefined;

  const line = (text: string) => {
    if (text === '') {
      if (data.length > 0) onEvent({ event: event || 'message', data: data.join('\n'), id });
      event = '';
      data = [];
      id = undefined;
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    const value = colon === -1 ? '' : text.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) id = value;
  };

  const feed = (text: string) => {
    if (text === '') return;
    if (afterCr && text.startsWith('\n')) text = text.slice(1);
    afterCr = false;
    buffer += text;
    let end: number;
    while ((end = buffer.search(/[\r\n]/)) !== -1) {
      if (buffer[end] === '\r' && end === buffer.length - 1) afterCr = true;
      const newline = buffer[end] === '\r' && buffer[end + 1] === '\n' ? 2 : 1;
      line(buffer.slice(0, end));
      buffer = buffer.slice(end + newline);
    }
  };

  const cancel = () => void reader.cancel(signal?.reason).catch(() => {});
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    signal?.throwIfAborted();
    for (;;) {
      const { value, done } = await reader.read();
      signal?.throwIfAborted();
      if (done) return;
      feed(decoder.decode(value, { stream: true }));
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
    await reader.cancel().catch(() => {});
  }
}

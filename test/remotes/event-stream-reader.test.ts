// The event-stream reader on bodies cut where a network may cut them: a line end split across two
// chunks, a character split across two, every way of ending a line; and its ownership of the body.
import { describe, expect, it } from 'vitest';
import { type StreamEvent, readEventStream } from '../../src/main/core/remotes/event-stream-reader';

const bytes = (text: string) => new TextEncoder().encode(text);

/** A body that sends these chunks, then ends (or stays open when `open`). */
function body(chunks: Uint8Array[], open = false): { stream: ReadableStream<Uint8Array>; cancelled: () => boolean } {
  let cancelled = false;
  let index = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (index < chunks.length) controller.enqueue(chunks[index++]);
      else if (!open) controller.close();
      else return new Promise<void>(() => {});
      return undefined;
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, cancelled: () => cancelled };
}

async function read(chunks: Uint8Array[]): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  await readEventStream(body(chunks).stream, (event) => events.push(event));
  return events;
}

describe('readEventStream', () => {
  it('reads a CRLF split across two chunks as one line end, not two', async () => {
    // Two line ends would end the event at the CR, before its data: `data: b` would be a second event.
    const events = await read([bytes('event: run\r'), bytes('\ndata: a\r'), bytes('\ndata: b\r\n\r'), bytes('\n')]);
    expect(events).toEqual([{ event: 'run', data: 'a\nb', id: undefined }]);
  });

  it('reads CR, LF and CRLF line ends alike, wherever the chunks are cut', async () => {
    const text = 'id: 7\r\nevent: activity\rdata: {"x":1}\n\n: a comment\r\ndata: second\r\rdata: third\n\n';
    const whole = await read([bytes(text)]);
    expect(whole).toEqual([
      { event: 'activity', data: '{"x":1}', id: '7' },
      { event: 'message', data: 'second', id: undefined },
      { event: 'message', data: 'third', id: undefined },
    ]);
    for (let cut = 1; cut < text.length; cut++) {
      expect(await read([bytes(text.slice(0, cut)), bytes(text.slice(cut))]), `cut at ${cut}`).toEqual(whole);
    }
    // One byte at a time.
    expect(await read([...bytes(text)].map((byte) => new Uint8Array([byte])))).toEqual(whole);
  });

  it('keeps a character split across chunks whole, and drops a leading BOM', async () => {
    const encoded = bytes('\uFEFFdata: café ☕\n\n');
    expect(await read([encoded.slice(0, 10), encoded.slice(10, 13), encoded.slice(13)])).toEqual([{ event: 'message', data: 'café ☕', id: undefined }]);
  });

  it('cancels the body when its signal aborts, and when the handler throws', async () => {
    const open = body([bytes('data: one\n\n')], true);
    const controller = new AbortController();
    const reading = readEventStream(open.stream, () => controller.abort(new Error('enough')), controller.signal);
    await expect(reading).rejects.toThrow('enough');
    expect(open.cancelled()).toBe(true);

    const failing = body([bytes('data: one\n\n')], true);
    await expect(
      readEventStream(failing.stream, () => {
        throw new Error('bad event');
      }),
    ).rejects.toThrow('bad event');
    expect(failing.cancelled()).toBe(true);
  });
});

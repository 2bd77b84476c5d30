// GET /api/events under pressure: a reader that stops reading while lines pour in is sent one
// `overflow` event and closed once its backlog passes the buffer limit (the daemon does not hold
// every event for it); heartbeats come while nothing happens; a key holds at most so many streams
// (429 too_many_streams, in the error shape); a resume that would replay more than the buffer
// holds is a `reset`. Limits are shortened here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultHttpLimits } from '../../src/main/core/http/limits';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { type TestCore, startTestCore } from '../support/core';
import { rawConnect } from '../support/raw-http';
import { quietFor } from '../support/wait';

const limits = { ...defaultHttpLimits, streamBufferBytes: 64 * 1024, heartbeatMs: 100, streamsPerCredential: 2 };
let t: TestCore;
let instanceId: string;
beforeAll(async () => {
  t = await startTestCore({ clock: systemClock, httpLimits: limits });
  instanceId = (await t.api('GET', '/api/instances')).body.instances[0].id;
});
afterAll(() => t.close());

const streamRequest = (key: string, extra = '') => `GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n${extra}\r\n`;

/** `count` activity lines of `size` characters each, committed at once. */
function pour(count: number, size: number): void {
  const text = 'x'.repeat(size);
  t.core.store.transaction(() => {
    for (let n = 0; n < count; n++) {
      t.core.store.activity.append({ instanceId, runId: null, kind: 'assistant', label: '', displayText: `${n} ${text}`, raw: '{}', timestamp: new Date().toISOString() });
    }
  });
}

describe('the event stream', () => {
  it('sends heartbeats while nothing happens', async () => {
    const stream = await rawConnect(t.url, streamRequest(t.key));
    await stream.until('event: heartbeat\ndata: {}\n\n');
    stream.socket.destroy();
  });

  it('sends a reader that stops reading one overflow event and closes it, instead of buffering everything', async () => {
    const stream = await rawConnect(t.url, streamRequest(t.key));
    await stream.until(': connected');
    stream.socket.pause();
    // 30 MB: more than the kernel's socket buffers on both ends and the stream's own 64 KiB.
    const total = 3_000 * 10_000;
    pour(3_000, 10_000);
    stream.socket.resume();
    const everything = (await stream.closed).toString();
    expect(everything.match(/event: overflow\n/g)).toHaveLength(1);
    const overflow = everything.slice(everything.indexOf('event: overflow\n'));
    expect(JSON.parse(overflow.split('\n')[1].slice('data: '.length))).toMatchObject({ reason: expect.stringContaining('fell') });
    // No event comes after it (the chunked encoding's end does), and far from every line was kept for this reader.
    expect(overflow.slice(overflow.indexOf('\n\n') + 2)).not.toContain('event:');
    expect(everything.length).toBeLessThan(total / 2);
  });

  it('gives a reader that keeps up any one event, however much larger than the buffer', async () => {
    const stream = await rawConnect(t.url, streamRequest(t.key));
    await stream.until(': connected');
    pour(1, 3 * limits.streamBufferBytes);
    await stream.until('"runId":null}\n\n');
    expect(stream.received().toString()).not.toContain('event: overflow');
    stream.socket.destroy();
  });

  it('closes a reader that has read nothing between two heartbeats, however roomy its buffer', async () => {
    const roomy = await startTestCore({ clock: systemClock, httpLimits: { ...limits, streamBufferBytes: 256 * 1024 * 1024 } });
    try {
      const stream = await rawConnect(roomy.url, streamRequest(roomy.key));
      await stream.until(': connected');
      stream.socket.pause();
      // More than the kernel's socket buffers take: the rest waits in the daemon, and does not drain.
      const text = 'y'.repeat(10_000);
      const target = (await roomy.api('GET', '/api/instances')).body.instances[0].id as string;
      roomy.core.store.transaction(() => {
        for (let n = 0; n < 3_000; n++) roomy.core.store.activity.append({ instanceId: target, runId: null, kind: 'assistant', label: '', displayText: text, raw: '{}', timestamp: new Date().toISOString() });
      });
      // Two heartbeats later (100 ms each) it is closed; reading now shows why. A bounded wait, not
      // an event: the reader is paused on purpose, so it cannot see the close until it reads.
      await quietFor(500);
      stream.socket.resume();
      const everything = (await stream.closed).toString();
      expect(everything).toContain('event: overflow\n');
      expect(everything).toContain('read nothing since the last heartbeat');
    } finally {
      await roomy.close();
    }
  });

  it('serves a key at most streamsPerCredential streams at once: the next is 429 too_many_streams', async () => {
    const first = await rawConnect(t.url, streamRequest(t.key));
    const second = await rawConnect(t.url, streamRequest(t.key));
    await Promise.all([first.until(': connected'), second.until(': connected')]);
    const refused = await t.api('GET', '/api/events');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.body.error).toMatchObject({ code: 'too_many_streams', message: expect.stringContaining('at most 2') });
    // Another key is not held to this key's streams.
    const { key: other } = t.core.services.apiKeys.create('other reader', 'read');
    const third = await rawConnect(t.url, streamRequest(other));
    await third.until(': connected');
    // A closed stream frees its place.
    first.socket.destroy();
    await expect.poll(async () => (await rawConnect(t.url, streamRequest(t.key))).until(': connected').then(() => 'open', () => 'refused')).toBe('open');
    for (const stream of [second, third]) stream.socket.destroy();
  });

  it('answers a resume that would replay more than the buffer holds with reset', async () => {
    const from = t.core.services.live.lastSeq();
    pour(10, 10_000);
    const stream = await rawConnect(t.url, streamRequest(t.key, `Last-Event-ID: ${from}\r\n`));
    await stream.until('event: reset\n');
    expect(stream.received().toString()).not.toContain('event: activity');
    stream.socket.destroy();
  });
});

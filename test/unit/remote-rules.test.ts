// The rules under remotes: which addresses may be followed, how an event stream is read whatever
// its chunking, and how a kept copy of a remote's lines takes lines (in order, never twice, a gap
// only when the remote itself no longer has the missing lines).
import { afterEach, describe, expect, it } from 'vitest';
import { RemoteCreate, remoteUrlProblem } from '../../src/shared/contract';
import { readEventStream } from '../../src/main/core/remotes/event-stream-reader';
import { tempStore } from '../support/core';

describe('a remote URL', () => {
  it('is https anywhere, or http on loopback only', () => {
    expect(remoteUrlProblem('https://steward.example.com')).toBeUndefined();
    expect(remoteUrlProblem('https://box.tail1234.ts.net:8443/steward')).toBeUndefined();
    expect(remoteUrlProblem('http://127.0.0.1:7321')).toBeUndefined();
    expect(remoteUrlProblem('http://localhost:7321')).toBeUndefined();
    expect(remoteUrlProblem('http://[::1]:7321')).toBeUndefined();
    expect(remoteUrlProblem('http://192.168.1.20:7321')).toMatch(/https:\/\/ for 192\.168\.1\.20.*loopback/);
    expect(remoteUrlProblem('ftp://example.com')).toMatch(/https:\/\//);
    expect(remoteUrlProblem('https://me:secret@example.com')).toMatch(/user name or password/);
    expect(remoteUrlProblem('https://example.com/?key=x')).toMatch(/query/);
    expect(remoteUrlProblem('steward.example.com')).toMatch(/must be a URL/);
  });

  it('is kept without a trailing slash, and a create names its problem field', () => {
    expect(RemoteCreate.parse({ name: 'Box', url: 'https://box.example.com/', apiKeyRef: 'box-key' }).url).toBe('https://box.example.com');
    const refused = RemoteCreate.safeParse({ name: 'Box', url: 'http://box.example.com', apiKeyRef: 'box key' });
    expect(refused.success).toBe(false);
    expect(refused.error!.issues.map((issue) => issue.path[0]).sort()).toEqual(['apiKeyRef', 'url']);
  });
});

describe('reading an event stream', () => {
  const streamOf = (chunks: string[]) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    });

  it('gives the same events however the bytes are cut, skipping comments', async () => {
    const text = 'retry: 2000\n: connected\n\nid: 7\nevent: activity\ndata: {"a":1}\n\nevent: run\ndata: line one\ndata: line two\n\r\nevent: heartbeat\ndata: {}\n\n';
    const whole: unknown[] = [];
    await readEventStream(streamOf([text]), (event) => whole.push(event));
    expect(whole).toEqual([
      { event: 'activity', data: '{"a":1}', id: '7' },
      { event: 'run', data: 'line one\nline two', id: undefined },
      { event: 'heartbeat', data: '{}', id: undefined },
    ]);
    const bytewise: unknown[] = [];
    await readEventStream(streamOf([...text]), (event) => bytewise.push(event));
    expect(bytewise).toEqual(whole);
  });
});

describe("a kept copy of a remote's lines", () => {
  let done: () => void = () => {};
  afterEach(() => done());

  it('takes lines in order once, refuses a gap from the stream, and counts a gap the remote trimmed as skipped', () => {
    const temp = tempStore();
    const { store } = temp;
    done = () => temp.remove();
    const line = (n: number) => ({ instanceId: 'ins_R', line: n, runId: null, kind: 'system' as const, label: '' as const, displayText: `r${n}`, raw: '{}', timestamp: '2026-11-25T09:00:00.000Z' });
    const take = (n: number, acceptGap = false) => store.transaction(() => store.activity.mirror(line(n), acceptGap));
    expect(take(1)).toBe('added');
    expect(take(1)).toBe('seen');
    expect(take(3)).toBe('gap');
    expect(store.activity.head('ins_R')).toEqual({ lastLine: 1, trimmedThrough: 0 });
    expect(take(2)).toBe('added');
    expect(take(3)).toBe('added');
    expect(take(9, true)).toBe('added');
    expect(store.activity.head('ins_R')).toEqual({ lastLine: 9, trimmedThrough: 8 });
    expect(store.activity.after('ins_R', 0, 100).map((kept) => kept.line)).toEqual([1, 2, 3, 9]);
    // Every kept line has its own place in the live stream's sequence.
    const seqs = store.activity.after('ins_R', 0, 100).map((kept) => kept.seq);
    expect(new Set(seqs).size).toBe(4);
  });
});

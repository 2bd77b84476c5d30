// An ACP agent's output is held back while the runner's backlog is full: no message reaches the SDK
// and its stdout stops being read (so the agent blocks on its pipe); with room, every message comes, in order.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { acpStream, loadAcpSdk } from '../../src/main/core/agents/acp-agent';

describe('acpStream with a backlog', () => {
  it('reads nothing while the backlog is full, then everything in order', async () => {
    const stdout = new PassThrough();
    const stdin = new PassThrough();
    let full = true;
    let room: () => void = () => {};
    const stream = acpStream(await loadAcpSdk(), { stdin, stdout }, { full: () => full, room: () => new Promise<void>((resolve) => (room = resolve)) });
    const reader = stream.readable.getReader();
    const messages: unknown[] = [];
    const reading = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        messages.push(value);
      }
    })();
    const sent = Array.from({ length: 3000 }, (_, n) => ({ jsonrpc: '2.0', method: 'session/update', params: { n } }));
    // Written in several chunks, the way a pipe delivers them; more than the stream buffers.
    for (let n = 0; n < sent.length; n += 100) stdout.write(`${sent.slice(n, n + 100).map((message) => JSON.stringify(message)).join('\n')}\n`);
    stdout.end();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(messages).toEqual([]);
    expect(stdout.readableLength).toBeGreaterThan(0); // not drained into memory: left to fill the pipe

    full = false;
    room();
    await reading;
    expect(messages).toEqual(sent);
  });
});

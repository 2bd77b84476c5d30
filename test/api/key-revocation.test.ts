// A revoked key is gone everywhere at once: the event streams (GET /api/events) and MCP streams
// (GET /mcp) it opened while it was valid end within a second of DELETE /api/keys/{id}, of a
// revocation by another process on the same data folder (`steward keys revoke` beside the daemon),
// and, for a run's own key, of the end of its run. Streams of other keys stay open.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { openStore } from '../../src/main/core/store';
import type { Run } from '../../src/shared/contract';
import { type TestCore, startTestCore } from '../support/core';
import { type RawConnection, rawConnect } from '../support/raw-http';
import { settled } from '../support/runs';
import { waitFor } from '../support/wait';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore({ clock: systemClock });
});
afterAll(() => t.close());

async function newKey(name: string): Promise<{ id: string; key: string }> {
  const created = await t.api('POST', '/api/keys', { name });
  expect(created.status).toBe(201);
  return { id: created.body.apiKey.id, key: created.body.key };
}

/** GET /api/events and GET /mcp opened with `key`, each once it has answered 200. */
async function openStreams(key: string): Promise<RawConnection[]> {
  const events = await rawConnect(t.url, `GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n\r\n`);
  await events.until(': connected');
  const mcp = await rawConnect(t.url, `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nAccept: text/event-stream\r\nMCP-Protocol-Version: 2025-06-18\r\n\r\n`);
  await mcp.until('\r\n\r\n');
  expect(mcp.received().toString()).toMatch(/^HTTP\/1\.1 200 /);
  return [events, mcp];
}

/** How long each connection takes to close, at most `withinMs` (then Infinity). */
async function closeTimes(connections: RawConnection[], since: number, withinMs = 3_000): Promise<number[]> {
  return Promise.all(
    connections.map((connection) =>
      Promise.race([connection.closed.then(() => performance.now() - since), new Promise<number>((resolve) => setTimeout(() => resolve(Infinity), withinMs))]),
    ),
  );
}

const closeAll = (connections: RawConnection[]) => connections.forEach((connection) => connection.socket.destroy());

describe('a revoked key', () => {
  it('loses its open event and MCP streams within a second of DELETE /api/keys/{id}; another key keeps its own', async () => {
    const revoked = await newKey('leaked');
    const kept = await newKey('kept');
    const streams = await openStreams(revoked.key);
    const others = await openStreams(kept.key);
    const since = performance.now();
    expect((await t.api('DELETE', `/api/keys/${revoked.id}`)).status).toBe(204);
    const times = await closeTimes(streams, since);
    for (const ms of times) expect(ms).toBeLessThan(1_000);
    expect(streams[0].received().toString()).toContain('event: revoked\n');
    expect(others.map((connection) => connection.socket.destroyed)).toEqual([false, false]);
    // And what stays open still works: a line comes through to the other key's stream.
    t.core.store.activity.append({ instanceId: (await t.api('GET', '/api/instances')).body.instances[0].id, runId: null, kind: 'system', label: '', displayText: 'still here', raw: '{}', timestamp: new Date().toISOString() });
    await others[0].until('still here');
    closeAll(others);
  });

  it('loses them within about a second when another process on the same data folder revokes it', async () => {
    const revoked = await newKey('revoked elsewhere');
    const streams = await openStreams(revoked.key);
    // What `steward keys revoke` does beside a running daemon: its own connection to the database.
    const elsewhere = openStore(path.join(t.dataDir, 'steward.db'));
    const since = performance.now();
    expect(elsewhere.apiKeys.revoke(revoked.id, new Date().toISOString())).toBe(true);
    elsewhere.close();
    for (const ms of await closeTimes(streams, since)) expect(ms).toBeLessThan(1_500);
  });
});

describe("a run's key", () => {
  it('loses its streams when its run ends', async () => {
    // An agent that says its key, then waits for the test to let it end.
    const agent = { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'echo "key=$STEWARD_API_KEY"; while [ ! -e done ]; do sleep 0.05; done'], stewardTools: true };
    const instance = (await t.api('POST', '/api/instances', { name: 'keyed', agent, sandbox: { mode: 'off' } })).body.instance as { id: string; workspaceDir: string };
    const { run } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'go' })).body as { run: Run };
    const saidKey = async () => (((await t.api('GET', `/api/threads/${run.threadId}`)).body.thread?.messages ?? []) as { content: string }[]).map((message) => /^key=(stw_\S+)$/.exec(message.content)?.[1]).find(Boolean);
    const key = await waitFor(saidKey, { what: 'the agent to say its key' });
    // A run's key opens no event stream (the feed is every instance's); its MCP stream it may open.
    const events = await rawConnect(t.url, `GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n\r\n`);
    await events.until('\r\n\r\n');
    expect(events.received().toString()).toMatch(/^HTTP\/1\.1 403 /);
    events.socket.destroy();
    const mcp = await rawConnect(t.url, `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nAccept: text/event-stream\r\nMCP-Protocol-Version: 2025-06-18\r\n\r\n`);
    await mcp.until('\r\n\r\n');
    expect(mcp.received().toString()).toMatch(/^HTTP\/1\.1 200 /);
    fs.writeFileSync(path.join(instance.workspaceDir, 'done'), '');
    const ended = await settled(t, run.id);
    expect(ended.status).toBe('succeeded');
    const since = performance.now();
    for (const ms of await closeTimes([mcp], since)) expect(ms).toBeLessThan(1_000);
  });
});

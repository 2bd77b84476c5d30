// Who owns a remote's follower, against two real cores (loopback listeners, SQLite files): each
// stored remote has exactly one follower whatever the order of adds, updates and removals; a key
// refused there, or replaced here by a wrong one, shows as `unauthorized` within one check, however
// long the remote keeps the event stream it opened; a stopped follower leaves no stream, request
// or timer behind. What is counted is what the remote sees: its open event streams per key.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Remote } from '../../src/shared/contract';
import { type TestCore, startTestCore } from '../support/core';

const checkEveryMs = 400;
let local: TestCore;
let remote: TestCore;

async function until<T>(what: string | (() => string), check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A key of the remote, stored here as a secret of that name. */
async function remoteKey(secret: string): Promise<{ id: string; key: string }> {
  const { apiKey, key } = remote.core.services.apiKeys.create(secret);
  expect((await local.api('PUT', `/api/secrets/${secret}`, { value: key })).status).toBe(200);
  return { id: apiKey.id, key };
}

/** The event streams the remote holds open for these keys: one per follower following it with them. */
const streamsOf = (...keys: { id: string }[]) => keys.reduce((sum, key) => sum + remote.core.services.holds.count(key.id, 'events'), 0);

async function stateOf(id: string): Promise<Remote> {
  return (await local.api('GET', `/api/remotes/${id}`)).body.remote as Remote;
}

const connected = (id: string) => until(`remote ${id} connected`, async () => (await stateOf(id)).state === 'connected');

beforeAll(async () => {
  remote = await startTestCore();
  local = await startTestCore({ remoteTiming: { minBackoffMs: 100, maxBackoffMs: 500, checkEveryMs, stallMs: 60_000 } });
}, 60_000);
afterAll(async () => {
  await local?.close();
  await remote?.close();
}, 60_000);

describe('a remote\'s follower', { timeout: 90_000 }, () => {
  // A test that failed half way leaves no remote to the next (an address is followed once).
  afterEach(async () => {
    for (const { id } of local.core.store.remotes.list()) await local.api('DELETE', `/api/remotes/${id}`);
  });

  it('is one per stored remote, whatever the order of overlapping updates and removals', async () => {
    const first = await remoteKey('key-one');
    const second = await remoteKey('key-two');
    const made = await local.api('POST', '/api/remotes', { name: 'Remote', url: remote.url, apiKeyRef: 'key-one' });
    expect(made.status).toBe(201);
    const id = made.body.remote.id as string;
    await connected(id);
    expect(streamsOf(first, second)).toBe(1);

    // Updates that each change the connection, all at once (over HTTP, and in one tick as the
    // desktop's calls come): each stops the follower before it.
    const keys = ['key-two', 'key-one', 'key-two', 'key-one', 'key-two'];
    const updates = await Promise.all(keys.map((apiKeyRef, i) => local.api('PATCH', `/api/remotes/${id}`, { apiKeyRef, name: `Remote ${i}` })));
    expect(updates.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    await Promise.all(keys.map((apiKeyRef, i) => local.core.dispatch('remotes.update', { params: { id }, body: { apiKeyRef, name: `Desk ${i}` } })));
    const stored = local.core.store.remotes.get(id)!;
    await connected(id);
    const byKey = stored.apiKeyRef === 'key-one' ? first : second;
    // The followers stopped have closed their streams; the one left has its own, with the key stored.
    await until(() => `one stream, with ${stored.apiKeyRef} (now ${streamsOf(first)} + ${streamsOf(second)})`, () => streamsOf(first, second) === 1 && streamsOf(byKey) === 1);

    // An update and a removal at once: nothing follows the removed remote afterwards.
    const [updated, removed] = await Promise.all([local.api('PATCH', `/api/remotes/${id}`, { apiKeyRef: stored.apiKeyRef === 'key-one' ? 'key-two' : 'key-one' }), local.api('DELETE', `/api/remotes/${id}`)]);
    // Which the remote sees first is the network's choice: the update finds it gone, or is undone.
    expect([200, 404]).toContain(updated.status);
    expect(removed.status).toBe(204);
    expect((await local.api('GET', `/api/remotes/${id}`)).status).toBe(404);
    await until(() => `no stream left (now ${streamsOf(first, second)})`, () => streamsOf(first, second) === 0);
    // And none opens later: a follower left running would reconnect within its backoff.
    const again = await local.api('POST', '/api/remotes', { name: 'Again', url: remote.url, apiKeyRef: 'key-one' });
    await connected(again.body.remote.id);
    expect(streamsOf(first, second)).toBe(1);
    expect((await local.api('DELETE', `/api/remotes/${again.body.remote.id}`)).status).toBe(204);
    await until('no stream left', () => streamsOf(first, second) === 0);
  });

  it('shows a key replaced here by a wrong one as unauthorized at the next check, though its stream is still open', async () => {
    const good = await remoteKey('key-swapped');
    const made = await local.api('POST', '/api/remotes', { name: 'Swapped', url: remote.url, apiKeyRef: 'key-swapped' });
    const id = made.body.remote.id as string;
    await connected(id);
    expect((await local.api('PUT', '/api/secrets/key-swapped', { value: 'stw_not_a_key_of_that_steward' })).status).toBe(200);
    const changedAt = Date.now();
    const refused = await until('unauthorized', async () => {
      const state = await stateOf(id);
      return state.state === 'unauthorized' ? state : undefined;
    });
    const tookMs = Date.now() - changedAt;
    expect(refused.error).toMatch(/refused this Steward's key/);
    // One check interval, and the check's own round trip: not the stream's end, which never comes.
    expect(tookMs).toBeLessThan(checkEveryMs * 5);
    expect(streamsOf(good)).toBe(0);
    expect((await local.api('DELETE', `/api/remotes/${id}`)).status).toBe(204);
  });

  it('shows a key revoked there as unauthorized, and closes its stream', async () => {
    const revoked = await remoteKey('key-revoked');
    const made = await local.api('POST', '/api/remotes', { name: 'Revoked', url: remote.url, apiKeyRef: 'key-revoked' });
    const id = made.body.remote.id as string;
    await connected(id);
    remote.core.services.apiKeys.revoke(revoked.id);
    const refused = await until('unauthorized', async () => {
      const state = await stateOf(id);
      return state.state === 'unauthorized' ? state : undefined;
    });
    expect(refused.error).toMatch(/refused this Steward's key/);
    expect(streamsOf(revoked)).toBe(0);
    expect((await local.api('DELETE', `/api/remotes/${id}`)).status).toBe(204);
  });

  it('leaves nothing running once stopped: no stream, no request, no timer keeping the process alive', async () => {
    const key = await remoteKey('key-stopped');
    const before = process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const made = await local.api('POST', '/api/remotes', { name: 'Stopped', url: remote.url, apiKeyRef: 'key-stopped' });
    // And one that cannot be reached, waiting between attempts when stopped.
    const gone = await local.api('POST', '/api/remotes', { name: 'Gone', url: 'http://127.0.0.1:9', apiKeyRef: 'key-stopped' });
    expect(gone.status).toBe(201);
    await connected(made.body.remote.id);
    await until('the other unreachable', async () => (await stateOf(gone.body.remote.id)).state === 'unreachable');
    await local.core.services.remotes.stop();
    // Its stream is closed as stop() resolves: the remote sees it go at once.
    await until('the stream closed', () => streamsOf(key) === 0, 5_000);
    const after = process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    expect(after).toBeLessThanOrEqual(before);
    local.core.services.remotes.start();
    await connected(made.body.remote.id);
    for (const id of [made.body.remote.id, gone.body.remote.id]) expect((await local.api('DELETE', `/api/remotes/${id}`)).status).toBe(204);
  });
});

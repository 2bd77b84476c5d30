// Remote Stewards, end to end: this Steward (in-process, a real loopback listener and SQLite file)
// follows a second, real `steward serve` process with its own data folder and port. Operations on
// the remote's instance go through the local API and happen there; the merged feed, polled with
// cursors while both write, returns every line exactly once, also across the remote being stopped
// and started again; a revoked key shows as unauthorized.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityFeed, Cursors, Instance, Remote } from '../../src/shared/contract';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type TestCore, request, startTestCore, tempDir } from '../support/core';
import { startReceiver } from '../support/receiver';
import { trayState } from '../../src/main/shell/tray-state';
import { type Server, runCli, startDaemon } from '../support/processes';

const remoteDir = tempDir('steward-remote-');
let local: TestCore;
let remote: Server;
let remoteKey: string;
let remotePort: number;
const encode = (cursors: Cursors) => Buffer.from(JSON.stringify(cursors)).toString('base64');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string | (() => string), check: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await sleep(100);
  }
}

/** The remote's own API, with its own key. */
const there = (method: string, route: string, body?: unknown) =>
  request(`${remote.url}${route}`, { method, headers: { authorization: `Bearer ${remoteKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });

/** A Steward's event stream (this one's unless told), read as text until stopped. */
async function followEvents(url = local.url, key = local.key): Promise<{ text(): string; stop(): Promise<void> }> {
  const controller = new AbortController();
  const response = await fetch(`${url}/api/events`, { headers: { authorization: `Bearer ${key}` }, signal: controller.signal });
  const reader = response.body!.getReader();
  let text = '';
  const reading = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      text += new TextDecoder().decode(value);
    }
  })().catch(() => {});
  return {
    text: () => text,
    async stop() {
      controller.abort();
      await reading;
    },
  };
}

async function remoteState(id: string): Promise<Remote> {
  return (await local.api('GET', `/api/remotes/${id}`)).body.remote as Remote;
}

beforeAll(async () => {
  remoteKey = runCli(['keys', 'create', '--name', 'laptop', '--data-dir', remoteDir]).trim().split('\n').at(-1)!;
  remote = await startDaemon(remoteDir);
  remotePort = Number(new URL(remote.url).port);
  local = await startTestCore({ remoteTiming: { minBackoffMs: 200, maxBackoffMs: 1_000, checkEveryMs: 500, stallMs: 20_000 } });
}, 60_000);
afterAll(async () => {
  await local?.close();
  await remote?.stop();
  fs.rmSync(remoteDir, { recursive: true, force: true });
}, 60_000);

// Two daemons, one a separate process under tsx, restarted twice: generous on a busy machine.
describe('remotes', { timeout: 90_000 }, () => {
  let remoteId: string;
  let serverInstance: Instance;

  it('refuses a remote it could not follow safely, saying why', async () => {
    const plain = await local.api('POST', '/api/remotes', { name: 'Server', url: 'http://steward.example.com', apiKeyRef: 'server-key' });
    expect(plain.status).toBe(400);
    expect(plain.body.error).toMatchObject({ code: 'invalid_field', field: 'url' });
    expect(plain.body.error.message).toMatch(/https:\/\/.*loopback/);
    const noSecret = await local.api('POST', '/api/remotes', { name: 'Server', url: remote.url, apiKeyRef: 'server-key' });
    expect(noSecret.status).toBe(400);
    expect(noSecret.body.error).toMatchObject({ code: 'invalid_field', field: 'apiKeyRef' });
    const itself = await local.api('PUT', '/api/secrets/self-key', { value: local.key });
    expect(itself.status).toBe(200);
    const self = await local.api('POST', '/api/remotes', { name: 'Me', url: local.url, apiKeyRef: 'self-key' });
    expect(self.status).toBe(400);
    expect((await local.api('GET', '/api/remotes')).body.remotes).toEqual([]);
  });

  it('tests a connection, then follows the remote: its instances are instances here', async () => {
    expect((await local.api('PUT', '/api/secrets/server-key', { value: remoteKey })).status).toBe(200);
    const check = await local.api('POST', '/api/remotes/check', { url: remote.url, apiKeyRef: 'server-key' });
    expect(check.status).toBe(200);
    expect(check.body.check).toMatchObject({ state: 'connected', error: null, instanceCount: 1 });
    const wrongKey = await local.api('PUT', '/api/secrets/wrong-key', { value: 'stw_not_a_key' });
    expect(wrongKey.status).toBe(200);
    expect((await local.api('POST', '/api/remotes/check', { url: remote.url, apiKeyRef: 'wrong-key' })).body.check).toMatchObject({ state: 'unauthorized' });

    const created = await local.api('POST', '/api/remotes', { name: 'Server', url: `${remote.url}/`, apiKeyRef: 'server-key' });
    expect(created.status).toBe(201);
    remoteId = created.body.remote.id;
    expect(created.body.remote).toMatchObject({ name: 'Server', url: remote.url, host: '127.0.0.1', apiKeyRef: 'server-key' });
    expect(JSON.stringify(created.body)).not.toContain(remoteKey);
    const again = await local.api('POST', '/api/remotes', { name: 'Twice', url: remote.url, apiKeyRef: 'server-key' });
    expect(again.status).toBe(409);

    const connected = await until('connected', async () => {
      const state = await remoteState(remoteId);
      return state.state === 'connected' ? state : undefined;
    });
    expect(connected).toMatchObject({ version: expect.any(String), latencyMs: expect.any(Number), error: null, instanceCount: 1 });

    // A new instance there, made through this Steward.
    const made = await there('POST', '/api/instances', { name: 'Builder', agent: { provider: 'command', preset: 'custom', command: 'cat' } });
    expect(made.status).toBe(201);
    serverInstance = await until('the new instance here', async () => {
      const { instances } = (await local.api('GET', '/api/instances')).body as { instances: Instance[] };
      return instances.find((instance) => instance.id === made.body.instance.id && instance.status === 'running');
    });
    expect(serverInstance).toMatchObject({ name: 'Builder', location: remoteId, fqdn: '127.0.0.1', isDefault: false });
    const localOnly = (await local.api('GET', '/api/instances?location=local')).body.instances as Instance[];
    expect(localOnly.every((instance) => instance.location === 'local')).toBe(true);
    expect((await local.api('GET', `/api/instances/${serverInstance.id}`)).body.instance).toMatchObject({ location: remoteId });
  });

  it('forwards what names the remote instance: rename, a prompt, its run and messages, automations and webhooks that live there', async () => {
    const renamed = await local.api('PATCH', `/api/instances/${serverInstance.id}`, { name: 'Build box' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.instance).toMatchObject({ name: 'Build box', location: remoteId, fqdn: '127.0.0.1' });
    expect((await there('GET', `/api/instances/${serverInstance.id}`)).body.instance.name).toBe('Build box');

    const sent = await local.api('POST', '/api/runs', { instanceId: serverInstance.id, prompt: 'hello from the laptop' });
    expect(sent.status).toBe(202);
    const runId = sent.body.run.id as string;
    // The run is the remote's: it exists there, not here.
    expect((await there('GET', `/api/runs/${runId}`)).status).toBe(200);
    expect(local.core.store.runs.get(runId)).toBeUndefined();
    const finished = await until('the run to finish', async () => {
      const { run } = (await local.api('GET', `/api/runs/${runId}`)).body;
      return run.status === 'succeeded' ? run : undefined;
    });
    expect(finished).toMatchObject({ instanceId: serverInstance.id, prompt: 'hello from the laptop' });
    const messages = await local.api('GET', `/api/runs/${runId}/messages`);
    expect(messages.status).toBe(200);
    expect(JSON.stringify(messages.body)).toContain('hello from the laptop');

    const automation = await local.api('POST', '/api/automations', { name: 'Nightly', prompt: 'check', cronExpression: '0 3 * * *', instanceId: serverInstance.id });
    expect(automation.status).toBe(201);
    expect((await there('GET', `/api/automations/${automation.body.automation.id}`)).status).toBe(200);
    expect(local.core.store.automations.get(automation.body.automation.id)).toBeUndefined();
    const listed = (await local.api('GET', '/api/automations')).body.automations as { id: string }[];
    expect(listed.map((each) => each.id)).toContain(automation.body.automation.id);
    const updated = await local.api('PUT', `/api/automations/${automation.body.automation.id}`, { name: 'Nightly check' });
    expect(updated.status).toBe(200);
    expect((await there('GET', `/api/automations/${automation.body.automation.id}`)).body.automation.name).toBe('Nightly check');
    const moved = await local.api('PUT', `/api/automations/${automation.body.automation.id}`, { instanceId: local.core.store.instances.getDefault()!.id });
    expect(moved.status).toBe(400);
    expect(moved.body.error.code).toBe('cross_location');

    const webhook = await local.api('POST', '/api/webhooks', { name: 'Deploys', promptTemplate: 'Deployed: {{payload}}', instanceId: serverInstance.id });
    expect(webhook.status).toBe(201);
    // Its trigger URL is the remote's: the sender calls the machine that runs it.
    expect(webhook.body.webhook.triggerUrl).toContain(remote.url);
    const triggered = await request(webhook.body.webhook.triggerUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"v":1}' });
    expect(triggered.status).toBe(202);
    expect((await local.api('DELETE', `/api/webhooks/${webhook.body.webhook.id}`)).status).toBe(204);
    expect((await there('GET', `/api/webhooks/${webhook.body.webhook.id}`)).status).toBe(404);
    expect((await local.api('DELETE', `/api/automations/${automation.body.automation.id}`)).status).toBe(204);

    // An unknown id is still a plain 404.
    expect((await local.api('GET', '/api/runs/run_00000000000000000000000000')).status).toBe(404);
  });

  it('merges the feed with per-instance cursors: every line once, across the remote stopping and starting again', async () => {
    const localInstance = local.core.store.instances.getDefault()!.id;
    const seen = new Map<string, number>();
    let cursors: Cursors = (await local.api('GET', '/api/activity?limit=1')).body.cursors;
    const pollAll = async () => {
      for (;;) {
        const feed = (await local.api('GET', `/api/activity?cursors=${encode(cursors)}&limit=7`)).body as ActivityFeed;
        for (const event of feed.events) {
          const key = `${event.instanceId}:${event.line}`;
          seen.set(key, (seen.get(key) ?? 0) + 1);
        }
        cursors = feed.cursors;
        if (!feed.hasMore) return;
      }
    };
    const localLine = (text: string) =>
      local.core.store.transaction(() => local.core.store.activity.append({ instanceId: localInstance, runId: null, kind: 'system', label: '', displayText: text, raw: '{}', timestamp: new Date().toISOString() }));
    const remoteHead = async () => ((await there('GET', `/api/instances/${serverInstance.id}/activity?limit=1`)).body as { lineCount: number }).lineCount;

    // Both write while the feed is polled.
    for (let i = 0; i < 4; i++) {
      localLine(`local ${i}`);
      expect((await local.api('POST', '/api/runs', { instanceId: serverInstance.id, prompt: `busy ${i}` })).status).toBe(202);
      await pollAll();
    }
    const headBefore = await until('the remote runs to finish', async () => {
      const { runs } = (await there('GET', `/api/runs?instanceId=${serverInstance.id}&limit=10`)).body as { runs: { status: string }[] };
      return runs.every((run) => ['succeeded', 'failed'].includes(run.status)) ? remoteHead() : undefined;
    });

    // The remote goes away: its instances are `error`, the local feed goes on.
    await remote.stop();
    await until('unreachable', async () => ((await remoteState(remoteId)).state === 'unreachable' ? true : undefined));
    const down = (await local.api('GET', `/api/instances/${serverInstance.id}`)).body.instance as Instance;
    expect(down.status).toBe('error');
    expect(down.statusReason).toMatch(/Server.*unreachable/);
    const refused = await local.api('POST', '/api/runs', { instanceId: serverInstance.id, prompt: 'anyone?' });
    expect(refused.status).toBe(502);
    expect(refused.body.error.code).toBe('remote_unreachable');
    expect(refused.body.error.message).toContain('Server');
    localLine('local while the server is away');
    await pollAll();

    // Lines it writes while away (a daemon of its own with no one following) arrive once it is back.
    remote = await startDaemon(remoteDir, ['--port', String(remotePort)]);
    const direct = await there('POST', '/api/runs', { instanceId: serverInstance.id, prompt: 'written while unfollowed' });
    expect(direct.status).toBe(202);
    await until('connected again', async () => ((await remoteState(remoteId)).state === 'connected' ? true : undefined));
    const headAfter = await until('the unfollowed run to finish', async () => {
      const { run } = (await there('GET', `/api/runs/${direct.body.run.id}`)).body;
      return run.status === 'succeeded' ? remoteHead() : undefined;
    });
    expect(headAfter).toBeGreaterThan(headBefore);
    await until('every remote line here', async () => {
      await pollAll();
      return (cursors[serverInstance.id] ?? 0) >= headAfter ? true : undefined;
    });
    localLine('local at the end');
    await pollAll();

    const twice = [...seen].filter(([, count]) => count > 1);
    expect(twice).toEqual([]);
    // Every line of both instances since the first poll, none skipped.
    const remoteLines = [...seen.keys()].filter((key) => key.startsWith(`${serverInstance.id}:`)).map((key) => Number(key.split(':')[1]));
    const first = Math.min(...remoteLines);
    expect(remoteLines.sort((a, b) => a - b)).toEqual(Array.from({ length: headAfter - first + 1 }, (_, i) => first + i));
    const localLines = [...seen.keys()].filter((key) => key.startsWith(`${localInstance}:`)).map((key) => Number(key.split(':')[1]));
    expect(localLines.length).toBe(6);
    // The lines are the remote's own.
    const theirs = (await there('GET', `/api/instances/${serverInstance.id}/activity?cursor=${first - 1}&limit=1000`)).body.events as { line: number; displayText: string }[];
    const ours = (await local.api('GET', `/api/instances/${serverInstance.id}/activity?cursor=${first - 1}&limit=1000`)).body.events as { line: number; displayText: string }[];
    expect(ours.map(({ line, displayText }) => ({ line, displayText }))).toEqual(theirs.map(({ line, displayText }) => ({ line, displayText })));
  }, 120_000);

  it('streams the remote lines live on this Steward\'s event stream', async () => {
    const events = await followEvents();
    expect((await local.api('POST', '/api/runs', { instanceId: serverInstance.id, prompt: 'live please' })).status).toBe(202);
    await until('the remote line on the stream', () => (events.text().includes('live please') && events.text().includes('event: run') ? true : undefined));
    await events.stop();
  });

  it('over MCP a person\'s key reaches the remote instance; an agent\'s run never does', async () => {
    const client = new Client({ name: 'remotes-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${local.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${local.key}` } } }));
    const listed = await client.callTool({ name: 'list_instances', arguments: {} });
    expect(JSON.stringify(listed.content)).toContain(serverInstance.id);
    const sent = await client.callTool({ name: 'send_prompt', arguments: { instanceId: serverInstance.id, prompt: 'via mcp' } });
    expect(sent.isError).toBeFalsy();
    const runId = (JSON.parse((sent.content as { text: string }[])[0].text) as { run: { id: string } }).run.id;
    expect((await there('GET', `/api/runs/${runId}`)).body.run.prompt).toBe('via mcp');
    await client.close();

    const agent = { scope: 'runs' as const, runId: 'run_01KAAAAAAAAAAAAAAAAAAAAAAA', instanceId: local.core.store.instances.getDefault()!.id };
    // A remote instance is beyond any run's reach: answered as if it were not there, before anything is forwarded.
    await expect(local.core.dispatch('runs.create', { body: { instanceId: serverInstance.id, prompt: 'escape' } }, agent)).rejects.toMatchObject({ code: 'not_found', message: `No instance ${serverInstance.id}.` });
    await expect(local.core.dispatch('runs.get', { params: { id: runId } }, agent)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('follows no chains: two Stewards following each other each show only the other\'s own instances, once', async () => {
    const { key } = local.core.services.apiKeys.create('server');
    expect((await there('PUT', '/api/secrets/laptop-key', { value: key })).status).toBe(200);
    const back = await there('POST', '/api/remotes', { name: 'Laptop', url: local.url, apiKeyRef: 'laptop-key' });
    expect(back.status).toBe(201);
    const backId = back.body.remote.id as string;
    let last: unknown;
    await until(
      () => `followed back (last seen: ${JSON.stringify(last)})`,
      async () => ((last = (await there('GET', `/api/remotes/${backId}`)).body.remote).state === 'connected' ? true : undefined),
      30_000,
    );
    const localIds = local.core.store.instances.list().map((instance) => instance.id);
    const theirs = (await there('GET', '/api/instances')).body.instances as Instance[];
    expect(theirs.filter((instance) => instance.location === backId).map((instance) => instance.id)).toEqual(localIds);
    const ours = (await local.api('GET', '/api/instances')).body.instances as Instance[];
    expect(new Set(ours.map((instance) => instance.id)).size).toBe(ours.length);
    expect(ours.filter((instance) => instance.location !== 'local').every((instance) => instance.location === remoteId)).toBe(true);
    expect(ours.filter((instance) => localIds.includes(instance.id)).every((instance) => instance.location === 'local')).toBe(true);
    // Nor does a remote's copy of this Steward's lines come back as a second copy here.
    const feed = (await local.api('GET', '/api/activity?limit=1000')).body as ActivityFeed;
    const keys = feed.events.map((event) => `${event.instanceId}:${event.line}`);
    expect(new Set(keys).size).toBe(keys.length);

    // A change there is told here once, not passed back and forth between the two.
    const events = await followEvents();
    const theirEvents = await followEvents(remote.url, remoteKey);
    const made = await there('POST', '/api/automations', { name: 'Echoed?', prompt: 'x', cronExpression: '0 4 * * *', instanceId: serverInstance.id });
    expect(made.status).toBe(201);
    const framesOf = (stream: { text(): string }, id: string) => stream.text().split('\n\n').filter((frame) => frame.startsWith('event: changed') && frame.includes(id));
    await until('the change here', () => (framesOf(events, made.body.automation.id).length > 0 ? true : undefined));
    // Then a change here, which the remote follows back after the one above (a stream is read in
    // order): once it shows on the remote's stream, the remote has taken in the first change too,
    // and would have told it again had it passed it on.
    const mark = await local.api('POST', '/api/automations', { name: 'Marker', prompt: 'x', cronExpression: '0 5 * * *', instanceId: localIds[0] });
    expect(mark.status).toBe(201);
    await until('the marker on the remote\'s stream', () => (framesOf(theirEvents, mark.body.automation.id).some((frame) => frame.includes(backId)) ? true : undefined));
    expect(framesOf(theirEvents, made.body.automation.id).filter((frame) => frame.includes('"location"'))).toEqual([]);
    expect(framesOf(events, made.body.automation.id)).toHaveLength(1);
    await Promise.all([events.stop(), theirEvents.stop()]);
    expect((await local.api('DELETE', `/api/automations/${mark.body.automation.id}`)).status).toBe(204);
    expect((await there('DELETE', `/api/automations/${made.body.automation.id}`)).status).toBe(204);
    expect((await there('DELETE', `/api/remotes/${backId}`)).status).toBe(204);
  });

  it('tells of a remote run\'s end like a local one: its channels, the tray, also one that ended while it was away', async () => {
    const receiver = await startReceiver();
    try {
      const made = await local.api('POST', '/api/notification-channels', { name: 'Ops', kind: 'webhook', url: receiver.url, on: 'all' });
      expect(made.status).toBe(201);
      const sent = await local.api('POST', '/api/runs', { instanceId: serverInstance.id, prompt: 'tell me when done' });
      const delivery = await until('its notification', () => receiver.received.find((request) => request.body.includes(sent.body.run.id)));
      expect(JSON.parse(delivery.body)).toMatchObject({ type: 'run.succeeded', data: { runId: sent.body.run.id, instance: { id: serverInstance.id, name: 'Build box' } } });
      // The tray shows it beside this Steward's runs.
      expect(trayState(local.core).recent).toContainEqual(expect.objectContaining({ id: sent.body.run.id, title: 'Build box', status: 'succeeded' }));
      // The run's end is told once, however often the remote announces the run: by the time a
      // later run's end is told, a second word about the first would have been too.
      const later = await local.api('POST', '/api/runs', { instanceId: serverInstance.id, prompt: 'and this one' });
      await until('the later run\'s notification', () => receiver.received.find((request) => request.body.includes(later.body.run.id)));
      expect(receiver.received.filter((request) => request.body.includes(sent.body.run.id))).toHaveLength(1);

      // A run that ends while the remote cannot be followed (here: it answers on another port) is
      // told when it can be again.
      await remote.stop();
      await until('unreachable', async () => ((await remoteState(remoteId)).state === 'unreachable' ? true : undefined));
      remote = await startDaemon(remoteDir);
      const unseen = await there('POST', '/api/runs', { instanceId: serverInstance.id, prompt: 'while nobody followed' });
      await until('the unseen run to end', async () => ((await there('GET', `/api/runs/${unseen.body.run.id}`)).body.run.status === 'succeeded' ? true : undefined));
      await remote.stop();
      remote = await startDaemon(remoteDir, ['--port', String(remotePort)]);
      const told = await until('its notification', () => receiver.received.find((request) => request.body.includes(unseen.body.run.id)));
      expect(JSON.parse(told.body)).toMatchObject({ type: 'run.succeeded', data: { runId: unseen.body.run.id } });
      expect((await local.api('DELETE', `/api/notification-channels/${made.body.channel.id}`)).status).toBe(204);
    } finally {
      await receiver.close();
    }
  });

  it('shows a revoked key as unauthorized, takes a new one, and forgets the remote when removed', async () => {
    const { apiKeys } = (await there('GET', '/api/keys')).body as { apiKeys: { id: string; name: string }[] };
    const laptop = apiKeys.find((key) => key.name === 'laptop')!;
    expect((await there('DELETE', `/api/keys/${laptop.id}`)).status).toBe(204);
    const refused = await until('unauthorized', async () => {
      const state = await remoteState(remoteId);
      return state.state === 'unauthorized' ? state : undefined;
    });
    expect(refused.error).toMatch(/refused this Steward's key/);
    expect(refused.error).not.toContain(remoteKey);
    expect((await local.api('GET', `/api/instances/${serverInstance.id}`)).body.instance.status).toBe('error');

    // A new key stored under the same secret is used at the next attempt.
    remoteKey = runCli(['keys', 'create', '--name', 'laptop again', '--data-dir', remoteDir]).trim().split('\n').at(-1)!;
    expect((await local.api('PUT', '/api/secrets/server-key', { value: remoteKey })).status).toBe(200);
    await until('connected with the new key', async () => ((await remoteState(remoteId)).state === 'connected' ? true : undefined));
    expect((await local.api('GET', `/api/instances/${serverInstance.id}`)).body.instance.status).toBe('running');

    expect((await local.api('DELETE', `/api/remotes/${remoteId}`)).status).toBe(204);
    expect((await local.api('GET', `/api/instances/${serverInstance.id}`)).status).toBe(404);
    const feed = (await local.api('GET', '/api/activity?limit=1000')).body as ActivityFeed;
    expect(feed.events.some((event) => event.instanceId === serverInstance.id)).toBe(false);
  });
});

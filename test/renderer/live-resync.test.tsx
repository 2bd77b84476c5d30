// The web UI's live events when the stream breaks: a stream that fell behind is sent `overflow` and
// closed by the daemon; the client opens a new one and reloads what it shows, so a change made
// meanwhile (whose event was lost) appears. A stream the daemon refused (429 too many streams) is
// tried again until it opens. A change made between the app's first loads and its stream opening
// is not lost either: the first opening reloads too; nor is a delivery made while its list was on
// its way. The real daemon's SSE over loopback, read by an EventSource over fetch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultHttpLimits } from '../../src/main/core/http/limits';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { type StreamEvent, httpClient } from '../../src/renderer/src/lib/api';
import { createAppStore } from '../../src/renderer/src/store';
import { followLiveEvents } from '../../src/renderer/src/store/events';
import { type TestCore, startTestCore } from '../support/core';
import { FetchEventSource } from './event-source';
import { rawConnect } from '../support/raw-http';
import { ipcClientOf } from './harness';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore({ clock: systemClock, httpLimits: { ...defaultHttpLimits, streamBufferBytes: 64 * 1024, streamsPerCredential: 1 } });
});
afterAll(() => t.close());

/** The browser's client: operations (over the fake IPC here), and live events over the daemon's SSE with the test's key. */
function webClient() {
  const sources: FetchEventSource[] = [];
  const { client: calls, unregister } = ipcClientOf(t);
  const stream = httpClient(t.url, (url) => {
    const source = new FetchEventSource(url, { authorization: `Bearer ${t.key}` });
    sources.push(source);
    return source;
  });
  return { client: { call: calls.call.bind(calls), subscribe: stream.subscribe.bind(stream) }, sources, unregister };
}

function pour(count: number, size: number): void {
  const instanceId = t.core.services.instances.ensureDefault().id;
  t.core.store.transaction(() => {
    for (let n = 0; n < count; n++) t.core.store.activity.append({ instanceId, runId: null, kind: 'assistant', label: '', displayText: 'z'.repeat(size), raw: '{}', timestamp: new Date().toISOString() });
  });
}

describe('live events in the web UI', () => {
  it('reconnects after an overflow and reloads what it shows: a change whose event was lost appears', async () => {
    const { client, sources, unregister } = webClient();
    const store = createAppStore(client);
    const stop = followLiveEvents(store);
    try {
      await store.getState().loadAutomations();
      await expect.poll(() => sources[0]?.readyState).toBe(1);
      sources[0].pause();
      pour(3_000, 10_000);
      // Made while the stream is gone: its `changed` event is never delivered.
      t.core.services.automations.create({ name: 'made while away', prompt: 'p', cronExpression: '0 9 * * *', timezone: 'UTC', enabled: true, catchUp: 'latest', notify: 'default', memory: 'fresh' });
      sources[0].resume();
      await expect.poll(() => store.getState().automations.map((automation) => automation.name), { timeout: 15_000 }).toContain('made while away');
      expect(sources.length).toBeGreaterThanOrEqual(2);
      expect(sources[0].readyState).toBe(2);
    } finally {
      stop();
      unregister();
    }
  });

  it('reloads what it shows when the stream first opens: a change made after the first load and before the stream opened appears', async () => {
    const { client, unregister } = webClient();
    const store = createAppStore(client);
    // The app's first loads answer before its stream has opened (a page that is still starting).
    await store.getState().loadAutomations();
    t.core.services.automations.create({ name: 'made before the stream', prompt: 'p', cronExpression: '0 9 * * *', timezone: 'UTC', enabled: true, catchUp: 'latest', notify: 'default', memory: 'fresh' });
    const stop = followLiveEvents(store);
    try {
      await expect.poll(() => store.getState().automations.map((automation) => automation.name), { timeout: 15_000 }).toContain('made before the stream');
    } finally {
      stop();
      unregister();
    }
  });

  it('keeps a delivery heard of while its list was on its way: the list loads again, and the older answer is not taken', async () => {
    const { client, sources, unregister } = webClient();
    // The list's first answer is held after the daemon gave it, as a slow page would take it.
    let answered = false;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const call: typeof client.call = async (name, input) => {
      const answer = await client.call(name, input);
      if (name === 'deliveries.list' && !answered) {
        answered = true;
        await held;
      }
      return answer;
    };
    const store = createAppStore({ ...client, call });
    const stop = followLiveEvents(store);
    try {
      const webhook = t.core.services.webhooks.create({ name: 'while loading', promptTemplate: '{{payload}}', enabled: true, notify: 'default', memory: 'fresh' });
      // The key's one stream may still be the last test's, closing: this one is tried again until it opens.
      await expect.poll(() => sources.at(-1)?.readyState, { timeout: 15_000 }).toBe(1);
      const loading = store.getState().loadDeliveries(webhook.id);
      await expect.poll(() => answered).toBe(true);
      const response = await fetch(`${t.url}/api/webhooks/trigger/${webhook.token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":1}' });
      expect(response.status).toBe(202);
      await expect.poll(() => store.getState().deliveries[webhook.id]?.items.length ?? 0, { timeout: 10_000 }).toBe(1);
      release();
      await loading;
      expect(store.getState().deliveries[webhook.id].items).toHaveLength(1);
    } finally {
      release();
      stop();
      unregister();
    }
  });

  it('tries again after the daemon refused the stream (429), and then hears live events', async () => {
    // The key's one stream is taken.
    const holder = await rawConnect(t.url, `GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${t.key}\r\n\r\n`);
    await holder.until(': connected');
    const { client, sources, unregister } = webClient();
    const heard: StreamEvent[] = [];
    const unsubscribe = client.subscribe((event) => heard.push(event));
    try {
      await expect.poll(() => sources[0]?.readyState).toBe(2);
      holder.socket.destroy();
      await expect.poll(() => sources.at(-1)?.readyState, { timeout: 15_000 }).toBe(1);
      expect(sources.length).toBeGreaterThanOrEqual(2);
      const webhook = t.core.services.webhooks.create({ name: 'after the refusal', promptTemplate: '{{payload}}', enabled: true, notify: 'default', memory: 'fresh' });
      await expect.poll(() => heard.some((event) => event.type === 'changed' && event.id === webhook.id)).toBe(true);
    } finally {
      unsubscribe();
      unregister();
    }
  });
});

// GET /api/events: live activity and run changes as Server-Sent Events over real HTTP, resumed
// exactly with Last-Event-ID.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { type TestCore, startTestCore } from '../support/core';
import { quietFor, waitFor } from '../support/wait';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore({ clock: systemClock });
  // The default instance's readiness line comes first, not in the middle of a test's stream.
  await t.core.services.instances.idle();
});
afterAll(() => t.close());

interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

/** A streaming SSE reader over fetch, as a browser's EventSource would see the stream. */
function connect(headers: Record<string, string> = {}, query = '') {
  const controller = new AbortController();
  const events: SseEvent[] = [];
  const opened = fetch(`${t.url}/api/events${query}`, { headers: { authorization: `Bearer ${t.key}`, ...headers }, signal: controller.signal }).then(async (response) => {
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          buffer += value;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event: SseEvent = { data: '' };
            for (const line of block.split('\n')) {
              if (line.startsWith('id: ')) event.id = line.slice(4);
              else if (line.startsWith('event: ')) event.event = line.slice(7);
              else if (line.startsWith('data: ')) event.data += line.slice(6);
            }
            if (event.event) events.push(event);
          }
        }
      } catch {
        // aborted
      }
    })();
    return response;
  });
  return {
    opened,
    events,
    async until(check: () => boolean, timeoutMs = 5_000) {
      await waitFor(() => events.map((event) => event.event), { what: 'the events looked for', timeoutMs, intervalMs: 10, until: check });
    },
    close: () => controller.abort(),
  };
}

const write = (instanceId: string, text: string) =>
  t.core.store.transaction(() => t.core.store.activity.append({ instanceId, runId: null, kind: 'system', label: '', displayText: text, raw: '{}', timestamp: new Date().toISOString() }));

describe('GET /api/events', () => {
  it('needs the API key', async () => {
    const response = await fetch(`${t.url}/api/events`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: 'unauthorized' } });
    const bad = await t.api('GET', '/api/events?lastEventId=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'invalid_field', field: 'lastEventId' });
  });

  it('streams activity lines and run changes as they commit', async () => {
    const stream = connect();
    const response = await stream.opened;
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const instance = (await t.api('POST', '/api/instances', { name: 'Echo', agent: { provider: 'command', preset: 'custom', command: 'cat' } })).body.instance;
    await t.core.services.instances.idle();
    const run = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'ping over SSE' })).body.run;
    await stream.until(() => stream.events.some((event) => event.event === 'run' && JSON.parse(event.data).status === 'succeeded'));
    const statuses = stream.events.filter((event) => event.event === 'run').map((event) => JSON.parse(event.data) as { id: string; status: string });
    expect(statuses.filter((change) => change.id === run.id).map((change) => change.status)).toEqual(['queued', 'running', 'succeeded']);
    // The run's end and its last line commit together; the line may come a moment after the run event.
    await stream.until(() => stream.events.filter((event) => event.event === 'activity').length >= 4);
    const lines = stream.events
      .filter((event) => event.event === 'activity')
      .map((event) => ({ id: event.id, ...(JSON.parse(event.data) as { seq: number; displayText: string; instanceName: string; kind: string; runId: string | null }) }));
    expect(lines[0]).toMatchObject({ displayText: expect.stringMatching(/^Ready: custom:cat · sandbox/), runId: null });
    expect(lines.filter((line) => line.runId === run.id).map((line) => [line.kind, line.displayText])).toEqual([
      ['user', 'ping over SSE'],
      ['assistant', 'ping over SSE'],
      ['system', expect.stringMatching(/^Run succeeded after/)],
    ]);
    expect(lines[1]).toMatchObject({ instanceName: 'Echo', id: String(lines[1].seq) });
    stream.close();
  });

  it('resumes with Last-Event-ID: exactly the lines missed while away, then live ones', async () => {
    const instance = (await t.api('POST', '/api/instances', { name: 'Resumer' })).body.instance;
    await t.core.services.instances.idle();
    const first = connect();
    await first.opened;
    write(instance.id, 'before 1');
    write(instance.id, 'before 2');
    await first.until(() => first.events.filter((event) => event.event === 'activity').length === 2);
    const lastId = first.events.at(-1)!.id!;
    first.close();

    write(instance.id, 'missed 1');
    write(instance.id, 'missed 2');
    const again = connect({ 'last-event-id': lastId });
    await again.opened;
    write(instance.id, 'live 1');
    await again.until(() => again.events.filter((event) => event.event === 'activity').length === 3);
    expect(again.events.filter((event) => event.event === 'activity').map((event) => (JSON.parse(event.data) as { displayText: string }).displayText)).toEqual(['missed 1', 'missed 2', 'live 1']);
    again.close();

    // The query parameter works for clients that cannot set headers on the first connection.
    const byQuery = connect({}, `?lastEventId=${lastId}`);
    await byQuery.until(() => byQuery.events.filter((event) => event.event === 'activity').length === 3);
    byQuery.close();
  });

  it('announces a webhook\'s deliveries, refused ones too, a few a second however many arrive', async () => {
    const stream = connect();
    await stream.opened;
    const webhook = (await t.api('POST', '/api/webhooks', { name: 'Flooded', sender: 'github', signature: { secret: 'flood-secret' } })).body.webhook;
    const deliveries = () => stream.events.filter((event) => event.event === 'changed' && JSON.parse(event.data).resource === 'delivery');
    const started = Date.now();
    const refused = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        fetch(`${t.url}/api/webhooks/trigger/${webhook.token}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': 'sha256=00', 'x-github-delivery': `bad-${index}` }, body: '{}' }).then((response) => response.status),
      ),
    );
    const elapsedMs = Date.now() - started;
    expect(new Set(refused)).toEqual(new Set([401]));
    // The first at once, the rest folded into one at the end of each quarter second.
    await stream.until(() => deliveries().length >= 1);
    // A window, not an event: the bound below counts the quarter seconds of the requests and 600 ms
    // more, within which the last folded event has come; a wrong extra event would come within it too.
    await quietFor(600);
    expect(deliveries().map((event) => JSON.parse(event.data))).toContainEqual({ resource: 'delivery', id: webhook.id });
    expect(deliveries().length).toBeLessThanOrEqual(Math.ceil((elapsedMs + 600) / 250) + 1);
    expect(deliveries().length).toBeLessThan(60);
    stream.close();
  });

  it('a rolled-back write is never announced', async () => {
    const instance = (await t.api('POST', '/api/instances', { name: 'Rollback' })).body.instance;
    await t.core.services.instances.idle();
    const stream = connect();
    await stream.opened;
    expect(() =>
      t.core.store.transaction(() => {
        write(instance.id, 'never committed');
        throw new Error('abandon');
      }),
    ).toThrow('abandon');
    write(instance.id, 'committed');
    await stream.until(() => stream.events.some((event) => event.event === 'activity'));
    expect(stream.events.filter((event) => event.event === 'activity').map((event) => (JSON.parse(event.data) as { displayText: string; line: number }).displayText)).toEqual(['committed']);
    stream.close();
  });
});

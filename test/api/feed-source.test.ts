// The feed trigger against a real core and a real feed server on 127.0.0.1 whose feeds change: for
// RSS 2.0, Atom and JSON Feed, the first look runs nothing, each new item runs once with its fields
// fenced in the prompt, and no item runs twice, across polls and a restart of the core. Conditional
// requests are answered 304 and run nothing; a feed that breaks is failing with the reason, and
// listening again once fixed. The core's clock is moved by hand: a poll falls due when it says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '../../src/shared/contract';
import { ManualClock } from '../support/clock';
import { type TestCore, startTestCore, tempDir } from '../support/core';
import { type FeedServer, type Format, type TestItem, contentTypes, feedText, startFeedServer } from '../support/feed-server';
import { waitFor } from '../support/wait';

let t: TestCore;
let server: FeedServer;
const clock = new ManualClock(new Date());
const dataDir = tempDir();
const start = () => startTestCore({ clock, dataDir, sourceBackoffMs: () => 100 });

beforeAll(async () => {
  server = await startFeedServer();
  t = await start();
});
afterAll(async () => {
  await t?.close();
  await server?.close();
});

let made = 0;
async function feedAutomation(url: string, prompt = 'New item {{event.title}} at {{event.link}}\n{{event}}'): Promise<string> {
  const response = await t.api('POST', '/api/automations', { name: `feed ${++made}`, prompt, trigger: { feed: { url, pollMinutes: 1 } } });
  expect(response.status, response.text).toBe(201);
  return response.body.automation.id as string;
}

const sourceOf = async (id: string) => (await t.api('GET', `/api/automations/${id}`)).body.automation.source;
/** Oldest first. */
const runsOf = async (id: string): Promise<Run[]> => ((await t.api('GET', `/api/runs?sourceId=${id}&limit=500`)).body.runs as Run[]).reverse();

async function listening(id: string): Promise<{ lastCheckAt: string }> {
  return waitFor(() => sourceOf(id), { what: 'the source to listen', until: (source) => source?.state === 'listening' });
}

/** Moves the clock past the next poll and waits until that poll is done (its sign of life recorded). */
async function nextPoll(id: string): Promise<void> {
  const before = (await sourceOf(id)).lastCheckAt as string;
  clock.advance(61_000);
  await waitFor(() => sourceOf(id), { what: 'the next poll', until: (source) => source?.state === 'listening' && source.lastCheckAt !== before });
}

/** Whole seconds: RSS dates have no finer ones. */
const at = (minutesAgo: number) => new Date(Math.floor((clock.now().getTime() - minutesAgo * 60_000) / 1000) * 1000).toISOString();

function publish(path: string, format: Format, items: TestItem[], etag?: string): void {
  server.routes.set(path, { body: feedText(format, `The ${format} feed`, items), type: contentTypes[format], ...(etag === undefined ? {} : { etag }) });
}

describe.each(['rss', 'atom', 'json'] as const)('a %s feed', (format) => {
  const path = `/${format}.xml`;
  const old: TestItem[] = [
    { id: `${format}-1`, title: 'First post', link: 'https://example.org/1', published: at(300) },
    { id: `${format}-2`, title: 'Second post', link: 'https://example.org/2', published: at(200) },
  ];
  const fresh: TestItem[] = [
    { id: `${format}-3`, title: 'Third <post> & more', link: 'https://example.org/3', published: at(30), html: '<p>Hello <b>world</b> &amp; all</p><script>alert(1)</script><p>Second paragraph</p>', author: 'Ann Author', categories: ['news', 'tests'] },
    { id: `${format}-4`, title: 'Fourth post', link: 'https://example.org/4', published: at(10) },
  ];
  let id: string;

  it('takes what it lists at first as seen: no run', async () => {
    publish(path, format, old);
    id = await feedAutomation(server.url(path));
    const source = await listening(id);
    expect(source).toMatchObject({ state: 'listening', error: null, how: 'polled every 1 min' });
    expect(await runsOf(id)).toEqual([]);
    expect([...t.core.store.sourceState.entries(id, 'seen:').keys()].sort()).toEqual([`seen:${format}-1`, `seen:${format}-2`]);
  });

  it('runs each new item once, oldest first, with its fields fenced in the prompt', async () => {
    // Listed newest first in the feed; the older of the two must run first.
    publish(path, format, [...old, ...fresh]);
    await nextPoll(id);
    const runs = await waitFor(() => runsOf(id), { what: 'two runs', until: (found) => found.length >= 2 });
    expect(runs).toHaveLength(2);
    const [third, fourth] = runs;
    expect(third.prompt).toMatch(/^New item \n-----BEGIN UNTRUSTED DATA ([0-9a-f]{16})-----\n\(event\.title from the event source [^\n]*\nThird <post> & more\n-----END UNTRUSTED DATA \1-----\n at \n-----BEGIN/);
    expect(third.prompt).toContain('https://example.org/3');
    const json = /-----BEGIN UNTRUSTED DATA ([0-9a-f]{16})-----\n\(The event [^\n]*\n([\s\S]*?)\n-----END UNTRUSTED DATA \1-----/.exec(third.prompt);
    expect(json, third.prompt).not.toBeNull();
    expect(JSON.parse(json![2])).toEqual({
      feed: `The ${format} feed`,
      title: 'Third <post> & more',
      link: 'https://example.org/3',
      author: 'Ann Author',
      published: fresh[0].published,
      text: 'Hello world & all\n\nSecond paragraph',
      categories: ['news', 'tests'],
      id: `${format}-3`,
    });
    expect(fourth.prompt).toContain('Fourth post');
    const fires = (await t.api('GET', `/api/automations/${id}/fires`)).body.fires as { event: string; state: string }[];
    expect(fires.map((fire) => fire.event).sort()).toEqual([`New in The ${format} feed: "Fourth post"`, `New in The ${format} feed: "Third <post> & more"`]);
  });

  it('never runs an item again: not at the next poll, not after a restart of the core', async () => {
    await nextPoll(id);
    expect(await runsOf(id)).toHaveLength(2);

    await t.core.close();
    const fifth: TestItem = { id: `${format}-5`, title: 'Fifth, while Steward was off', link: 'https://example.org/5', published: at(5) };
    publish(path, format, [...old, ...fresh, fifth]);
    t = await start();
    // Found at start: caught up (an event trigger's catch-up is "all" by default), once.
    const runs = await waitFor(() => runsOf(id), { what: 'the caught-up run', until: (found) => found.length >= 3 });
    expect(runs.map((run) => /^New item \n-----BEGIN[^\n]*\n[^\n]*\n([^\n]*)/.exec(run.prompt)?.[1])).toEqual(['Third <post> & more', 'Fourth post', 'Fifth, while Steward was off']);
    await listening(id);
    await nextPoll(id);
    await nextPoll(id);
    expect(await runsOf(id)).toHaveLength(3);
  });
});

describe('conditional requests', () => {
  it('sends the ETag it was given, takes 304 as nothing new (and as a sign of life), and runs nothing twice', async () => {
    const path = '/etag.xml';
    const items: TestItem[] = [{ id: 'e-1', title: 'One', published: at(60) }];
    publish(path, 'rss', items, '"v1"');
    const id = await feedAutomation(server.url(path));
    await listening(id);
    expect(server.hitsOf(path).map((hit) => [hit.conditional, hit.status])).toEqual([[false, 200]]);

    await nextPoll(id);
    await nextPoll(id);
    expect(server.hitsOf(path).slice(1).map((hit) => [hit.conditional, hit.status])).toEqual([
      [true, 304],
      [true, 304],
    ]);
    expect(await sourceOf(id)).toMatchObject({ state: 'listening', failures: 0 });

    publish(path, 'rss', [...items, { id: 'e-2', title: 'Two', published: at(1) }], '"v2"');
    await nextPoll(id);
    await waitFor(() => runsOf(id), { what: 'the run of item two', until: (runs) => runs.length === 1 });
    expect(t.core.store.sourceState.get(id, 'etag')).toBe('"v2"');
    await nextPoll(id);
    await nextPoll(id);
    expect(server.hitsOf(path).slice(-2).map((hit) => hit.status)).toEqual([304, 304]);
    expect(await runsOf(id)).toHaveLength(1);
  });
});

describe('a feed that breaks', () => {
  it('is failing with the reason (malformed XML, an HTML page, 404, 500), and listening again once fixed', async () => {
    const path = '/breaks.xml';
    const items: TestItem[] = [{ id: 'b-1', title: 'One', published: at(60) }];
    publish(path, 'atom', items);
    const id = await feedAutomation(server.url(path));
    await listening(id);

    const failing = (pattern: RegExp) => waitFor(() => sourceOf(id), { what: `failing with ${pattern}`, until: (source) => source?.state === 'failing' && pattern.test(source.error ?? '') });
    server.routes.set(path, { body: '<?xml version="1.0"?><rss version="2.0"><channel><title>x</title><item><title>cut</item></channel></rss>', type: 'application/rss+xml' });
    clock.advance(61_000);
    expect((await failing(/is not a feed/)).error).toBe(`${server.url(path)} is not a feed: its XML is malformed: Unexpected end of title`);

    server.routes.set(path, { body: '<!doctype html><html><head><title>Blog</title></head><body><p>Hi</p></body></html>', type: 'text/html' });
    expect((await failing(/HTML page/)).error).toBe(`${server.url(path)} is not a feed: it is an HTML page (perhaps the site, not its feed: look for a link to RSS or Atom on it)`);

    server.routes.delete(path);
    expect((await failing(/404/)).error).toBe(`${server.url(path)} answered 404 Not Found`);

    server.routes.set(path, (_request, response) => response.writeHead(500).end('oops'));
    expect((await failing(/500/)).error).toBe(`${server.url(path)} answered 500 Internal Server Error`);

    // Fixed, with an item that came meanwhile: it runs (a failed source's next look is live).
    publish(path, 'atom', [...items, { id: 'b-2', title: 'Two', published: at(1) }]);
    await waitFor(() => sourceOf(id), { what: 'listening again', until: (source) => source?.state === 'listening' });
    expect((await sourceOf(id)).error).toBeNull();
    const runs = await waitFor(() => runsOf(id), { what: 'the run of item two', until: (found) => found.length === 1 });
    expect(runs[0].prompt).toContain('Two');
  });

  it('takes its baseline on the first look that succeeds, when the first ones failed', async () => {
    const path = '/late.xml';
    server.routes.set(path, (_request, response) => response.writeHead(503).end());
    const id = await feedAutomation(server.url(path));
    await waitFor(() => sourceOf(id), { what: 'failing', until: (source) => source?.state === 'failing' && source.failures >= 2 });
    publish(path, 'rss', [1, 2, 3].map((n) => ({ id: `l-${n}`, title: `Item ${n}`, published: at(100 - n) })));
    await listening(id);
    expect(t.core.store.sourceState.entries(id, 'seen:').size).toBe(3);
    expect(await runsOf(id)).toEqual([]);
  });
});

describe('the preview', () => {
  it("lists the items of the last 24 h, newest first, or the newest few when the feed gives no dates", async () => {
    publish('/preview.xml', 'rss', [
      { id: 'p-1', title: 'Two days old', published: at(48 * 60) },
      { id: 'p-2', title: 'This morning', published: at(120) },
      { id: 'p-3', title: 'Just now', published: at(1) },
    ]);
    const response = await t.api('POST', '/api/automations/preview', { trigger: { feed: { url: server.url('/preview.xml') } } });
    expect(response.status, response.text).toBe(200);
    expect(response.body.events.map((event: { summary: string }) => event.summary)).toEqual(['New in The rss feed: "Just now"', 'New in The rss feed: "This morning"']);

    publish('/undated.json', 'json', Array.from({ length: 8 }, (_, n) => ({ id: `u-${n}`, title: `Undated ${n}` })));
    const undated = await t.api('POST', '/api/automations/preview', { trigger: { feed: { url: server.url('/undated.json') } } });
    expect(undated.body.events.map((event: { key: string }) => event.key)).toEqual(['u-7', 'u-6', 'u-5', 'u-4', 'u-3']);
  });

  it('says why a feed cannot be read', async () => {
    const response = await t.api('POST', '/api/automations/preview', { trigger: { feed: { url: server.url('/nothing-here') } } });
    expect(response.status).toBe(502);
    expect(response.body.error).toMatchObject({ code: 'source_unreachable', message: `${server.url('/nothing-here')} answered 404 Not Found` });
  });
});

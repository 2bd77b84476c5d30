// Where a feed trigger may lead Steward: the host the user named (here 127.0.0.1 at the feed
// server's port), and from there only the internet. Probed through a real core, by the automation's
// source and by the preview: a public-looking name that resolves to this machine, redirects to
// another port of this machine in every spelling, to cloud metadata and to the LAN, Steward's own
// port; a second feed server counts what reached it, so a refusal is proved to be one, not a failed
// connection. A server that accepts and never answers is failing within the fetch's 20 s.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { type TestCore, startTestCore } from '../support/core';
import { type FeedServer, contentTypes, feedText, startFeedServer } from '../support/feed-server';
import { type HostNames, addHostNames } from '../support/hosts-file';
import { waitFor } from '../support/wait';

let t: TestCore;
let named: FeedServer;
let other: FeedServer;
let hosts: HostNames;

const feed = { body: feedText('rss', 'Reachable', [{ id: 'r-1', title: 'An item', published: new Date().toISOString() }]), type: contentTypes.rss };

beforeAll(async () => {
  [named, other] = await Promise.all([startFeedServer(), startFeedServer()]);
  named.routes.set('/feed.xml', feed);
  other.routes.set('/feed.xml', feed);
  hosts = await addHostNames({ loopback: '127.0.0.1', lan: '10.20.30.40' });
  t = await startTestCore({ clock: systemClock, sourceBackoffMs: () => 200 });
});
afterAll(async () => {
  await t?.close();
  await Promise.all([named?.close(), other?.close()]);
  hosts?.remove();
});

/** Makes `path` on the named server redirect (302) to `location`. */
function redirect(path: string, location: string): string {
  named.routes.set(path, (_request, response) => response.writeHead(302, { location }).end());
  return named.url(path);
}

const preview = (url: string) => t.api('POST', '/api/automations/preview', { trigger: { feed: { url } } });

let made = 0;
async function failingWith(url: string): Promise<string> {
  const created = await t.api('POST', '/api/automations', { name: `reach ${++made}`, prompt: '{{event.title}}', trigger: { feed: { url } } });
  expect(created.status, created.text).toBe(201);
  const id = created.body.automation.id as string;
  const source = await waitFor(async () => (await t.api('GET', `/api/automations/${id}`)).body.automation.source, { what: 'the source to fail', until: (found) => found?.state === 'failing' && found.failures >= 2 });
  return source.error as string;
}

describe('the host the user named', () => {
  it('is reached on this machine at the port named', async () => {
    const response = await preview(named.url('/feed.xml'));
    expect(response.status, response.text).toBe(200);
    expect(response.body.events).toHaveLength(1);
  });

  it('is followed through redirects that stay with it (another path, another spelling of this machine at the same port)', async () => {
    // This machine at the port named is the service the user named, whichever name leads there.
    const sameService = ['/feed.xml', named.url('/feed.xml'), `http://localhost:${named.port}/feed.xml`, `http://[::ffff:127.0.0.1]:${named.port}/feed.xml`, `http://${hosts.names.loopback}:${named.port}/feed.xml`];
    for (const location of sameService) {
      const response = await preview(redirect('/same', location));
      expect(response.status, `${location}: ${response.text}`).toBe(200);
    }
    // Five hops are followed; a sixth is one too many.
    for (let hop = 1; hop <= 5; hop++) redirect(`/hop${hop}`, hop === 5 ? '/feed.xml' : `/hop${hop + 1}`);
    expect((await preview(named.url('/hop1'))).status).toBe(200);
    redirect('/hop0', '/hop1');
    const tooMany = await preview(named.url('/hop0'));
    expect(tooMany.body.error.message).toBe(`${named.url('/hop0')} redirects more than 5 times`);
  });
});

describe('anything else on this machine, the LAN or cloud metadata', () => {
  it('a public-looking name that resolves to this machine is refused before any connection', async () => {
    const url = `http://${hosts.names.loopback}:${named.port}/by-name.xml`;
    named.routes.set('/by-name.xml', feed);
    const error = await failingWith(url);
    expect(error).toBe(`Steward will not connect to ${hosts.names.loopback}:${named.port}: it resolves to 127.0.0.1: this machine, which a source reaches only when you name it as such (127.0.0.1, localhost or [::1]) with its port`);
    expect(named.hitsOf('/by-name.xml')).toEqual([]);
  });

  it('a redirect to another port of this machine is refused, in every spelling, and reaches nothing', async () => {
    const q = other.port;
    const decoys = [
      `http://127.0.0.1:${q}/feed.xml`,
      `http://localhost:${q}/feed.xml`,
      `http://127.1:${q}/feed.xml`,
      `http://2130706433:${q}/feed.xml`,
      `http://0x7f000001:${q}/feed.xml`,
      `http://0.0.0.0:${q}/feed.xml`,
      `http://[::1]:${q}/feed.xml`,
      `http://[::ffff:127.0.0.1]:${q}/feed.xml`,
      `http://feed.localhost:${q}/feed.xml`,
      `http://${hosts.names.loopback}:${q}/feed.xml`,
    ];
    const reachedBefore = named.hitsOf('/feed.xml').length;
    for (const location of decoys) {
      const response = await preview(redirect('/decoy', location));
      expect(response.status, location).toBe(502);
      expect(response.body.error.message, location).toMatch(new RegExp(`^${named.url('/decoy').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} redirects to \\S+: Steward will not connect to \\S+: it (is|resolves to 127\\.0\\.0\\.1:) this machine, which a source reaches only when you name it as such`));
    }
    expect(other.hits).toEqual([]);
    expect(named.hitsOf('/feed.xml')).toHaveLength(reachedBefore);
  });

  it("a redirect to cloud metadata or the LAN is refused, and the source says so", async () => {
    expect(await failingWith(redirect('/metadata', 'http://169.254.169.254/latest/meta-data/'))).toBe(
      `${named.url('/metadata')} redirects to http://169.254.169.254/latest/meta-data/: Steward will not connect to 169.254.169.254:80: it is a link-local address (cloud metadata among them), which Steward never reaches`,
    );
    for (const location of ['http://[::ffff:a9fe:a9fe]/', 'http://2852039166/', 'http://[fe80::1]/']) {
      expect((await preview(redirect('/metadata2', location))).body.error.message, location).toMatch(/link-local address \(cloud metadata among them\), which Steward never reaches$/);
    }
    for (const location of ['http://10.20.30.40/feed.xml', `http://${hosts.names.lan}/feed.xml`, 'http://192.168.0.1/', 'http://[fd00::1]/']) {
      expect((await preview(redirect('/lan', location))).body.error.message, location).toMatch(/local-network address, which a source reaches only when it is the host you named$/);
    }
  });

  it("Steward's own port is refused, named or redirected to", async () => {
    const stewardPort = new URL(t.url).port;
    expect(await failingWith(`${t.url}/api/health`)).toBe(`Steward will not connect to 127.0.0.1:${stewardPort}: it is Steward's own port`);
    for (const location of [`${t.url}/api/health`, `http://localhost:${stewardPort}/api/health`, `http://[::1]:${stewardPort}/`]) {
      expect((await preview(redirect('/steward', location))).body.error.message, location).toMatch(/this machine|Steward's own port/);
    }
  });
});

describe('a server that accepts and never answers', () => {
  it('is failing once the fetch has waited 20 s (well within three liveness intervals)', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as net.AddressInfo).port;
      const created = await t.api('POST', '/api/automations', { name: 'silent', prompt: '{{event.title}}', trigger: { feed: { url: `http://127.0.0.1:${port}/feed.xml` } } });
      const id = created.body.automation.id as string;
      const startedAt = Date.now();
      const source = await waitFor(async () => (await t.api('GET', `/api/automations/${id}`)).body.automation.source, { what: 'the silent feed to fail', timeoutMs: 60_000, intervalMs: 250, until: (found) => found?.state === 'failing' });
      expect(source.error).toBe(`http://127.0.0.1:${port}/feed.xml did not answer within 20 s`);
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(19_000);
      expect(sockets.size).toBeGreaterThanOrEqual(1);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  }, 90_000);
});

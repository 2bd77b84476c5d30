// One fetch of a feed (fetchFeed) against real servers on 127.0.0.1: bounded in time (a server that
// never answers, or stops half way through the body), in size (a big answer, and a small gzip that
// unpacks to gigabytes), decoded from gzip, deflate and brotli and from the charset it names;
// conditional headers sent; an abort ends it as an abort, not as a failure.
import http from 'node:http';
import net from 'node:net';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchFeed } from '../../src/main/core/sources/kinds/feed-fetch';
import { reachFor } from '../../src/main/core/sources/source-reach';

const reach = (host: string, port: number, named: { host: string; port: number }) => reachFor(host, port, named, undefined);
const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

async function serve(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/feed.xml`;
}

const rss = (title: string) => `<?xml version="1.0"?><rss version="2.0"><channel><title>${title}</title><item><guid>1</guid><title>One</title></item></channel></rss>`;
const signal = () => new AbortController().signal;

describe('time', () => {
  it('gives up on a server that accepts and never answers, saying how long it waited', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    closers.push(() => {
      for (const socket of sockets) socket.destroy();
      silent.close();
    });
    const url = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}/feed.xml`;
    const startedAt = Date.now();
    await expect(fetchFeed(url, { reach, signal: signal(), timeoutMs: 1000 })).rejects.toThrow(`${url} did not answer within 1 s`);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(900);
    expect(sockets).toHaveLength(1);
  });

  it('gives up on a body that stops coming', async () => {
    const url = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/rss+xml' });
      response.write('<?xml version="1.0"?><rss version="2.0"><channel>');
    });
    await expect(fetchFeed(url, { reach, signal: signal(), timeoutMs: 1000 })).rejects.toThrow('did not answer within 1 s');
  });

  it('ends with the abort when its signal aborts, not as a failure of the feed', async () => {
    const url = await serve(() => undefined);
    const controller = new AbortController();
    const fetching = fetchFeed(url, { reach, signal: controller.signal, timeoutMs: 10_000 });
    const reason = new Error('stopped');
    setTimeout(() => controller.abort(reason), 100);
    await expect(fetching).rejects.toBe(reason);
  });
});

describe('size', () => {
  it('refuses an answer larger than the cap, by its Content-Length or as it streams', async () => {
    const big = 'x'.repeat(2000);
    const declared = await serve((_request, response) => response.writeHead(200, { 'content-length': String(big.length) }).end(big));
    await expect(fetchFeed(declared, { reach, signal: signal(), maxBytes: 1000 })).rejects.toThrow(/could not be read: it is larger than/);
    const streamed = await serve((_request, response) => {
      response.writeHead(200, { 'transfer-encoding': 'chunked' });
      for (let i = 0; i < 20; i++) response.write('y'.repeat(100));
      response.end();
    });
    await expect(fetchFeed(streamed, { reach, signal: signal(), maxBytes: 1000 })).rejects.toThrow(/it is larger than/);
  });

  it('refuses a small gzip that unpacks past 5 MB, without unpacking it all', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(200_000);
    const url = await serve((_request, response) => response.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/rss+xml' }).end(bomb));
    await expect(fetchFeed(url, { reach, signal: signal() })).rejects.toThrow(/it is larger than 5 MB/);
  });
});

describe('encodings', () => {
  it.each(['gzip', 'deflate', 'br'] as const)('reads a %s body', async (encoding) => {
    const body = rss('Packed');
    const packed = encoding === 'gzip' ? zlib.gzipSync(body) : encoding === 'deflate' ? zlib.deflateSync(body) : zlib.brotliCompressSync(body);
    let asked: string | undefined;
    const url = await serve((request, response) => {
      asked = request.headers['accept-encoding'];
      response.writeHead(200, { 'content-encoding': encoding }).end(packed);
    });
    const result = await fetchFeed(url, { reach, signal: signal() });
    expect(asked).toBe('gzip, deflate, br');
    expect(result).toMatchObject({ status: 'ok', body });
  });

  it('says so when the encoding is broken', async () => {
    const url = await serve((_request, response) => response.writeHead(200, { 'content-encoding': 'gzip' }).end('not gzip at all'));
    await expect(fetchFeed(url, { reach, signal: signal() })).rejects.toThrow(/its gzip encoding is broken/);
  });

  it('decodes the charset the Content-Type or the XML declaration names', async () => {
    const latin = Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><rss version="2.0"><channel><title>Caf\xe9</title></channel></rss>', 'latin1');
    const declared = await serve((_request, response) => response.writeHead(200, { 'content-type': 'application/rss+xml' }).end(latin));
    expect(await fetchFeed(declared, { reach, signal: signal() })).toMatchObject({ body: expect.stringContaining('<title>Café</title>') });
    const header = await serve((_request, response) => response.writeHead(200, { 'content-type': 'text/xml; charset=windows-1252' }).end(Buffer.from('<rss version="2.0"><channel><title>\x93quoted\x94</title></channel></rss>', 'latin1')));
    expect(await fetchFeed(header, { reach, signal: signal() })).toMatchObject({ body: expect.stringContaining('<title>“quoted”</title>') });
  });
});

describe('conditional requests', () => {
  it('sends If-None-Match and If-Modified-Since, and reads 304 as not modified, keeping validators the 304 leaves out', async () => {
    const seen: http.IncomingHttpHeaders[] = [];
    const url = await serve((request, response) => {
      seen.push(request.headers);
      response.writeHead(304, { etag: '"b"' }).end();
    });
    const result = await fetchFeed(url, { reach, signal: signal(), etag: '"a"', lastModified: 'Fri, 27 Nov 2026 10:00:00 GMT' });
    expect(seen[0]).toMatchObject({ 'if-none-match': '"a"', 'if-modified-since': 'Fri, 27 Nov 2026 10:00:00 GMT' });
    expect(result).toEqual({ status: 'not-modified', etag: '"b"', lastModified: 'Fri, 27 Nov 2026 10:00:00 GMT' });
  });

  it('reads ETag and Last-Modified from a full answer', async () => {
    const url = await serve((_request, response) => response.writeHead(200, { etag: 'W/"x"', 'last-modified': 'Thu, 26 Nov 2026 10:00:00 GMT' }).end(rss('T')));
    expect(await fetchFeed(url, { reach, signal: signal() })).toMatchObject({ status: 'ok', etag: 'W/"x"', lastModified: 'Thu, 26 Nov 2026 10:00:00 GMT' });
  });
});

describe('answers that are not a feed', () => {
  it('names the status and the redirect that led there', async () => {
    const url = await serve((request, response) => {
      if (request.url === '/feed.xml') response.writeHead(301, { location: '/moved.xml' }).end();
      else response.writeHead(410).end();
    });
    await expect(fetchFeed(url, { reach, signal: signal() })).rejects.toThrow(`${url} (redirected to ${url.replace('feed.xml', 'moved.xml')}) answered 410 Gone`);
  });

  it('refuses a redirect to a scheme other than http(s)', async () => {
    const url = await serve((_request, response) => response.writeHead(302, { location: 'file:///etc/passwd' }).end());
    await expect(fetchFeed(url, { reach, signal: signal() })).rejects.toThrow(`${url} redirects to file: URL, which is not http or https`);
  });

  it('says when nothing listens', async () => {
    const url = await serve(() => undefined);
    closers.pop()!();
    await expect(fetchFeed(url, { reach, signal: signal() })).rejects.toThrow(/could not be fetched: nothing answers at 127\.0\.0\.1:\d+ \(connection refused\)/);
  });
});

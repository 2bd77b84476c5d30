// A feed publisher for tests: a real HTTP server on 127.0.0.1 whose feeds (RSS 2.0, Atom, JSON Feed)
// the test changes as it goes, answering conditional requests with 304 when asked to, and counting
// every request so that a test can tell what reached it (and that a refused one never did).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestItem {
  id: string;
  title: string;
  link?: string;
  /** ISO; absent for an undated item. */
  published?: string;
  html?: string;
  author?: string;
  categories?: string[];
}

export type Format = 'rss' | 'atom' | 'json';

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Newest first, as feeds list them. */
export function feedText(format: Format, title: string, items: readonly TestItem[]): string {
  const listed = [...items].reverse();
  if (format === 'json') {
    return JSON.stringify({
      version: 'https://jsonfeed.org/version/1.1',
      title,
      items: listed.map((item) => ({ id: item.id, url: item.link, title: item.title, content_html: item.html, date_published: item.published, authors: item.author ? [{ name: item.author }] : undefined, tags: item.categories })),
    });
  }
  if (format === 'atom') {
    const entries = listed.map((item) =>
      [
        '<entry>',
        `<id>${xml(item.id)}</id><title>${xml(item.title)}</title>`,
        item.link ? `<link rel="alternate" href="${xml(item.link)}"/>` : '',
        item.published ? `<published>${item.published}</published><updated>${item.published}</updated>` : '',
        item.author ? `<author><name>${xml(item.author)}</name></author>` : '',
        (item.categories ?? []).map((category) => `<category term="${xml(category)}"/>`).join(''),
        item.html ? `<content type="html">${xml(item.html)}</content>` : '',
        '</entry>',
      ].join(''),
    );
    return `<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><title>${xml(title)}</title><id>urn:test:${xml(title)}</id><updated>2026-01-01T00:00:00Z</updated>${entries.join('\n')}</feed>`;
  }
  const entries = listed.map((item) =>
    [
      '<item>',
      `<guid isPermaLink="false">${xml(item.id)}</guid><title>${xml(item.title)}</title>`,
      item.link ? `<link>${xml(item.link)}</link>` : '',
      item.published ? `<pubDate>${new Date(item.published).toUTCString()}</pubDate>` : '',
      item.author ? `<dc:creator>${xml(item.author)}</dc:creator>` : '',
      (item.categories ?? []).map((category) => `<category>${xml(category)}</category>`).join(''),
      item.html ? `<description><![CDATA[${item.html}]]></description>` : '',
      '</item>',
    ].join(''),
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>${xml(title)}</title><link>http://example.org/</link><description>test</description>\n${entries.join('\n')}\n</channel></rss>`;
}

export const contentTypes: Record<Format, string> = { rss: 'application/rss+xml; charset=utf-8', atom: 'application/atom+xml; charset=utf-8', json: 'application/feed+json' };

/** What a path answers: a body with its type (and ETag when conditional), or a handler of its own. */
export type Route = { body: string; type: string; etag?: string } | ((request: http.IncomingMessage, response: http.ServerResponse) => void);

export interface Hit {
  path: string;
  conditional: boolean;
  status: number;
}

export interface FeedServer {
  port: number;
  url(path: string): string;
  routes: Map<string, Route>;
  hits: Hit[];
  hitsOf(path: string): Hit[];
  close(): Promise<void>;
}

export async function startFeedServer(): Promise<FeedServer> {
  const routes = new Map<string, Route>();
  const hits: Hit[] = [];
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const conditional = request.headers['if-none-match'] !== undefined || request.headers['if-modified-since'] !== undefined;
    const hit: Hit = { path, conditional, status: 0 };
    hits.push(hit);
    response.on('finish', () => (hit.status = response.statusCode));
    const route = routes.get(path);
    if (route === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    } else if (typeof route === 'function') {
      route(request, response);
    } else if (route.etag !== undefined && request.headers['if-none-match'] === route.etag) {
      response.writeHead(304, { etag: route.etag }).end();
    } else {
      response.writeHead(200, { 'content-type': route.type, ...(route.etag === undefined ? {} : { etag: route.etag }) }).end(route.body);
    }
  });
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    routes,
    hits,
    hitsOf: (path) => hits.filter((hit) => hit.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

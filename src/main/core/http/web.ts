// The daemon as a web app: the renderer's built files, the one-time login link that opens a
// browser session, and the guard that keeps other sites and DNS rebinding away from the
// management API.
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../../shared/errors';
import type { Services } from '../compose-services';
import { sessionCookie, sessionLifetimeMs } from '../services/web-access';

const loopbackNames = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};

/** The page's policy: its own scripts only; images may be avatars from https or data: URLs. */
export const contentSecurityPolicy =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

const pageHeaders = {
  'content-security-policy': contentSecurityPolicy,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

export interface WebOptions {
  /** The built renderer (out/renderer); undefined: no UI is served. */
  webRoot: string | undefined;
  /** Host names besides loopback ones that may reach the API (the daemon behind a LAN name). */
  allowedHosts: readonly string[];
}

function hostName(host: string): string {
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0];
}

/**
 * Refuses, for everything but the public paths (isPublicPath): a Host that is not a
 * loopback name, a *.localhost name or a configured host (a DNS-rebinding page has its own name
 * in Host), and a browser request from another origin (Origin, or Sec-Fetch-Site: cross-site).
 */
export function guardRequest(request: FastifyRequest, allowedHosts: readonly string[]): void {
  const host = request.headers.host ?? '';
  const name = hostName(host).toLowerCase();
  if (!loopbackNames.has(name) && !name.endsWith('.localhost') && !allowedHosts.includes(name)) {
    throw new AppError('forbidden_host', `Requests for host "${name}" are refused; start Steward with --allowed-host ${name || 'NAME'} to allow it.`);
  }
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== `http://${host}` && origin !== `https://${host}`) {
    throw new AppError('cross_origin', 'Cross-origin requests to the management API are refused.');
  }
  if (request.headers['sec-fetch-site'] === 'cross-site') throw new AppError('cross_origin', 'Cross-site requests to the management API are refused.');
}

/** One approval's decision link, exactly: GET or POST /api/approvals/links/{token} (a base64url token). */
const approvalLinkUrl = /^\/api\/approvals\/links\/[A-Za-z0-9_-]+\/?(?:\?[^/]*)?$/;

/**
 * The public paths, which the guard leaves alone: a URL whose own secret token is its credential
 * and which uses no cookie. Trigger URLs (any sender may call them), and an approval's decision
 * link, whose page sends no referrer, so a phone's form POST from it carries `Origin: null`.
 */
export function isPublicPath(method: string, url: string): boolean {
  if (url.startsWith('/api/webhooks/trigger/')) return true;
  return (method === 'GET' || method === 'POST') && approvalLinkUrl.test(url);
}

function textPage(title: string, body: string): string {
  return `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:system-ui;max-width:36rem;margin:4rem auto;line-height:1.5"><h1>${title}</h1><p>${body}</p></body>`;
}

function isFileInside(root: string, urlPath: string): boolean {
  const file = path.resolve(root, `.${urlPath}`);
  return file.startsWith(path.resolve(root) + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile();
}

/** The app's icon (resources/icons/icon.svg), for browsers that ask for /favicon.ico. */
const favicon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1024 1024"><defs><linearGradient id="tile" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="rgb(99,102,241)"/><stop offset="1" stop-color="rgb(67,56,202)"/></linearGradient></defs><rect x="81.9" y="81.9" width="860.2" height="860.2" rx="204.8" fill="url(#tile)"/><circle cx="512" cy="512" r="276.5" fill="none" stroke="#fff" stroke-width="71.7"/><polygon points="445.4,378.9 445.4,645.1 660.5,512" fill="#fff" stroke="#fff" stroke-width="41" stroke-linejoin="round"/></svg>`;

export function registerWeb(app: FastifyInstance, services: Services, options: WebOptions): void {
  app.addHook('onRequest', async (request) => {
    if (!isPublicPath(request.method, request.url)) guardRequest(request, options.allowedHosts);
  });

  app.get('/login', async (request, reply) => {
    const token = (request.query as Record<string, unknown>).token;
    const session = typeof token === 'string' ? services.access.redeem(token) : undefined;
    if (!session) {
      return reply
        .code(401)
        .headers(pageHeaders)
        .type('text/html; charset=utf-8')
        .send(textPage('This login link does not work', 'It was used already, or it is older than 10 minutes. Run <code>steward login-link</code> (<code>npm run cli -- login-link</code> in a checkout), or restart the daemon, for a new one.'));
    }
    const secure = request.protocol === 'https' ? '; Secure' : '';
    return reply
      .code(303)
      .header('set-cookie', `${sessionCookie}=${session}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${sessionLifetimeMs / 1000}${secure}`)
      .header('cache-control', 'no-store')
      .redirect('/');
  });

  app.post('/logout', async (request, reply) => {
    services.access.endSession(request.headers.cookie);
    return reply.code(303).header('set-cookie', `${sessionCookie}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`).redirect('/');
  });

  // A management UI on this machine is nobody's to index.
  app.get('/robots.txt', { exposeHeadRoute: true }, async (_request, reply) => reply.header('cache-control', 'public, max-age=86400').type('text/plain; charset=utf-8').send('User-agent: *\nDisallow: /\n'));
  app.get('/favicon.ico', { exposeHeadRoute: true }, async (_request, reply) => reply.header('cache-control', 'public, max-age=86400').type('image/svg+xml').send(favicon));

  const root = options.webRoot;
  app.get('/*', { exposeHeadRoute: true }, async (request, reply) => {
    const urlPath = decodeURIComponent(request.url.split('?')[0]);
    if (urlPath.startsWith('/api/')) throw new AppError('not_found', `No route for ${request.method} ${urlPath}.`);
    // A file that is not there is a 404, not the page: only routes of the page (no extension) are the page.
    if (path.extname(urlPath) !== '' && !(root && isFileInside(root, urlPath))) throw new AppError('not_found', `No file ${urlPath}.`);
    if (!root || !fs.existsSync(path.join(root, 'index.html'))) {
      return reply.code(404).headers(pageHeaders).type('text/html; charset=utf-8').send(textPage('The web UI is not built', 'Run <code>npm run build</code>, or start Steward with <code>npm run serve</code>, which builds it.'));
    }
    const target = path.extname(urlPath) !== '' ? path.resolve(root, `.${urlPath}`) : path.join(root, 'index.html');
    if (target.endsWith('index.html') && !services.access.hasSession(request.headers.cookie)) {
      return reply.code(401).headers(pageHeaders).type('text/html; charset=utf-8').send(textPage('Open Steward with its login link', '<code>steward serve</code> (<code>npm run serve</code>) prints a one-time login link when it starts; <code>steward login-link</code> (<code>npm run cli -- login-link</code>) makes a new one.'));
    }
    const headers = target.endsWith('index.html') ? pageHeaders : { ...pageHeaders, 'cache-control': 'public, max-age=31536000, immutable' };
    return reply.headers(headers).type(contentTypes[path.extname(target)] ?? 'application/octet-stream').send(fs.readFileSync(target));
  });
}

// The daemon as a web app: one-time login links, the session cookie, the UI's files, and the
// guard against other sites and DNS rebinding (checked with raw HTTP, since fetch cannot forge Host).
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core';
import { silentLogger } from '../../src/main/core/logger';
import { ManualClock } from '../support/clock';
import { tempDir } from '../support/core';

let core: Core;
let dataDir: string;
let webRoot: string;
const clock = new ManualClock(new Date('2026-11-21T10:00:00.000Z'));

beforeAll(async () => {
  dataDir = tempDir();
  webRoot = tempDir('steward-web-');
  fs.mkdirSync(path.join(webRoot, 'assets'));
  fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>Steward UI</title>');
  fs.writeFileSync(path.join(webRoot, 'assets/app.js'), 'console.log("ui")');
  core = await createCore({ dataDir, port: 0, logger: silentLogger(), clock, webRoot, allowedHosts: ['steward.lan'] });
});
afterAll(async () => {
  await core.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(webRoot, { recursive: true, force: true });
});

function raw(pathName: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const { port } = new URL(core.url);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path: pathName, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

async function login(): Promise<string> {
  const token = core.services.access.createLoginToken();
  const response = await raw(`/login?token=${token}`);
  expect(response.status).toBe(303);
  expect(response.headers.location).toBe('/');
  const cookie = response.headers['set-cookie']![0];
  expect(cookie).toMatch(/^steward_session=[\w-]+; HttpOnly; SameSite=Strict; Path=\/; Max-Age=2592000$/);
  return cookie.split(';')[0];
}

describe('login links and sessions', () => {
  it('a login link opens a session once; the session reaches the API and the UI', async () => {
    const token = core.services.access.createLoginToken();
    const first = await raw(`/login?token=${token}`);
    expect(first.status).toBe(303);
    const again = await raw(`/login?token=${token}`);
    expect(again.status).toBe(401);
    expect(again.body).toContain('This login link does not work');

    const cookie = first.headers['set-cookie']![0].split(';')[0];
    expect((await raw('/api/automations', { cookie })).status).toBe(200);
    const page = await raw('/', { cookie });
    expect(page.status).toBe(200);
    expect(page.body).toContain('Steward UI');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect((await raw('/assets/app.js', { cookie })).headers['content-type']).toBe('text/javascript; charset=utf-8');
    // A deep link serves the app; a path that leaves the folder does not.
    expect((await raw('/runs/run_x', { cookie })).body).toContain('Steward UI');
    expect((await raw('/assets/..%2f..%2fsteward.db', { cookie })).body).not.toContain('SQLite');
    // A malformed URL is refused before any route, as a JSON error.
    const malformed = await raw('/%E0%A4%A', { cookie });
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.body)).toEqual({ error: { code: 'invalid_url', message: 'The URL is not valid percent-encoding.' } });
    expect((await raw('/api/automations/%E0%A4%A', { cookie })).status).toBe(400);
  });

  it('without a session: the API says 401, the page says how to log in; links expire after 10 minutes', async () => {
    expect((await raw('/api/automations')).status).toBe(401);
    expect((await raw('/api/automations', { cookie: 'steward_session=forged' })).status).toBe(401);
    const page = await raw('/');
    expect(page.status).toBe(401);
    expect(page.body).toContain('login link');
    const token = core.services.access.createLoginToken();
    clock.advance(10 * 60 * 1000 + 1);
    expect((await raw(`/login?token=${token}`)).status).toBe(401);
  });

  it('logout ends the session', async () => {
    const cookie = await login();
    expect((await raw('/logout', { cookie }, 'POST')).status).toBe(303);
    expect((await raw('/api/automations', { cookie })).status).toBe(401);
  });
});

describe('the guard', () => {
  it('refuses hosts that are not loopback, *.localhost or configured (DNS rebinding)', async () => {
    const cookie = await login();
    for (const host of ['evil.example', 'evil.example:7321', '192.168.1.20', 'localhost.evil.example']) {
      const response = await raw('/api/automations', { host, cookie });
      expect(response.status, host).toBe(403);
      expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'forbidden_host' } });
    }
    for (const host of ['localhost', 'localhost:1', '[::1]:7321', 'steward.localhost', 'steward.lan:7321']) {
      expect((await raw('/api/automations', { host, cookie })).status, host).toBe(200);
    }
  });

  it('refuses cross-origin browser requests, allows same-origin ones, and never guards trigger URLs', async () => {
    const cookie = await login();
    const { port } = new URL(core.url);
    const crossOrigin = await raw('/api/automations', { cookie, origin: 'http://evil.example' });
    expect(crossOrigin.status).toBe(403);
    expect(JSON.parse(crossOrigin.body)).toMatchObject({ error: { code: 'cross_origin' } });
    expect((await raw('/api/automations', { cookie, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await raw('/api/automations', { cookie, origin: `http://127.0.0.1:${port}` })).status).toBe(200);
    const { webhook } = (await core.dispatch('webhooks.create', { body: { name: 'public', promptTemplate: '{{payload}}' } })) as { webhook: { token: string } };
    expect((await raw(`/api/webhooks/trigger/${webhook.token}`, { host: 'abc.trycloudflare.com', origin: 'https://github.com' })).status).toBe(202);
  });
});

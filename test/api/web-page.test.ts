// What a browser and a crawler ask of the web page beside the UI: robots.txt (nothing to index),
// a favicon (the app's icon), a 404 for a file that is not there (not the page with a 200), and
// HEAD for every route that only reads, but never one that acts (a trigger, a login link).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Core, createCore } from '../../src/main/core';
import { silentLogger } from '../../src/main/core/logger';
import { ManualClock } from '../support/clock';
import { tempDir } from '../support/core';

let core: Core;
let dataDir: string;
let webRoot: string;

beforeAll(async () => {
  dataDir = tempDir();
  webRoot = tempDir('steward-web-');
  fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>Steward UI</title>');
  core = await createCore({ dataDir, port: 0, logger: silentLogger(), clock: new ManualClock(new Date()), webRoot });
});
afterAll(async () => {
  await core.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(webRoot, { recursive: true, force: true });
});

function raw(pathName: string, method = 'GET'): Promise<{ status: number; type: string; body: string }> {
  const { port } = new URL(core.url);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path: pathName, method }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode!, type: String(response.headers['content-type']), body }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('the web page', () => {
  it('asks not to be indexed, and has the app icon as its favicon', async () => {
    expect(await raw('/robots.txt')).toEqual({ status: 200, type: 'text/plain; charset=utf-8', body: 'User-agent: *\nDisallow: /\n' });
    const icon = await raw('/favicon.ico');
    expect(icon).toMatchObject({ status: 200, type: 'image/svg+xml' });
    const source = fs.readFileSync(path.resolve(import.meta.dirname, '../../resources/icons/icon.svg'), 'utf8');
    expect(icon.body.replace(/\s+/g, '')).toBe(source.replace(/\s+/g, ''));
  });

  it('answers a file that is not there with 404 in the error shape, not with the page', async () => {
    const missing = await raw('/assets/missing.js');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toEqual({ error: { code: 'not_found', message: 'No file /assets/missing.js.' } });
    // A route of the page is the page (here: its login notice, without a session).
    expect((await raw('/automations')).status).toBe(401);
  });

  it('answers HEAD where GET only reads, and never where GET acts', async () => {
    for (const route of ['/', '/robots.txt', '/api/health', '/api/openapi.json']) {
      const [get, head] = [await raw(route), await raw(route, 'HEAD')];
      expect({ route, status: head.status, body: head.body }).toEqual({ route, status: get.status, body: '' });
    }
    const { key } = core.services.apiKeys.create('test');
    const created = await fetch(`${core.url}/api/webhooks`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'hook', promptTemplate: 'x {{payload}}' }) });
    const { webhook } = (await created.json()) as { webhook: { id: string; token: string } };
    expect((await raw(`/api/webhooks/trigger/${webhook.token}`, 'HEAD')).status).toBe(404);
    const runs = await fetch(`${core.url}/api/runs?sourceId=${webhook.id}`, { headers: { authorization: `Bearer ${key}` } });
    expect(((await runs.json()) as { runs: unknown[] }).runs).toEqual([]);
    // A HEAD of a login link does not spend it: the GET after it still logs in.
    const token = core.services.access.createLoginToken();
    expect((await raw(`/login?token=${token}`, 'HEAD')).status).not.toBe(303);
    expect((await raw(`/login?token=${token}`)).status).toBe(303);
  });
});

describe('the OpenAPI document', () => {
  it('asks for a body only where one is needed: "run now" takes none', async () => {
    const document = (await (await fetch(`${core.url}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, { requestBody?: { required: boolean } }>> };
    expect(document.paths['/api/automations/{id}/run'].post.requestBody?.required).toBe(false);
    expect(document.paths['/api/automations'].post.requestBody?.required).toBe(true);
  });
});

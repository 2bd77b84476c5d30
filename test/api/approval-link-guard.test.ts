// The decision link and the guard, with raw HTTP (fetch cannot send `Origin: null` or forge Host):
// a phone's form POST from the link's no-referrer page carries `Origin: null`, and must decide;
// the link's token is its credential, so exactly GET|POST /api/approvals/links/{token} is left
// unguarded, and every decoy near it (dot segments, the approvals API, other methods, the
// management API with `Origin: null`) stays 403. Every answer on the link path is a page.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core';
import { silentLogger } from '../../src/main/core/logger';
import { ManualClock } from '../support/clock';
import { tempDir } from '../support/core';

let core: Core;
const clock = new ManualClock(new Date('2026-11-21T10:00:00.000Z'));
const phone = { origin: 'null', 'sec-fetch-site': 'cross-site', 'content-type': 'application/x-www-form-urlencoded' };

beforeAll(async () => {
  core = await createCore({ dataDir: tempDir(), port: 0, logger: silentLogger(), clock, webRoot: undefined, allowedHosts: [] });
});
afterAll(async () => {
  await core.close();
});

function raw(pathName: string, headers: Record<string, string> = {}, method = 'GET', body?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const { port } = new URL(core.url);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path: pathName, method, headers: { host: `127.0.0.1:${port}`, ...(body !== undefined && { 'content-length': String(Buffer.byteLength(body)) }), ...headers } }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** A pending run approval's link tokens (the webhook asks before each run). */
async function pendingTokens(): Promise<{ id: string; allow: string; deny: string }> {
  const { instance } = (await core.dispatch('instances.create', { body: { name: `gated ${Math.random()}`, agent: { provider: 'command', preset: 'custom', command: 'echo', args: ['done'] }, sandbox: { mode: 'off', network: [], readDeny: [], writeAllow: [] } } })) as { instance: { id: string } };
  const { webhook } = (await core.dispatch('webhooks.create', { body: { name: 'Deploy', promptTemplate: 'Deploy {{payload}}', instanceId: instance.id, approval: { mode: 'before-run', timeoutSeconds: 3600 } } })) as { webhook: { token: string } };
  const fired = await raw(`/api/webhooks/trigger/${webhook.token}`, { 'content-type': 'text/plain' }, 'POST', 'v2');
  expect(fired.status).toBe(202);
  const runId = (JSON.parse(fired.body) as { run: { id: string } }).run.id;
  const { approvals } = (await core.dispatch('approvals.list', { query: { status: 'pending', runId } })) as { approvals: { id: string; links: { allow: string; deny: string } }[] };
  const token = (link: string) => link.split('/').pop()!;
  return { id: approvals[0].id, allow: token(approvals[0].links.allow), deny: token(approvals[0].links.deny) };
}

describe('the decision link past the guard', () => {
  it("decides with a phone browser's form POST (Origin: null, any Host), once; the second press is the 410 page", async () => {
    const { id, allow, deny } = await pendingTokens();
    const shown = await raw(`/api/approvals/links/${allow}`, { ...phone, host: 'steward.example.org' });
    expect(shown.status).toBe(200);
    expect(shown.headers['content-type']).toContain('text/html');
    expect(shown.headers['content-security-policy']).toContain("default-src 'none'");
    expect(shown.body).toContain('expires in 1 hour, at 11:00 UTC');

    const decided = await raw(`/api/approvals/links/${allow}`, phone, 'POST', '');
    expect(decided.status).toBe(200);
    expect(decided.headers['content-type']).toContain('text/html');
    expect(decided.body).toContain('<h1>Allowed: Start a run of webhook &#34;Deploy&#34;?</h1>');
    expect(decided.body).toContain('Done at 10:00 UTC. The run is queued and starts now.');
    expect(((await core.dispatch('approvals.get', { params: { id } })) as { approval: { status: string; decidedBy: string } }).approval).toMatchObject({ status: 'allowed', decidedBy: 'link' });

    for (const token of [allow, deny]) {
      const again = await raw(`/api/approvals/links/${token}`, phone, 'POST', '');
      expect(again.status).toBe(410);
      expect(again.body).toContain('the request was allowed by a link, less than a minute ago, at 10:00 UTC.');
    }
  });

  it('answers errors on the link path as a page, and takes a form body it does not read', async () => {
    const { deny } = await pendingTokens();
    const badJson = await raw(`/api/approvals/links/${deny}`, { ...phone, 'content-type': 'application/json' }, 'POST', '{');
    expect(badJson.status).toBe(400);
    expect(badJson.headers['content-type']).toContain('text/html');
    expect(badJson.body).toContain('This link could not decide');
    const unknown = await raw(`/api/approvals/links/${'x'.repeat(43)}`, phone, 'POST', '');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toContain('Unknown link');

    const withField = await raw(`/api/approvals/links/${deny}`, phone, 'POST', 'confirm=1');
    expect(withField.status).toBe(200);
    expect(withField.body).toContain('Denied: ');
    expect(withField.body).toContain('The run will not start.');
  });

  it('refuses a decision past the approval\'s time even before its timer fires (a laptop that slept through it)', async () => {
    const first = await pendingTokens();
    const second = await pendingTokens();
    clock.sleepThrough(new Date(clock.now().getTime() + 2 * 3600_000));
    const shown = await raw(`/api/approvals/links/${first.allow}`, phone);
    expect(shown.status).toBe(410);
    expect(shown.body).toContain('Expired: ');
    expect(shown.body).not.toContain('<button');
    const pressed = await raw(`/api/approvals/links/${first.allow}`, phone, 'POST', '');
    expect(pressed.status).toBe(410);
    await expect(core.dispatch('approvals.decide', { params: { id: second.id }, body: { decision: 'allow' } })).rejects.toMatchObject({ code: 'expired' });
    for (const { id } of [first, second]) {
      expect(((await core.dispatch('approvals.get', { params: { id } })) as { approval: { status: string; decidedBy: string } }).approval).toMatchObject({ status: 'expired', decidedBy: 'timeout' });
    }
  });

  it('answers a link that reached no route as a page too: a token too long, bad percent-encoding', async () => {
    for (const path of [`/api/approvals/links/${'a'.repeat(300)}`, '/api/approvals/links/abc%zz']) {
      for (const method of ['GET', 'POST']) {
        const response = await raw(path, phone, method, method === 'POST' ? '' : undefined);
        expect([400, 404], `${method} ${path}`).toContain(response.status);
        expect(response.headers['content-type'], `${method} ${path}`).toContain('text/html');
        expect(response.body, `${method} ${path}`).toContain('No request has this link: check that the whole link was copied.');
      }
    }
    const { deny } = await pendingTokens();
    const shown = await raw(`/api/approvals/links/${deny}`, phone);
    expect(shown.headers['x-frame-options']).toBe('DENY');
    expect(shown.headers['x-content-type-options']).toBe('nosniff');
  });

  it('stays on for every other path, however near: decoys with Origin: null are 403', async () => {
    const { id, allow } = await pendingTokens();
    const cookie = await (async () => {
      const token = core.services.access.createLoginToken();
      const response = await raw(`/login?token=${token}`);
      return response.headers['set-cookie']![0].split(';')[0];
    })();
    const decoys: [string, string][] = [
      ['GET', '/api/instances'],
      ['GET', '/api/approvals'],
      ['GET', `/api/approvals/${id}`],
      ['POST', `/api/approvals/${id}/decision`],
      ['GET', `/api/approvals/links/${allow}/../../instances`],
      ['GET', `/api/approvals/links/x/../../../instances`],
      ['GET', `/api/approvals/links/x%2F..%2F..%2Finstances`],
      ['POST', `/api/approvals/links/${allow}/decision`],
      ['PUT', `/api/approvals/links/${allow}`],
      ['DELETE', `/api/approvals/links/${allow}`],
      ['GET', '/api/approvals/links/'],
    ];
    for (const [method, path] of decoys) {
      const response = await raw(path, { origin: 'null', cookie, 'content-type': 'application/json' }, method, method === 'POST' ? '{"decision":"allow"}' : undefined);
      expect(response.status, `${method} ${path}`).toBe(403);
      // A decoy the link route matches (an encoded slash in the token) is refused as that route's page.
      expect(response.body, `${method} ${path}`).toMatch(/"code":"cross_origin"|Cross-origin requests to the management API are refused/);
    }
    for (const host of ['evil.example', 'evil.example:7321']) {
      expect((await raw('/api/instances', { host, cookie })).status, host).toBe(403);
    }
    expect(((await core.dispatch('approvals.get', { params: { id } })) as { approval: { status: string } }).approval.status).toBe('pending');
  });
});

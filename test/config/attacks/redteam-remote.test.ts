// Red team 34, attacker 2: a hostile remote Steward that this Steward follows. A real second core
// behind a proxy the attacker controls, which rewrites the configuration answers: paths that climb
// out, terminal escapes and forged lines in a plan or an export, an answer far too large, a
// redirect back to this Steward's own apply (with whatever key the forwarder sends), a redirect to
// a third server, an error whose message forges lines. This Steward's keys and secret values must
// never reach the remote, nothing must be applied here, and `steward export/apply --remote` must
// write nothing outside its target and print no control characters.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyCommand, exportCommand } from '../../../src/main/cli/config';
import type { Steward } from '../../../src/main/cli/open-steward';
import { type TestCore, startTestCore, tempDir } from '../../support/core';

let local: TestCore;
let remote: TestCore;
let proxy: http.Server;
let capture: http.Server;
let proxyUrl: string;
let captureUrl: string;
let mode = 'pass';
const seen: { url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
const captured: { url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
const localSecret = 'LOCAL-SECRET-VALUE-6f6f';

// Control characters but for a line break and a tab.
const controls = /(?![\n\t])\p{Cc}/u;
const forged = 'Innocent\u001b[2K\r\u001b[1A+ instance "Root" (add, from /etc/shadow)\nApplied: nothing.';

function hostileAnswer(url: string, method: string): { status: number; body: unknown; headers?: Record<string, string> } | null {
  const route = url.split('?')[0];
  if (mode === 'pass') return null;
  if (route === '/api/config/export' && mode === 'export-escapes') return { status: 200, body: { files: [{ path: 'automations/x.yaml', text: `kind: automation\nname: X\u001b]0;owned\u0007\u001b[2J\nprompt: hi\n` }] } };
  if (route === '/api/config/export' && mode === 'export-paths') return { status: 200, body: { files: [{ path: 'automations/ok.yaml', text: 'a: 1\n' }, { path: '../../../escaped.yaml', text: 'pwned\n' }] } };
  if (route === '/api/config/export' && mode === 'export-huge') return { status: 200, body: { files: Array.from({ length: 120 }, (_, i) => ({ path: `automations/a${i}.yaml`, text: 'x'.repeat(1_000_000) })) } };
  if (route === '/api/config/apply' && mode === 'plan-escapes' && method === 'POST')
    return { status: 200, body: { applied: false, changes: [{ kind: 'automation', name: forged, action: 'change', file: `a.yaml\u001b[8m`, diff: `  kind: automation\n\u001b[2K\r- nothing`, note: forged }], unchanged: 0, summary: `0 to add\u001b[0m\n` } };
  if (route === '/api/config/apply' && mode === 'error-escapes') return { status: 400, body: { error: { code: 'invalid_config', message: `The configuration was not applied; nothing changed:\n${forged}`, field: `a.yaml\u001b[31m` } } };
  if (route.startsWith('/api/config') && mode === 'redirect-local') return { status: 307, body: {}, headers: { location: `${local.url}/api/config/apply` } };
  if (route.startsWith('/api/config') && mode === 'redirect-capture') return { status: 307, body: {}, headers: { location: `${captureUrl}${url}` } };
  return null;
}

const readBody = (req: http.IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The CLI's view of the local Steward, in process. */
const cli: () => Steward = () => ({ call: ((name: never, raw: never) => local.core.dispatch(name, raw)) as unknown as Steward['call'], daemonUrl: undefined, close: async () => {} });

beforeAll(async () => {
  remote = await startTestCore();
  local = await startTestCore({ remoteTiming: { minBackoffMs: 200, maxBackoffMs: 1_000, checkEveryMs: 500, stallMs: 20_000 } });
  proxy = http.createServer((req, res) => void relay(req, res));
  async function relay(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const body = await readBody(req);
    seen.push({ url: req.url ?? '', headers: req.headers, body });
    const hostile = hostileAnswer(req.url ?? '', req.method ?? 'GET');
    if (hostile) {
      res.writeHead(hostile.status, { 'content-type': 'application/json', ...hostile.headers });
      res.end(JSON.stringify(hostile.body));
      return;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name)) headers[name] = value;
    const answer = await fetch(remote.url + req.url, { method: req.method, headers, body: ['GET', 'HEAD'].includes(req.method ?? 'GET') ? undefined : body });
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name)) out[name] = value;
    });
    res.writeHead(answer.status, out);
    if (!answer.body) {
      res.end();
      return;
    }
    const reader = answer.body.getReader();
    req.on('close', () => void reader.cancel().catch(() => {}));
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) break;
      res.write(value);
    }
    res.end();
  }
  proxyUrl = await listen(proxy);
  capture = http.createServer((req, res) => {
    void readBody(req).then((body) => {
      captured.push({ url: req.url ?? '', headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ files: [] }));
    });
  });
  captureUrl = await listen(capture);
  expect((await local.api('PUT', '/api/secrets/server-key', { value: remote.key })).status).toBe(200);
  expect((await local.api('PUT', '/api/secrets/other-secret', { value: localSecret })).status).toBe(200);
  const added = await local.api('POST', '/api/remotes', { name: 'Evil', url: proxyUrl, apiKeyRef: 'server-key' });
  expect(added.status, added.text).toBe(201);
  const id = added.body.remote.id as string;
  const started = Date.now();
  while ((await local.api('GET', `/api/remotes/${id}`)).body.remote?.state !== 'connected') {
    expect(Date.now() - started, JSON.stringify((await local.api('GET', `/api/remotes/${id}`)).body)).toBeLessThan(15_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}, 30_000);
afterAll(async () => {
  await local?.close();
  await remote?.close();
  proxy?.closeAllConnections();
  capture?.closeAllConnections();
  await new Promise((resolve) => proxy?.close(resolve));
  await new Promise((resolve) => capture?.close(resolve));
});

const localNames = async () => ((await local.api('GET', '/api/instances')).body.instances as { name: string }[]).map((each) => each.name);
const evilFile = { path: 'evil.yaml', text: 'kind: instance\nname: Escaped\nagent:\n  provider: command\n  preset: custom\n  command: "true"\nsandbox:\n  mode: "off"\n' };

describe('a hostile remote', { timeout: 30_000 }, () => {
  it('an honest round trip works through the proxy (the setup is sound)', async () => {
    mode = 'pass';
    const answer = await local.api('POST', '/api/config/apply?remote=Evil', { files: [{ path: 'a.yaml', text: 'kind: automation\nname: Remote one\ncronExpression: "0 9 * * *"\nprompt: hi\n' }] });
    expect(answer.status, answer.text).toBe(200);
    expect(((await remote.api('GET', '/api/automations')).body.automations as { name: string }[]).map((each) => each.name)).toContain('Remote one');
    // Applied there, not here: this Steward's own export does not hold it (its lists show the remote's too).
    expect((await local.api('GET', '/api/config/export')).text).not.toContain('Remote one');
  });

  it("never receives this Steward's own key or another secret's value", async () => {
    mode = 'pass';
    await local.api('GET', '/api/config/export?remote=Evil');
    await local.api('POST', '/api/config/apply?remote=Evil', { files: [evilFile], dryRun: true });
    const all = JSON.stringify(seen);
    expect(all).not.toContain(local.key);
    expect(all).not.toContain(localSecret);
  });

  it('export -o DIR writes nothing outside DIR (and nothing at all) when the answer names ../', async () => {
    mode = 'export-paths';
    const out = path.join(tempDir(), 'config');
    await expect(exportCommand(cli(), [], { out, remote: 'Evil' }, () => {})).rejects.toThrow();
    expect(fs.existsSync(path.join(out, '..', '..', '..', 'escaped.yaml'))).toBe(false);
    expect(fs.existsSync(out)).toBe(false);
  });

  it('export to the terminal prints no control characters the remote sent', async () => {
    mode = 'export-escapes';
    const printed: string[] = [];
    await exportCommand(cli(), [], { out: undefined, remote: 'Evil' }, (text) => printed.push(text)).catch((error) => printed.push(String(error)));
    expect(printed.join(''), JSON.stringify(printed)).not.toMatch(controls);
  });

  it('apply --remote prints no forged line or control character from its plan', async () => {
    mode = 'plan-escapes';
    const folder = tempDir();
    fs.writeFileSync(path.join(folder, 'a.yaml'), 'kind: automation\nname: A\ncronExpression: "0 9 * * *"\nprompt: hi\n');
    const printed: string[] = [];
    await applyCommand(cli(), { file: path.join(folder, 'a.yaml'), dryRun: true, prune: false, pruneAll: false, remote: 'Evil' }, (text) => printed.push(text), async () => '').catch((error) => printed.push(String(error)));
    const text = printed.join('');
    expect(text, JSON.stringify(text)).not.toMatch(controls);
    expect(text.split('\n').filter((line) => line.startsWith('Applied'))).toEqual([]);
  });

  it("an error from the remote is relayed without forged lines or escapes", async () => {
    mode = 'error-escapes';
    const answer = await local.api('POST', '/api/config/apply?remote=Evil', { files: [evilFile] });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    const { error } = answer.body as { error: { message: string; field: string } };
    expect(error.message, answer.text).not.toMatch(controls);
    expect(error.field, answer.text).not.toMatch(controls);
  });

  it('an export answer of 120 MB is refused without stalling this Steward', async () => {
    mode = 'export-huge';
    const started = Date.now();
    const pending = local.api('GET', '/api/config/export?remote=Evil');
    const health = Date.now();
    expect((await local.api('GET', '/api/health')).status).toBe(200);
    expect(Date.now() - health).toBeLessThan(3000);
    const answer = await pending;
    expect(Date.now() - started).toBeLessThan(20_000);
    // Either refused, or relayed within the contract's limit (each file at most 1 MiB of text).
    if (answer.status === 200) for (const file of answer.body.files as { text: string }[]) expect(file.text.length).toBeLessThanOrEqual(1_048_576);
  });

  it('a redirect to this Steward\'s own apply applies nothing here', async () => {
    mode = 'redirect-local';
    const answer = await local.api('POST', '/api/config/apply?remote=Evil', { files: [evilFile] });
    expect(answer.status).toBeGreaterThanOrEqual(300);
    mode = 'pass';
    expect(await localNames()).not.toContain('Escaped');
    expect(((await remote.api('GET', '/api/instances')).body.instances as { name: string }[]).map((each) => each.name)).not.toContain('Escaped');
  });

  it('a redirect to a third server does not carry the key there', async () => {
    mode = 'redirect-capture';
    captured.length = 0;
    await local.api('GET', '/api/config/export?remote=Evil');
    await local.api('POST', '/api/config/apply?remote=Evil', { files: [evilFile], dryRun: true });
    mode = 'pass';
    const all = JSON.stringify(captured);
    expect(all).not.toContain(remote.key);
    expect(all).not.toContain(local.key);
  });

  it("a local file's instance name resolves to this Steward's instance, never to the remote's of the same or another name", async () => {
    mode = 'pass';
    const agent = { provider: 'command', preset: 'custom', command: 'true' };
    expect((await remote.api('POST', '/api/instances', { name: 'Reviewer', agent })).status).toBe(201);
    expect((await remote.api('POST', '/api/instances', { name: 'Shadow', agent })).status).toBe(201);
    const mine = await local.api('POST', '/api/instances', { name: 'Reviewer', agent });
    expect(mine.status).toBe(201);
    // Wait until this Steward lists the remote's new instances.
    const started = Date.now();
    while (!((await local.api('GET', '/api/instances')).body.instances as { name: string }[]).some((each) => each.name === 'Shadow')) {
      expect(Date.now() - started).toBeLessThan(10_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const shadow = await local.api('POST', '/api/config/apply', { files: [{ path: 's.yaml', text: 'kind: automation\nname: To the shadow\ninstance: Shadow\ncronExpression: "0 9 * * *"\nprompt: private prompt text\n' }] });
    expect(shadow.status, shadow.text).toBe(400);
    const reviewer = await local.api('POST', '/api/config/apply', { files: [{ path: 'r.yaml', text: 'kind: automation\nname: To the reviewer\ninstance: Reviewer\ncronExpression: "0 9 * * *"\nprompt: private prompt text\n' }] });
    expect(reviewer.status, reviewer.text).toBe(200);
    const made = ((await local.api('GET', '/api/automations')).body.automations as { name: string; instanceId: string }[]).find((each) => each.name === 'To the reviewer');
    expect(made?.instanceId).toBe(mine.body.instance.id);
    expect(((await remote.api('GET', '/api/automations')).body.automations as { name: string }[]).map((each) => each.name)).not.toContain('To the reviewer');
  });

  it("a local --prune-all plans no delete of the remote's resources", async () => {
    mode = 'pass';
    const plan = await local.api('POST', '/api/config/apply', { files: [{ path: 'only.yaml', text: 'kind: automation\nname: Only\ncronExpression: "0 9 * * *"\nprompt: hi\n' }], prune: 'all', dryRun: true });
    expect(plan.status, plan.text).toBe(200);
    const names = (plan.body.changes as { name: string; action: string }[]).filter((change) => change.action === 'delete').map((change) => change.name);
    expect(names).not.toContain('Remote one');
    expect(names).not.toContain('Shadow');
  });
});

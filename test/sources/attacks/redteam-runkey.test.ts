// Red team: an agent's run, holding its run's key, tries to make or point an event trigger
// by every door, to preview a source, and to learn a secret's value through a source's health.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/main/core/scheduler/clock';
import { type TestCore, startTestCore } from '../../support/core';
import { waitFor } from '../../support/wait';

let t: TestCore;
let runKey: string;
let instance: string;

beforeAll(async () => {
  t = await startTestCore({ clock: systemClock, sourceBackoffMs: () => 200 });
  const agent = { provider: 'command', preset: 'custom', command: 'sleep', args: ['600'] };
  instance = (await t.api('POST', '/api/instances', { name: 'own', agent })).body.instance.id;
  const run = (await t.api('POST', '/api/runs', { instanceId: instance, prompt: 'work' })).body.run;
  runKey = t.core.services.apiKeys.createForRun(run);
});
afterAll(() => t.close());

const asRun = (method: string, route: string, body?: unknown, headers: Record<string, string> = {}) => t.api(method, route, body, { authorization: `Bearer ${runKey}`, ...headers });
const feed = { feed: { url: 'http://127.0.0.1:9/feed.xml' } };

async function mcp(method: string, params: unknown, id = 1) {
  const response = await fetch(`${t.url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${runKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  const text = await response.text();
  const data = text.startsWith('{') ? text : (text.split('\n').find((l) => l.startsWith('data:')) ?? 'data:{}').slice(5);
  return JSON.parse(data);
}

const eventTriggersOnInstance = async () =>
  ((await t.api('GET', '/api/automations')).body.automations as { trigger?: Record<string, unknown> }[]).filter((a) => a.trigger && ['feed', 'watch', 'git', 'mail'].some((k) => k in a.trigger!)).length;

describe('a run making or pointing an event trigger', () => {
  it('is refused through other spellings of the body (duplicate keys, escapes, two kinds, arrays, nulls)', async () => {
    const before = await eventTriggersOnInstance();
    const bodies = [
      `{"name":"a","prompt":"p","instanceId":"${instance}","trigger":{"at":"2099-01-01T09:00"},"trigger":{"feed":{"url":"http://127.0.0.1:9/f"}}}`,
      `{"name":"a","prompt":"p","instanceId":"${instance}","tr\\u0069gger":{"f\\u0065ed":{"url":"http://127.0.0.1:9/f"}}}`,
      `{"name":"a","prompt":"p","instanceId":"${instance}","trigger":{"feed":{"url":"http://127.0.0.1:9/f"},"at":"2099-01-01T09:00"}}`,
      `{"name":"a","prompt":"p","instanceId":"${instance}","trigger":{"at":"2099-01-01T09:00","feed":{"url":"http://127.0.0.1:9/f"}}}`,
      `{"name":"a","prompt":"p","instanceId":"${instance}","trigger":{"__proto__":{"feed":{"url":"http://127.0.0.1:9/f"}},"at":"2099-01-01T09:00"}}`,
      `{"name":"a","prompt":"p","instanceId":"${instance}","trigger":{"constructor":{"prototype":{"feed":{"url":"http://127.0.0.1:9/f"}}},"at":"2099-01-01T09:00"}}`,
      `{"name":"a","prompt":"p","instanceId":"${instance}","trigger":{"Feed":{"url":"http://127.0.0.1:9/f"}}}`,
      `{"name":"a","prompt":"p","instanceId":"${instance}","trigger":{"feed ":{"url":"http://127.0.0.1:9/f"}}}`,
    ];
    const answers: string[] = [];
    for (const body of bodies) {
      const answer = await asRun('POST', '/api/automations', body);
      answers.push(`${answer.status} ${answer.text.slice(0, 160)}`);
      expect(answer.status, `${body}\n${answer.text}`).not.toBe(201);
    }
    expect(await eventTriggersOnInstance()).toBe(before);
    // Also: a string body with a charset, and text/plain.
    const plain = await asRun('POST', '/api/automations', JSON.stringify({ name: 'a', prompt: 'p', instanceId: instance, trigger: feed }), { 'content-type': 'text/plain' });
    expect(plain.status).not.toBe(201);
  });

  it("cannot change a person's event trigger with a partial PUT (filter only, same url, other pollMinutes) nor swap it to another kind and back", async () => {
    const made = await t.api('POST', '/api/automations', { name: 'person feed', prompt: '{{event.title}}', instanceId: instance, trigger: { feed: { url: 'https://example.com/a.xml' } }, enabled: false });
    expect(made.status, made.text).toBe(201);
    const id = made.body.automation.id;
    const attempts = [
      { trigger: { feed: { url: 'https://example.com/a.xml', filter: [{ field: 'title', exists: true }] } } },
      { trigger: { feed: { url: 'https://example.com/a.xml', pollMinutes: 1 } } },
      { trigger: { feed: { url: 'http://127.0.0.1:9/a.xml' } } },
      { trigger: { feed: {} } },
      { trigger: { feed: null } },
    ];
    for (const body of attempts) expect([400, 403], JSON.stringify(body)).toContain((await asRun('PUT', `/api/automations/${id}`, body)).status);
    // Swap to cron (allowed?) and then back to an event trigger (must be refused).
    await asRun('PUT', `/api/automations/${id}`, { cronExpression: '0 9 * * *' });
    expect((await asRun('PUT', `/api/automations/${id}`, { trigger: { feed: { url: 'http://127.0.0.1:9/a.xml' } } })).status).toBe(403);
    const after = (await t.api('GET', `/api/automations/${id}`)).body.automation;
    expect(JSON.stringify(after.trigger ?? null)).not.toContain('127.0.0.1:9');
  });

  it('is refused over MCP, under every tool that takes a trigger, and the preview is not offered', async () => {
    await mcp('initialize', { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'rt', version: '1' } });
    const tools = ((await mcp('tools/list', {}, 2)).result?.tools ?? []) as { name: string; inputSchema: unknown }[];
    expect(tools.length).toBeGreaterThan(0);
    const before = await eventTriggersOnInstance();
    const takers = tools.filter((tool) => JSON.stringify(tool.inputSchema).includes('trigger'));
    const results: string[] = [];
    for (const tool of takers) {
      for (const trigger of [feed, { watch: { path: '/root' } }, { git: { repository: '/etc' } }]) {
        const result = await mcp('tools/call', { name: tool.name, arguments: { name: 'x', prompt: 'p', instanceId: instance, trigger } }, 3);
        results.push(`${tool.name}: ${JSON.stringify(result).slice(0, 200)}`);
      }
    }
    expect(await eventTriggersOnInstance(), results.join('\n')).toBe(before);
    expect(tools.map((tool) => tool.name).filter((name) => /preview/i.test(name))).toEqual([]);
  });
});

describe("a secret's value through a source's words", () => {
  it("a mail server that echoes the password back does not put the secret's value in the source's error, for the person or the run", async () => {
    const secretValue = 'S3cr3t-Value-r33-xyz';
    expect((await t.api('PUT', '/api/secrets/mail-pw', { value: secretValue })).status).toBeLessThan(300);
    const server = net.createServer((socket) => {
      socket.write('* OK [CAPABILITY IMAP4rev1] ready\r\n');
      let buffer = '';
      socket.on('data', (chunk) => {
        buffer += chunk.toString('latin1');
        let nl: number;
        while ((nl = buffer.indexOf('\r\n')) >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 2);
          const [tag, command] = line.split(' ');
          if (/^CAPABILITY$/i.test(command)) socket.write(`* CAPABILITY IMAP4rev1\r\n${tag} OK done\r\n`);
          else if (/^(LOGIN|AUTHENTICATE)$/i.test(command)) socket.write(`${tag} NO [AUTHENTICATIONFAILED] you said: ${line.replace(/[\r\n]/g, '')}\r\n`);
          else if (/^LOGOUT$/i.test(command)) socket.end(`* BYE\r\n${tag} OK bye\r\n`);
          else socket.write(`${tag} BAD what\r\n`);
        }
      });
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const made = await t.api('POST', '/api/automations', { name: 'mail', prompt: '{{event.subject}}', instanceId: instance, trigger: { mail: { host: '127.0.0.1', port, tls: false, user: 'me', password: 'mail-pw' } } });
      expect(made.status, made.text).toBe(201);
      const id = made.body.automation.id;
      const failing = await waitFor(async () => (await t.api('GET', `/api/automations/${id}`)).body.automation.source, { what: 'failing', timeoutMs: 15_000, until: (s) => s?.state === 'failing' });
      const asPerson = JSON.stringify(failing);
      const asAgent = (await asRun('GET', `/api/automations/${id}`)).text;
      const fires = (await asRun('GET', `/api/automations/${id}/fires`)).text;
      const preview = (await t.api('POST', '/api/automations/preview', { trigger: { mail: { host: '127.0.0.1', port, tls: false, user: 'me', password: 'mail-pw' } } })).text;
      // FINDING if it fails: the server's words carry the password back into the read model, which the run's key reads
      const leaks = Object.entries({ asPerson, asAgent, fires, preview }).filter(([, text]) => text.includes(secretValue)).map(([where]) => where);
      expect(leaks, asAgent).toEqual([]);
    } finally {
      server.close();
    }
  });
});

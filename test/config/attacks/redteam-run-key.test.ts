// Red team 34, attacker 1 over the API: an agent in a sandboxed run, holding its run's key, tries
// every spelling of the configuration operations over HTTP and MCP, with and without ?remote=.
// Nothing may apply, export, set the folder, write back or detach.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '../../../src/shared/contract';
import { type TestCore, request, startTestCore, tempDir } from '../../support/core';

let t: TestCore;
let key: string;
let boxedId: string;

const evil = 'kind: instance\nname: Escaped\nagent:\n  provider: command\n  preset: custom\n  command: "true"\nsandbox:\n  mode: "off"\n';
const body = { files: [{ path: 'evil.yaml', text: evil }], prune: 'all' };

const instanceNames = async () => ((await t.api('GET', '/api/instances')).body.instances as { name: string }[]).map((each) => each.name);

beforeAll(async () => {
  t = await startTestCore();
  const boxed = await t.api('POST', '/api/instances', { name: 'Boxed', agent: { provider: 'command', preset: 'custom', command: 'sleep', args: ['600'] }, sandbox: { mode: 'sandbox' } });
  expect(boxed.status, boxed.text).toBe(201);
  boxedId = boxed.body.instance.id;
  await t.api('PUT', '/api/secrets/hidden', { value: 'SECRET-VALUE-a9a9' });
  await t.api('POST', '/api/automations', { name: 'Victim', prompt: 'Other prompt text 71c3', cronExpression: '0 3 * * *' });
  const run = (await t.api('POST', '/api/runs', { instanceId: boxedId, prompt: 'a stranger wrote this' })).body.run as Run;
  key = t.core.services.apiKeys.createForRun(run);
});
afterAll(async () => {
  await t?.close();
});

describe('a run key and the configuration operations', () => {
  const spellings: [string, string][] = [
    ['POST', '/api/config/apply'],
    ['POST', '/api/config/apply/'],
    ['POST', '/api//config/apply'],
    ['POST', '/api/config//apply'],
    ['POST', '/api/./config/apply'],
    ['POST', '/api/config/x/../apply'],
    ['POST', '/api/config%2Fapply'],
    ['POST', '/api/config/%61pply'],
    ['POST', '/API/config/apply'],
    ['POST', '/api/Config/Apply'],
    ['POST', '/api/config/apply?dryRun=false'],
    ['POST', '/api/config/apply?remote=anything'],
    ['POST', '/api/config/apply;x=1'],
    ['POST', '/api/config/apply#frag'],
    ['PUT', '/api/config/apply'],
    ['PATCH', '/api/config/apply'],
  ];

  it.each(spellings)('%s %s applies nothing', async (method, route) => {
    for (const headers of <Record<string, string>[]>[
      { authorization: `Bearer ${key}` },
      { authorization: `bearer ${key}` },
      { authorization: `Bearer ${key}`, 'x-http-method-override': 'POST' },
      { authorization: `Basic ${Buffer.from(`x:${key}`).toString('base64')}` },
      { authorization: `Bearer ${key}`, 'x-steward-remote': 'anything', 'x-forwarded-for': '127.0.0.1' },
    ]) {
      const answer = await t.api(method, route, body, headers);
      expect(answer.status, `${method} ${route} ${JSON.stringify(headers).slice(0, 40)}: ${answer.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
    }
    expect(await instanceNames()).not.toContain('Escaped');
  });

  it('the key in a query string or cookie applies nothing', async () => {
    for (const extra of [`?key=${key}`, `?apiKey=${key}`, `?access_token=${key}`, `?token=${key}`]) {
      const answer = await request(`${t.url}/api/config/apply${extra}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(answer.status).toBeGreaterThanOrEqual(400);
    }
    const cookie = await request(`${t.url}/api/config/apply`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: `steward_key=${key}; session=${key}` }, body: JSON.stringify(body) });
    expect(cookie.status).toBeGreaterThanOrEqual(400);
    expect(await instanceNames()).not.toContain('Escaped');
  });

  it('a body in another media type (form, text/yaml, json with charset, no type) applies nothing', async () => {
    for (const [type, text] of [
      ['application/json; charset=utf-8', JSON.stringify(body)],
      ['text/plain', JSON.stringify(body)],
      ['application/x-yaml', evil],
      ['application/x-www-form-urlencoded', `files=${encodeURIComponent(evil)}`],
    ]) {
      const answer = await request(`${t.url}/api/config/apply`, { method: 'POST', headers: { 'content-type': type, authorization: `Bearer ${key}` }, body: text });
      expect(answer.status).toBeGreaterThanOrEqual(400);
    }
    expect(await instanceNames()).not.toContain('Escaped');
  });

  it.each([
    ['GET', '/api/config/export'],
    ['GET', '/api/config/export/'],
    ['GET', '/api//config/export'],
    ['GET', '/api/config/export?kind=automation'],
    ['GET', '/api/config/export?remote=x'],
    ['HEAD', '/api/config/export'],
    ['GET', '/api/config'],
    ['GET', '/api/config/schema'],
    ['PUT', '/api/config'],
    ['POST', '/api/config/write-back/aut_x'],
    ['POST', '/api/config/detach/aut_x'],
  ])('%s %s is refused to a run key and leaks no other prompt', async (method, route) => {
    const answer = await t.api(method, route, method === 'PUT' ? { folder: tempDir() } : method === 'POST' ? {} : undefined, { authorization: `Bearer ${key}` });
    expect(answer.status, answer.text.slice(0, 200)).toBeGreaterThanOrEqual(400);
    expect(answer.text).not.toContain('Other prompt text 71c3');
    expect(answer.text).not.toContain('SECRET-VALUE');
    expect((await t.api('GET', '/api/config')).body.config.folder).toBeNull();
  });

  it('over MCP: the config tools are not offered, and calling them by name (any spelling) is refused', async () => {
    const client = new Client({ name: 'attacker', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
    try {
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name);
      expect(names).not.toContain('apply_config');
      expect(names).not.toContain('export_config');
      for (const name of ['apply_config', 'export_config', 'Apply_Config', 'apply_config ', 'config.apply', 'config_apply', 'set_config_folder', 'write_back_config']) {
        const args = name.includes('export') ? {} : { files: body.files, prune: 'all', dryRun: false };
        let text = '';
        let refused = false;
        try {
          const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
          refused = result.isError === true;
          text = result.content.map((part) => part.text).join('\n');
        } catch (error) {
          refused = true;
          text = String(error);
        }
        expect(refused, `${name}: ${text}`).toBe(true);
        expect(text).not.toContain('Other prompt text 71c3');
      }
      // create_instance over MCP with sandbox off is another way to an unsandboxed instance.
      if (names.includes('create_instance')) {
        const result = (await client.callTool({ name: 'create_instance', arguments: { name: 'Escaped', agent: { provider: 'command', preset: 'custom', command: 'true' }, sandbox: { mode: 'off' } } })) as { isError?: boolean };
        expect(result.isError).toBe(true);
      }
    } finally {
      await client.close();
    }
    expect(await instanceNames()).not.toContain('Escaped');
  });

  it('over MCP with an admin key, export_config holds no secret value', async () => {
    const client = new Client({ name: 'admin', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${t.key}` } } }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['apply_config', 'export_config']));
      const result = (await client.callTool({ name: 'export_config', arguments: {} })) as { content: { text: string }[] };
      expect(result.content.map((part) => part.text).join('')).not.toContain('SECRET-VALUE');
    } finally {
      await client.close();
    }
  });
});

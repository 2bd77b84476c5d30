// Red team 34, attacker 3's last goal: a secret's VALUE in an export. Values that stand in for
// secrets outside `agent.env` (which docs/security.md says is written as it is): an MCP server's
// headers and env, a feed URL's user:password, a git remote URL's token, an agent's base URL with a key.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestCore, startTestCore } from '../../support/core';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
  expect((await t.api('PUT', '/api/secrets/model-key', { value: 'SECRET-VALUE-model-1234' })).status).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

describe('an export', () => {
  it('holds no value of a stored secret an instance names (apiKeyRef)', async () => {
    const made = await t.api('POST', '/api/instances', { name: 'Keyed', agent: { provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'm', apiKeyRef: 'model-key' } });
    expect(made.status, made.text).toBe(201);
    const text = (await t.api('GET', '/api/config/export')).text;
    expect(text).toContain('model-key');
    expect(text).not.toContain('SECRET-VALUE');
  });

  it('an MCP server header or env value is written only where the docs say (report what it does)', async () => {
    const made = await t.api('POST', '/api/instances', {
      name: 'Tooled',
      agent: { provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'm', mcpServers: [{ name: 'tool', transport: 'stdio', command: 'true', env: { MCP_TOKEN: 'mcp-env-value-9911' } }] },
    });
    expect(made.status, made.text).toBe(201);
    const text = (await t.api('GET', '/api/config/export')).text;
    // Decided and documented (docs/security.md, "Configuration files"): env values, an agent's and its
    // MCP servers', are configuration, written as the API shows them to an admin; credentials belong
    // in secrets, which an export only names. A run's key still sees them hidden, and cannot export.
    expect(text).toContain('MCP_TOKEN: mcp-env-value-9911');
    expect(fs.readFileSync(path.join(import.meta.dirname, '../../../docs/security.md'), 'utf8')).toMatch(/The `env` values of an agent and of its MCP servers are written as they\s+are: keep credentials in secrets/);
  });
});

// Every CLI agent gets Steward's MCP server: a run finds it in its own CLI's configuration form,
// with a key of the run's own, calls Steward's tools through it (the calls in its transcript), may
// manage only its own instance's automations and webhooks, prompts only the instances that accept
// its prompts, and starts runs that record it as their parent. The key stops working and the configuration files are gone when the run ends.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { Run } from '../../src/shared/contract';
import { type TestCore, startTestCore, tempDir } from '../support/core';
import { settled } from '../support/runs';

const mcpCli = path.resolve(import.meta.dirname, '../fixtures/agents/mcp-cli.mjs');

let t: TestCore;
let other: string;

beforeAll(async () => {
  t = await startTestCore({ clock: systemClock });
  other = (await t.api('POST', '/api/instances', { name: 'other', agent: { provider: 'command', preset: 'custom', command: 'cat' } })).body.instance.id;
});
afterAll(() => t.close());

async function instanceOf(preset: string): Promise<{ id: string; workspaceDir: string }> {
  // IS_SANDBOX: the claude-code preset refuses root without it.
  const agent = { provider: 'command', preset, command: mcpCli, env: { IS_SANDBOX: '1', FAKE_MCP_CLI: preset } };
  const { body } = await t.api('POST', '/api/instances', { name: `${preset} with tools`, agent });
  return body.instance;
}

async function runOn(instanceId: string, calls: { tool: string; arguments: Record<string, unknown> }[]): Promise<Run> {
  const { status, body } = await t.api('POST', '/api/runs', { instanceId, prompt: JSON.stringify({ calls }) });
  expect(status).toBe(202);
  return settled(t, body.run.id, 30_000);
}

const messagesOf = async (run: Run) =>
  ((await t.api('GET', `/api/runs/${run.id}/messages?limit=1000`)).body.messages as { role: string; content: string }[]).map((message) => [message.role, message.content]);

describe("Claude Code with Steward's tools", () => {
  let run: Run;
  let instance: { id: string; workspaceDir: string };

  beforeAll(async () => {
    instance = await instanceOf('claude-code');
    expect((await t.api('PATCH', `/api/instances/${other}`, { acceptsPromptsFrom: [instance.id] })).status).toBe(200);
    run = await runOn(instance.id, [
      { tool: 'create_automation', arguments: { name: 'follow-up', prompt: 'Check again', cronExpression: '*/5 * * * *' } },
      { tool: 'send_prompt', arguments: { instanceId: other, prompt: 'hello from an agent' } },
      { tool: 'create_automation', arguments: { name: 'elsewhere', prompt: 'No', cronExpression: '0 9 * * *', instanceId: other } },
    ]);
  });

  it('finds the server in --mcp-config, and its calls show in the transcript', async () => {
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    const seen = JSON.parse(fs.readFileSync(path.join(instance.workspaceDir, 'seen-mcp.json'), 'utf8'));
    expect(seen.argv.slice(0, 2)).toEqual(['-p', '--mcp-config']);
    expect(seen.server.url).toBe(`${t.url}/mcp`);
    const messages = await messagesOf(run);
    expect(messages).toContainEqual(['tool', 'mcp__steward__create_automation {"name":"follow-up","prompt":"Check again","cronExpression":"*/5 * * * *"}']);
    expect(messages).toContainEqual(['tool', expect.stringMatching(/^\{"automation":\{"id":"aut_/)]);
    expect(messages).toContainEqual(['tool', expect.stringMatching(/^\{"run":\{"id":"run_/)]);
    // The run's key is not the user's: it leaves no trace in the transcript.
    expect(JSON.stringify(messages)).not.toContain(seen.server.headers.Authorization.slice('Bearer '.length));
  });

  it('made an automation on its own instance, whose runs are its children', async () => {
    const { automations } = (await t.api('GET', '/api/automations')).body;
    const made = automations.find((automation: { name: string }) => automation.name === 'follow-up');
    expect(made.instanceId).toBe(instance.id);
    const { body } = await t.api('POST', `/api/automations/${made.id}/run`);
    expect(body.run).toMatchObject({ parentRunId: run.id, depth: 1 });
    // It runs the same CLI in the same workspace: done before the next test reads what the first run saw.
    await settled(t, body.run.id, 30_000);
  });

  it('sent a prompt to another instance: a run that records its parent', async () => {
    const { runs } = (await t.api('GET', `/api/runs?instanceId=${other}`)).body;
    expect(runs.find((each: Run) => each.prompt === 'hello from an agent')).toMatchObject({ parentRunId: run.id, depth: 1 });
  });

  it("could not make an automation on another instance (even one that accepts its prompts): a tool error with the API's error", async () => {
    const messages = await messagesOf(run);
    expect(messages).toContainEqual(['tool', expect.stringContaining(`{"error":{"code":"not_found","message":"No instance ${other}."}}`)]);
    expect((await t.api('GET', '/api/automations')).body.automations.map((automation: { name: string }) => automation.name)).not.toContain('elsewhere');
  });

  it('ends with its key revoked and its configuration files removed', async () => {
    const seen = JSON.parse(fs.readFileSync(path.join(instance.workspaceDir, 'seen-mcp.json'), 'utf8'));
    const configFile = seen.argv[2];
    expect(fs.existsSync(configFile)).toBe(false);
    const refused = await fetch(`${t.url}/api/automations`, { headers: { authorization: seen.server.headers.Authorization } });
    expect(refused.status).toBe(401);
    // A run's key is never among the user's keys.
    expect((await t.api('GET', '/api/keys')).body.apiKeys.map((key: { name: string }) => key.name)).toEqual(['test']);
  });
});

describe.each(['codex', 'gemini', 'opencode'])('%s finds Steward in its own configuration form', (preset) => {
  it('and calls a tool through it', async () => {
    const instance = await instanceOf(preset);
    const run = await runOn(instance.id, [{ tool: 'list_instances', arguments: {} }]);
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    const messages = await messagesOf(run);
    expect(messages).toContainEqual(['system', expect.stringMatching(/^called list_instances: ok \{"instances":\[/)]);
  });
});

describe('an instance whose agent is told no', () => {
  it('gets no server: stewardTools false', async () => {
    const agent = { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'echo "url=${STEWARD_MCP_URL:-none} key=${STEWARD_API_KEY:-none}"'] };
    const off = (await t.api('POST', '/api/instances', { name: 'no tools', agent })).body.instance;
    const on = (await t.api('POST', '/api/instances', { name: 'custom with tools', agent: { ...agent, stewardTools: true } })).body.instance;
    const [plain, given] = await Promise.all([runOn(off.id, []), runOn(on.id, [])]);
    expect(await messagesOf(plain)).toContainEqual(['assistant', 'url=none key=none']);
    expect(await messagesOf(given)).toContainEqual(['assistant', expect.stringMatching(new RegExp(`^url=${t.url}/mcp key=stw_`))]);
  });
});

describe('after a crash', () => {
  it("the next start ends the keys and files of the runs Steward stopped in", async () => {
    const dataDir = tempDir();
    const first = await startTestCore({ dataDir });
    const instance = (await first.api('POST', '/api/instances', { name: 'parked', agent: { provider: 'command', preset: 'custom', command: 'cat' } })).body.instance;
    await first.api('POST', `/api/instances/${instance.id}/stop`);
    const { run } = (await first.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'hi' })).body;
    // What a run looks like to the next start when its process was killed mid-run.
    first.core.store.runs.claim(run.id, new Date().toISOString());
    const key = first.core.services.apiKeys.createForRun(run);
    fs.mkdirSync(path.join(dataDir, 'runs'), { recursive: true });
    const leftover = fs.mkdtempSync(path.join(dataDir, 'runs', `${run.id}-`));
    await first.core.close();

    const second = await startTestCore({ dataDir });
    try {
      expect((await second.api('GET', `/api/runs/${run.id}`)).body.run.status).toBe('interrupted');
      expect(fs.existsSync(leftover)).toBe(false);
      expect((await fetch(`${second.url}/api/runs`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
    } finally {
      await second.close();
    }
  });
});

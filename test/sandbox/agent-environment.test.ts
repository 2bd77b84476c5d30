// The agent's environment is built, not inherited: a variable of the process that started Steward
// (SECRET_TOKEN here, set in this test's own process, which runs the core; a name nothing in
// Steward knows) reaches no agent process, sandboxed or off — not a CLI, not an ACP agent, not the
// built-in agent's shell commands or stdio MCP servers, not the probe's `--version` — while PATH
// and HOME still do, and `sandbox.envAllow` passes one by name. Each process writes its whole
// environment where the test reads it (stdout, or a file in the workspace).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { Instance, Run } from '../../src/shared/contract';
import { type TestCore, startTestCore, tempDir } from '../support/core';
import { type OpenAiServer, startOpenAiServer } from '../support/openai-server';
import { lacks } from '../support/requirements';
import { settled } from '../support/runs';

const secret = 'SECRET_TOKEN';
const secretValue = `daemon-only-${process.pid}-7f3a9c`;
const acpScript = path.resolve(import.meta.dirname, '../fixtures/agents/acp-agent.mjs');
const modes = [
  { mode: 'off', skip: false },
  { mode: 'sandbox', skip: lacks('sandbox') },
] as const;

let t: TestCore;
let model: OpenAiServer;
const saved = process.env[secret];

beforeAll(async () => {
  // Steward's own environment: what a user's shell, a CI runner or a service manager gave the daemon.
  process.env[secret] = secretValue;
  t = await startTestCore({ clock: systemClock });
  model = await startOpenAiServer();
});
afterAll(async () => {
  if (saved === undefined) delete process.env[secret];
  else process.env[secret] = saved;
  await model?.close();
  await t?.close();
});

async function instance(name: string, mode: string, agent: Record<string, unknown>, envAllow: string[] = []): Promise<Instance> {
  const created = await t.api('POST', '/api/instances', { name, agent, sandbox: { mode, envAllow } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await t.core.services.instances.idle();
  const ready = (await t.api('GET', `/api/instances/${created.body.instance.id}`)).body.instance as Instance;
  expect(ready.status, ready.statusReason ?? '').toBe('running');
  return ready;
}

async function runOn(target: Instance, prompt = 'go'): Promise<Run> {
  const { body } = await t.api('POST', '/api/runs', { instanceId: target.id, prompt });
  const run = await settled(t, body.run.id, 30_000);
  expect(run.status, JSON.stringify(run)).toBe('succeeded');
  return run;
}

/** `NAME=value` lines as a map (a value with a line break in it is cut at the break: not needed here). */
const variables = (text: string) => new Map(text.split('\n').filter((line) => line.includes('=')).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));

async function said(run: Run): Promise<string> {
  const { messages } = (await t.api('GET', `/api/runs/${run.id}/messages?limit=1000`)).body as { messages: { role: string; content: string }[] };
  return messages.filter((message) => message.role === 'assistant').map((message) => message.content).join('\n');
}

function expectClean(env: Map<string, string>): void {
  expect(env.size, 'the process wrote its environment').toBeGreaterThan(2);
  expect(env.has(secret)).toBe(false);
  expect([...env.values()].some((value) => value.includes(secretValue))).toBe(false);
  // What it needs to run still comes through.
  expect(env.get('PATH')).toBe(process.env.PATH);
  expect(env.get('HOME')).toBeTruthy();
}

for (const { mode, skip } of modes) {
  describe.skipIf(skip)(`sandbox ${mode}: Steward's own variables stay out`, () => {
    it('of a CLI agent, unless envAllow names one', async () => {
      const agent = { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'env'], env: { GIVEN_HERE: 'by the instance' } };
      const plain = await instance(`env dump ${mode}`, mode, agent);
      const env = variables(await said(await runOn(plain)));
      expectClean(env);
      expect(env.get('GIVEN_HERE')).toBe('by the instance');
      expect(env.get('STEWARD_RUN_ID')).toMatch(/^run_/);

      const allowing = await instance(`env dump allowing ${mode}`, mode, agent, [secret]);
      expect(variables(await said(await runOn(allowing))).get(secret)).toBe(secretValue);
    });

    it('of an ACP agent', async () => {
      const agent = { provider: 'acp', command: 'sh', args: ['-c', `env > acp-env.txt; exec "${process.execPath}" "${acpScript}"`] };
      const acp = await instance(`acp env ${mode}`, mode, agent);
      await runOn(acp, 'hello');
      expectClean(variables(fs.readFileSync(path.join(acp.workspaceDir, 'acp-env.txt'), 'utf8')));
    });

    it("of the built-in agent's shell commands and stdio MCP servers", async () => {
      const mcpServers = [{ name: 'dumper', transport: 'stdio', command: 'sh', args: ['-c', 'env > mcp-env.txt'] }];
      const agent = { provider: 'openai', baseUrl: model.baseUrl, model: 'qwen3:8b', tools: ['shell'], mcpServers };
      const builtIn = await instance(`built-in env ${mode}`, mode, agent);
      model.requests.length = 0;
      model.script([{ toolCalls: [{ name: 'shell', argumentPieces: [JSON.stringify({ command: 'env' })] }] }, { text: ['Done.'] }]);
      await runOn(builtIn);
      const output = model.requests[1].body.messages.find((message) => message.role === 'tool')?.content ?? '';
      expectClean(variables(output));
      expectClean(variables(fs.readFileSync(path.join(builtIn.workspaceDir, 'mcp-env.txt'), 'utf8')));
    });
  });
}

describe("the probe's --version", () => {
  it("runs with the agent's environment, not Steward's", async () => {
    const bin = tempDir('steward-probe-bin-');
    const dump = path.join(tempDir('steward-probe-dump-'), 'env.txt');
    fs.writeFileSync(path.join(bin, 'codex'), `#!/bin/sh\nenv > "$PROBE_DUMP"\necho "codex-cli 9.9.9"\n`, { mode: 0o755 });
    const probed = await instance('probed', 'off', { provider: 'command', preset: 'codex', command: path.join(bin, 'codex'), env: { PROBE_DUMP: dump } });
    expect(probed.imageTag).toBe('codex@9.9.9 · host');
    expectClean(variables(fs.readFileSync(dump, 'utf8')));
  });
});

// Codex, for real: the pinned @openai/codex run by the `codex` preset through the Steward daemon,
// against a scripted Responses API server on loopback (a custom provider in a config.toml under
// CODEX_HOME, named in the instance's env, as a user points Codex at a local model). One daemon and
// one instance for all cases: a shell call that writes into the workspace and its transcript, a
// thread that resumes the Codex thread, a retry that is only a warning, a refusal that fails the
// run, a cancel in the middle of a shell command, and a call to Steward's own MCP server.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Instance, Run } from '../../src/shared/contract';
import { tempDir } from '../support/core';
import { root } from '../support/processes';
import { type AgentDaemon, processesMatching, startAgentDaemon } from './support';
import { type ResponsesServer, inputText, startResponsesServer } from './servers/responses';

let agents: AgentDaemon;
let model: ResponsesServer;
let codexHome: string;
let instance: Instance;
// A file name no other run on this machine writes, and a sleep no other process runs.
const note = `note-codex-${process.pid}.txt`;
const sleepCommand = `sleep 307.${process.pid}`;

/**
 * A user's config for a Responses-compatible server, with nothing that phones home: no update
 * check, analytics or feedback, and no plugin or app sync (it clones from github.com and asks
 * chatgpt.com). No retries of refused requests, so that a 500 shows as one "Reconnecting" retry.
 */
const configToml = (baseUrl: string) => `model = "test-model"
model_provider = "local"
check_for_update_on_startup = false
web_search = "disabled"

[analytics]
enabled = false

[feedback]
enabled = false

[features]
plugins = false
remote_plugin = false
apps = false

[model_providers.local]
name = "Local test server"
base_url = "${baseUrl}"
env_key = "LOCAL_MODEL_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 2
`;

beforeAll(async () => {
  model = await startResponsesServer();
  codexHome = tempDir('steward-codex-home-');
  fs.writeFileSync(path.join(codexHome, 'config.toml'), configToml(model.baseUrl));
  agents = await startAgentDaemon();
  const agent = { provider: 'command', preset: 'codex', env: { CODEX_HOME: codexHome, LOCAL_MODEL_KEY: 'test-key' } };
  const created = await agents.api('POST', '/api/instances', { name: 'Codex', agent });
  expect(created.status).toBe(201);
  instance = await ready(created.body.instance.id);
});

afterAll(async () => {
  // A cancel that left the sleep behind must not outlive the suite.
  for (const line of processesMatching(sleepCommand)) process.kill(Number(line.split(' ')[0]), 'SIGKILL');
  await agents?.close();
  await model?.close();
  if (codexHome) fs.rmSync(codexHome, { recursive: true, force: true });
});

const ready = (id: string): Promise<Instance> => agents.ready(id);

const send = (prompt: string, threadId?: string): Promise<Run> => agents.send(instance.id, prompt, threadId);

const linesOf = (run: Run) => agents.linesOf(run);

/** Every file called `name` under `dir`. */
function filesNamed(dir: string, name: string): string[] {
  return (fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })).filter((entry) => path.basename(entry) === name).map((entry) => path.join(dir, entry));
}

describe('codex', () => {
  let first: Run;
  const prompt = `Write hi into ${note}`;

  it("calls Steward's MCP server, given through -c overrides with its run's key: a webhook on its instance, the result back to the model", async () => {
    model.script([
      { calls: [{ namespace: 'mcp__steward', name: 'create_webhook', arguments: { name: 'CI callback', promptTemplate: 'CI says {{payload}}' } }] },
      { text: ['Made a webhook for CI to call back.'] },
    ]);
    const before = model.requests.length;
    const run = await agents.send(instance.id, 'Make a webhook CI can call back on');
    const done = await agents.settled(run.id);
    expect(done.status, JSON.stringify(done)).toBe('succeeded');

    const [asked, answered] = model.requests.slice(before);
    const namespace = asked.body.tools.find((tool) => tool.type === 'namespace' && tool.name === 'mcp__steward') as { tools?: { name: string }[] } | undefined;
    expect(namespace?.tools?.map((tool) => tool.name)).toEqual(expect.arrayContaining(['create_webhook', 'create_automation', 'send_prompt']));
    const output = answered.body.input.find((item) => item.type === 'function_call_output');
    expect(JSON.stringify(output)).toMatch(/webhook.*whk_/);

    const { webhooks } = (await agents.api('GET', '/api/webhooks')).body;
    expect(webhooks).toContainEqual(expect.objectContaining({ name: 'CI callback', instanceId: instance.id }));
    const messages = (await agents.messages(run.threadId)).filter((message) => message.runId === run.id).map((message) => [message.role, message.content]);
    expect(messages).toContainEqual(['tool', 'steward.create_webhook {"name":"CI callback","promptTemplate":"CI says {{payload}}"}']);
    expect(messages).toContainEqual(['tool', expect.stringMatching(/^\{"webhook":\{"id":"whk_/)]);
  });

  it('runs the shell tool in the workspace, and the transcript shows the call, its output, the answer and the tokens', async () => {
    model.script([
      { reasoning: 'The user wants a note.', calls: [{ name: 'exec_command', arguments: { cmd: `echo hi > ${note} && ls` } }], usage: { input: 1200, output: 30 } },
      { text: ['Wrote ', `${note}.`], usage: { input: 1300, output: 12 } },
    ]);
    const before = model.requests.length;
    first = await send(prompt);
    const done = await agents.settled(first.id);
    expect(done.status, JSON.stringify(done)).toBe('succeeded');

    // The relative path landed in the workspace, and only there.
    expect(fs.readFileSync(path.join(instance.workspaceDir, note), 'utf8')).toBe('hi\n');
    expect([...filesNamed(agents.dataDir, note), ...filesNamed(codexHome, note)]).toEqual([path.join(instance.workspaceDir, note)]);
    expect(fs.existsSync(path.join(root, note))).toBe(false);

    // What the model server saw: the key from the instance env, the prompt, Codex's shell tool, and
    // then the command's output.
    const [asked, answered] = model.requests.slice(before);
    expect(asked.headers.authorization).toBe('Bearer test-key');
    expect(asked.body.tools.map((tool) => tool.name)).toContain('exec_command');
    expect(inputText(asked)).toContain(prompt);
    const output = answered.body.input.find((item) => item.type === 'function_call_output');
    expect(String(output?.output)).toContain(note);
    expect(model.unhandled).toEqual([]);

    const messages = (await agents.messages(first.threadId)).map((message) => [message.role, message.content]);
    expect(messages).toEqual([
      ['user', prompt],
      ['system', expect.stringMatching(/^Codex started \(thread [0-9a-f-]{36}\)$/)],
      ['system', 'Codex warning: Model metadata for `test-model` not found. Defaulting to fallback metadata; this can degrade performance and cause issues.'],
      ['system', 'Codex reasoning: The user wants a note.'],
      ['tool', expect.stringMatching(new RegExp(`^shell \\{"command":".*echo hi > ${note} && ls.*"\\}$`))],
      // ls shows the placeholders that keep a sandboxed run from creating OpenCode's project config.
      ['tool', `${note}\nopencode.json\nopencode.jsonc\n`],
      ['assistant', `Wrote ${note}.`],
      ['system', 'Codex finished — 2,500 tokens in, 42 out'],
    ]);
    const lines = await linesOf(first);
    expect(lines.map((line) => line.kind)).toEqual(['user', 'system', 'system', 'system', 'tool', 'tool', 'assistant', 'system', 'system']);
    expect(lines.at(-2)!.displayText).toBe('Codex finished — 2,500 tokens in, 42 out');
    expect(lines.at(-1)!.displayText).toMatch(/^Run succeeded after/);
  });

  it('continues the thread in the same Codex thread: the model sees the first prompt and answer', async () => {
    model.script([{ text: ['You asked for a note; I wrote it.'], usage: { input: 2000, output: 9 } }]);
    const before = model.requests.length;
    const second = await send('What did I ask you before?', first.threadId);
    const done = await agents.settled(second.id);
    expect(done.status, JSON.stringify(done)).toBe('succeeded');

    const seen = inputText(model.requests[before]);
    expect(seen).toContain(prompt);
    expect(seen).toContain(`Wrote ${note}.`);
    expect(seen).toContain('What did I ask you before?');
    const messages = await agents.messages(first.threadId);
    const started = messages.filter((message) => message.content.startsWith('Codex started'));
    expect(started.map((message) => message.content)).toEqual([started[0].content, started[0].content]);
    expect(messages.at(-2)).toMatchObject({ role: 'assistant', content: 'You asked for a note; I wrote it.', runId: second.id });
  });

  it('reads a retried server error as a warning, and the run goes on and succeeds', async () => {
    model.script([{ status: 500 }, { text: ['Recovered.'] }]);
    const run = await send('Say something despite a hiccup');
    const done = await agents.settled(run.id);
    expect(done.status, JSON.stringify(done)).toBe('succeeded');
    const texts = (await linesOf(run)).map((line) => line.displayText);
    expect(texts).toContainEqual(expect.stringMatching(/^Codex warning: Reconnecting\.\.\. 1\/2 /));
    expect(texts.filter((text) => /Codex (failed|error)/.test(text))).toEqual([]);
    expect(texts).toContain('Recovered.');
  });

  it('reads a refused request as the run’s failure, said once', async () => {
    model.script([{ status: 400 }]);
    const run = await send('This one the server refuses');
    const done = await agents.settled(run.id);
    expect(done.status).toBe('failed');
    const texts = (await linesOf(run)).map((line) => line.displayText);
    expect(texts.filter((text) => text.includes('scripted refusal'))).toEqual(['Codex failed: scripted refusal (400)']);
  });

  it('shows a long command while it runs, and cancel ends the run and the command', async () => {
    // yield_time_ms at its maximum: Codex would otherwise hand the running command back to the model after 10 s.
    model.script([{ calls: [{ name: 'exec_command', arguments: { cmd: sleepCommand, yield_time_ms: 30_000 } }] }]);
    const run = await send('Wait a long while');
    for (const deadline = Date.now() + 60_000; ; ) {
      const lines = await linesOf(run);
      if (lines.some((line) => line.kind === 'tool' && line.displayText.includes(sleepCommand))) break;
      if (Date.now() > deadline) throw new Error(`the command never showed: ${JSON.stringify(lines)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await agents.api('GET', `/api/runs/${run.id}`)).body.run.status).toBe('running');
    expect(processesMatching(sleepCommand)).not.toEqual([]);

    expect((await agents.api('POST', `/api/runs/${run.id}/cancel`)).status).toBe(202);
    const done = await agents.settled(run.id, 10_000);
    expect(done.status).toBe('cancelled');
    for (const deadline = Date.now() + 10_000; processesMatching(sleepCommand).length > 0 && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(processesMatching(sleepCommand)).toEqual([]);
  });
});

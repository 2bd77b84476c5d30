// OpenCode (opencode-ai, pinned in test/agents/clis) for real: the real CLI, run by the real daemon
// through the `opencode` preset, against a scripted Chat Completions server on loopback that it
// reaches as an OpenAI-compatible provider named in the instance's env, as a user would set it up;
// each run also gets Steward's own MCP server added to that configuration, and calls it.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '../../src/shared/contract';
import { root } from '../support/processes';
import { type ChatCompletionsServer, startChatCompletionsServer, toolCall } from './servers/chat-completions';
import { type AgentDaemon, processesMatching, startAgentDaemon } from './support';

const sleepMarker = 'sleep 941.37';

let model: ChatCompletionsServer;
let agents: AgentDaemon;
let instance: { id: string; workspaceDir: string; imageTag: string };

/** What a user puts in the instance's env to point OpenCode at a local OpenAI-compatible server. */
function openCodeEnv(baseURL: string): Record<string, string> {
  const config = {
    autoupdate: false,
    share: 'disabled',
    provider: {
      scripted: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Scripted server',
        options: { baseURL, apiKey: 'sk-scripted' },
        models: { 'coder-1': { name: 'Coder 1', cost: { input: 3, output: 15 } } },
      },
    },
  };
  // Without the models.dev fetch the CLI needs nothing from the internet.
  return { OPENCODE_CONFIG_CONTENT: JSON.stringify(config), OPENCODE_DISABLE_MODELS_FETCH: '1' };
}

/**
 * OpenCode installs @opencode-ai/plugin into its config folder in the background at every start
 * unless the folder's lock already lists it; listing it keeps the run off the npm registry.
 */
function markPluginInstalled(home: string): void {
  const dir = path.join(home, '.config/opencode');
  fs.mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  const dependencies = { '@opencode-ai/plugin': '1.18.33' };
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ dependencies }));
  fs.writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: { '': { dependencies } } }));
}

const startRun = (prompt: string, threadId?: string): Promise<Run> => agents.send(instance.id, prompt, threadId);

const runActivity = async (runId: string) => (await agents.activity(instance.id)).filter((line) => line.runId === runId);
const runMessages = async (run: Run) => (await agents.messages(run.threadId)).filter((message) => message.runId === run.id).map((message) => [message.role, message.content]);

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Every file named `name` under `dir`. */
function filesNamed(dir: string, name: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => path.basename(file) === name).map((file) => path.join(dir, file));
}

beforeAll(async () => {
  model = await startChatCompletionsServer();
  agents = await startAgentDaemon();
  markPluginInstalled(agents.home);
  const agent = { provider: 'command', preset: 'opencode', args: ['--model', 'scripted/coder-1'], env: openCodeEnv(model.baseUrl) };
  const created = await agents.api('POST', '/api/instances', { name: 'OpenCode', agent });
  expect(created.status).toBe(201);
  // Its runs' config folder is the instance's own (sandboxed): listed there too.
  markPluginInstalled(agents.stateOf(created.body.instance.id));
  instance = await agents.ready(created.body.instance.id);
});

afterAll(async () => {
  // A cancel that left its tool running must not outlive the suite.
  for (const line of processesMatching(sleepMarker)) process.kill(Number(line.split(' ')[0]), 'SIGKILL');
  await agents?.close();
  await model?.close();
});

describe('opencode', () => {
  const firstPrompt = 'Write a greeting to notes/hello.txt, then leave a file from the shell.';
  const firstAnswer = 'Wrote notes/hello.txt and made-by-bash.txt.';
  let first: Run;

  it('works in the instance workspace: files written with relative paths land there and nowhere else', async () => {
    model.script([
      { text: ["I'll write the greeting first."], toolCalls: [toolCall('write', { filePath: 'notes/hello.txt', content: 'Hello from OpenCode\n' })], usage: { prompt_tokens: 1000, completion_tokens: 50 } },
      { toolCalls: [toolCall('bash', { command: 'echo made by bash > made-by-bash.txt && pwd', description: 'Leave a file from the shell' })], usage: { prompt_tokens: 1100, completion_tokens: 40 } },
      { text: [firstAnswer], usage: { prompt_tokens: 1200, completion_tokens: 30 } },
    ]);
    first = await agents.settled((await startRun(firstPrompt)).id);
    expect(first, first.stderr ?? '').toMatchObject({ status: 'succeeded', error: null });

    const written = { 'notes/hello.txt': 'Hello from OpenCode\n', 'made-by-bash.txt': 'made by bash\n' };
    for (const [file, content] of Object.entries(written)) {
      expect(fs.readFileSync(path.join(instance.workspaceDir, file), 'utf8')).toBe(content);
      // Not in the daemon's folder (where OpenCode would work without PWD), nor anywhere else it can write.
      expect(fs.existsSync(path.join(root, file)) || fs.existsSync(path.join(root, path.basename(file)))).toBe(false);
      expect(filesNamed(agents.dataDir, path.basename(file))).toEqual([path.join(instance.workspaceDir, file)]);
    }
    // The model was told the same folder, and got the prompt as it was sent.
    const [request] = model.requests;
    expect(request.body.model).toBe('coder-1');
    expect(request.body.messages[0].content).toContain(`Working directory: ${instance.workspaceDir}`);
    expect(request.body.messages.at(-1)).toMatchObject({ role: 'user', content: firstPrompt });
    expect(model.requests).toHaveLength(3);
    // --title: the session is named after the prompt, without a model call to write a title.
    expect(model.sideRequests).toEqual([]);
  });

  it('records the transcript: prompt, tool calls with their results, the answer and the summed usage', async () => {
    expect(first.sessionId).toMatch(/^ses_/);
    expect(await runMessages(first)).toEqual([
      ['user', firstPrompt],
      ['assistant', "I'll write the greeting first."],
      ['tool', 'write {"filePath":"notes/hello.txt","content":"Hello from OpenCode\\n"}'],
      ['tool', 'Wrote file successfully.'],
      ['tool', 'bash {"command":"echo made by bash > made-by-bash.txt && pwd","description":"Leave a file from the shell"}'],
      ['tool', `${instance.workspaceDir}\n`],
      ['assistant', firstAnswer],
      // 3,300 in and 120 out at $3 and $15 a million tokens.
      ['system', 'OpenCode finished — 3,300 tokens in, 120 out, $0.0117'],
    ]);
    const lines = await runActivity(first.id);
    expect(lines.map((line) => line.kind)).toEqual(['user', 'assistant', 'tool', 'tool', 'tool', 'tool', 'assistant', 'system', 'system']);
    expect(lines[0].displayText).toBe(firstPrompt);
    expect(lines[2].displayText).toMatch(/^write \{"filePath":"notes\/hello.txt"/);
    expect(lines[7].displayText).toBe('OpenCode finished — 3,300 tokens in, 120 out, $0.0117');
    expect(lines[8].displayText).toMatch(/^Run succeeded after \d+\.\d s$/);
  });

  it('continues the OpenCode session when the thread continues', async () => {
    const before = model.requests.length;
    model.script([{ text: ['It says "Hello from OpenCode".'] }]);
    const second = await agents.settled((await startRun('What does notes/hello.txt say?', first.threadId)).id);
    expect(second, second.stderr ?? '').toMatchObject({ status: 'succeeded', resumedSessionId: first.sessionId, sessionId: first.sessionId });

    // The model saw the first turn again: OpenCode resumed its session, not a new one.
    const seen = model.requests[before].body.messages.map((message) => [message.role, message.content]);
    expect(seen).toContainEqual(['user', firstPrompt]);
    expect(seen).toContainEqual(['assistant', firstAnswer]);
    expect(seen.at(-1)).toEqual(['user', 'What does notes/hello.txt say?']);

    expect((await runActivity(second.id)).map((line) => line.displayText)).toContain(`Continuing the agent's session ${first.sessionId}`);
    expect(await runMessages(second)).toEqual([
      ['user', 'What does notes/hello.txt say?'],
      ['assistant', 'It says "Hello from OpenCode".'],
      ['system', 'OpenCode finished — 100 tokens in, 20 out, $0.0006'],
    ]);
  });

  it("calls Steward's MCP server, added to the instance's own OPENCODE_CONFIG_CONTENT with its run's key: an automation on its instance, the result back to the model", async () => {
    model.script([
      { toolCalls: [toolCall('steward_create_automation', { name: 'Nightly tidy', prompt: 'Tidy notes/', cronExpression: '30 2 * * *' })] },
      { text: ['Scheduled a nightly tidy.'] },
    ]);
    const before = model.requests.length;
    const run = await agents.settled((await startRun('Schedule a nightly tidy of the notes')).id);
    expect(run, run.stderr ?? '').toMatchObject({ status: 'succeeded', error: null });

    const [asked, answered] = model.requests.slice(before);
    const offered = (asked.body.tools as { function: { name: string } }[]).map((tool) => tool.function.name);
    expect(offered).toEqual(expect.arrayContaining(['steward_create_automation', 'steward_send_prompt', 'write', 'bash']));
    expect(JSON.stringify(answered.body.messages.at(-1))).toMatch(/"role":"tool".*aut_/);

    const { automations } = (await agents.api('GET', '/api/automations')).body;
    expect(automations).toContainEqual(expect.objectContaining({ name: 'Nightly tidy', instanceId: instance.id, cronExpression: '30 2 * * *' }));
    const messages = await runMessages(run);
    expect(messages).toContainEqual(['tool', expect.stringMatching(/^steward_create_automation \{"name":"Nightly tidy"/)]);
    expect(messages).toContainEqual(['assistant', 'Scheduled a nightly tidy.']);
  });

  it('cancels a run with a long tool call, ending the tool too', async () => {
    model.script([{ text: ['Starting the long job.'], toolCalls: [toolCall('bash', { command: sleepMarker, description: 'A long job' })] }]);
    const run = await startRun('Run the long job.');
    // 1.18 prints a tool only once it has finished: the process says when it runs.
    await until(`${sleepMarker} to run`, () => (processesMatching(sleepMarker).length > 0 ? true : undefined), 60_000);
    // What the model said before the call is shown while the tool runs.
    await until('the text before the call', async () => ((await runActivity(run.id)).some((line) => line.displayText === 'Starting the long job.') ? true : undefined), 5_000);

    expect((await agents.api('POST', `/api/runs/${run.id}/cancel`)).status).toBe(202);
    const cancelled = await agents.waitForRun(run.id, (now) => now.status !== 'running', 10_000);
    expect(cancelled).toMatchObject({ status: 'cancelled', error: 'Cancelled.' });
    const left = await until('the tool to end', () => (processesMatching(sleepMarker).length === 0 ? [] : undefined), 10_000).catch(() => processesMatching(sleepMarker));
    expect(left, 'processes left running after the cancel').toEqual([]);
  });

  it('fails a run whose model call fails, saying why', async () => {
    model.script([{ status: 400 }]);
    const run = await agents.settled((await startRun('This one meets a bad request.')).id);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/^The agent exited with code 1\b/);
    expect(await runMessages(run)).toEqual([
      ['user', 'This one meets a bad request.'],
      ['system', 'OpenCode failed: scripted 400 (APIError, HTTP 400)'],
    ]);
  });

  it('names the CLI and its version on the instance', async () => {
    const { body } = await agents.api('GET', `/api/instances/${instance.id}`);
    expect(body.instance).toMatchObject({ imageTag: expect.stringMatching(/^opencode@1\.18\.33 · sandbox \(bubblewrap /) });
  });
});

// OpenCode in its Agent Client Protocol mode (`opencode acp`), for real, against the scripted Chat
// Completions server it reaches as an OpenAI-compatible provider: a sandboxed instance's run writes
// into its workspace (its permission request allowed, as the instance approves everything), the
// thread's next run loads the same session (the model sees the earlier turn), Steward's MCP server
// is called, a cancel ends the run and its shell command; run directly, a permission request
// allowed runs the command and one denied does not.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AcpAgent } from '../../src/main/core/agents/acp-agent';
import type { Instance } from '../../src/shared/contract';
import { acpTurn, fileIn, optionOf } from './acp-support';
import { type ChatCompletionsServer, startChatCompletionsServer, toolCall } from './servers/chat-completions';
import { type AgentDaemon, cliBin, processesMatching, startAgentDaemon } from './support';

const sleepMarker = 'sleep 943.71';

let model: ChatCompletionsServer;
let agents: AgentDaemon;
let instance: Instance;
let agent: AcpAgent;

/** OpenCode pointed at the scripted server, asking before it writes or runs anything. */
function openCodeEnv(baseURL: string): Record<string, string> {
  const config = {
    autoupdate: false,
    share: 'disabled',
    model: 'scripted/coder-1',
    permission: { edit: 'ask', bash: 'ask' },
    provider: {
      scripted: { npm: '@ai-sdk/openai-compatible', name: 'Scripted server', options: { baseURL, apiKey: 'sk-scripted' }, models: { 'coder-1': { name: 'Coder 1' } } },
    },
  };
  return { OPENCODE_CONFIG_CONTENT: JSON.stringify(config), OPENCODE_DISABLE_MODELS_FETCH: '1' };
}

/** OpenCode installs @opencode-ai/plugin into its config folder unless the folder's lock lists it. */
function markPluginInstalled(home: string): void {
  const dir = path.join(home, '.config/opencode');
  fs.mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  const dependencies = { '@opencode-ai/plugin': '1.18.33' };
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ dependencies }));
  fs.writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: { '': { dependencies } } }));
}

beforeAll(async () => {
  model = await startChatCompletionsServer();
  agents = await startAgentDaemon();
  markPluginInstalled(agents.home);
  agent = { provider: 'acp', command: 'opencode', args: ['acp'], env: openCodeEnv(model.baseUrl) };
  const created = await agents.api('POST', '/api/instances', { name: 'OpenCode ACP', agent });
  expect(created.status).toBe(201);
  // Its runs' config folder is the instance's own (sandboxed): listed there too.
  markPluginInstalled(agents.stateOf(created.body.instance.id));
  instance = await agents.ready(created.body.instance.id);
  expect([instance.status, instance.imageTag]).toEqual(['running', expect.stringMatching(/^acp:OpenCode 1\.18\.33 · loads sessions · sandbox \(bubblewrap /)]);
});

afterAll(async () => {
  for (const line of processesMatching(sleepMarker)) process.kill(Number(line.split(' ')[0]), 'SIGKILL');
  await agents?.close();
  await model?.close();
});

const runMessages = async (runId: string, threadId: string) => (await agents.messages(threadId)).filter((message) => message.runId === runId).map((message) => [message.role, message.content]);

describe('opencode acp through the daemon', () => {
  let threadId: string;
  let sessionId: string | null;
  const firstPrompt = 'Write a greeting to notes/hello.txt';

  it('writes a file in the workspace of a sandboxed instance, its permission request allowed once', async () => {
    model.script([
      { text: ["I'll write the greeting."], toolCalls: [toolCall('write', { filePath: 'notes/hello.txt', content: 'Hello over ACP\n' })] },
      { text: ['Wrote notes/hello.txt.'] },
    ]);
    const started = Date.now();
    const run = await agents.settled((await agents.send(instance.id, firstPrompt)).id);
    console.log(`opencode acp: write run ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    expect(fs.readFileSync(path.join(instance.workspaceDir, 'notes/hello.txt'), 'utf8')).toBe('Hello over ACP\n');
    const messages = await runMessages(run.id, run.threadId);
    expect(messages).toContainEqual(['assistant', "I'll write the greeting."]);
    expect(messages).toContainEqual(['assistant', 'Wrote notes/hello.txt.']);
    expect(messages.some(([role, text]) => role === 'system' && text.startsWith('Permission for ') && text.includes('(allow_once)'))).toBe(true);
    threadId = run.threadId;
    sessionId = run.sessionId;
    expect(sessionId).toMatch(/^ses_/);
  });

  it("continues the thread's session: the model sees the earlier turn", async () => {
    const before = model.requests.length;
    model.script([{ text: ['You asked for a greeting.'] }]);
    const run = await agents.settled((await agents.send(instance.id, 'What did I ask for?', threadId)).id);
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'succeeded', resumedSessionId: sessionId, sessionId });
    const seen = model.requests[before].body.messages.map((message) => [message.role, message.content]);
    expect(seen).toContainEqual(['user', firstPrompt]);
    expect(seen.at(-1)).toEqual(['user', 'What did I ask for?']);
    // The replayed history is not recorded again.
    expect(await runMessages(run.id, run.threadId)).toEqual([['user', 'What did I ask for?'], ['assistant', 'You asked for a greeting.']]);
  });

  it("calls Steward's MCP server, given in session/new with its run's key: an automation on its instance", async () => {
    model.script([
      { toolCalls: [toolCall('steward_create_automation', { name: 'ACP tidy', prompt: 'Tidy notes/', cronExpression: '30 2 * * *' })] },
      { text: ['Scheduled.'] },
    ]);
    const run = await agents.settled((await agents.send(instance.id, 'Schedule a nightly tidy')).id);
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    const { automations } = (await agents.api('GET', '/api/automations')).body;
    expect(automations).toContainEqual(expect.objectContaining({ name: 'ACP tidy', instanceId: instance.id }));
    expect(await runMessages(run.id, run.threadId)).toContainEqual(['assistant', 'Scheduled.']);
  });

  it('ends with a cancel, its shell command with it', async () => {
    model.script([{ text: ['Starting the long job.'], toolCalls: [toolCall('bash', { command: sleepMarker, description: 'A long job' })] }]);
    const run = await agents.send(instance.id, 'Run the long job.');
    const deadline = Date.now() + 60_000;
    while (processesMatching(sleepMarker).length === 0) {
      if (Date.now() > deadline) throw new Error('the shell command never started');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const started = Date.now();
    await agents.api('POST', `/api/runs/${run.id}/cancel`);
    const done = await agents.settled(run.id);
    console.log(`opencode acp: cancel ended the run in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(done.status).toBe('cancelled');
    expect(processesMatching(sleepMarker)).toEqual([]);
  });
});

describe('opencode acp permission requests', () => {
  const direct = (): AcpAgent => ({ ...agent, env: { ...agent.env, HOME: agents.home, XDG_CONFIG_HOME: path.join(agents.home, '.config'), XDG_DATA_HOME: path.join(agents.home, '.local/share'), XDG_CACHE_HOME: path.join(agents.home, '.cache'), XDG_STATE_HOME: path.join(agents.home, '.local/state'), PATH: `${cliBin}${path.delimiter}${process.env.PATH ?? ''}` } });
  const shellTurn = () => [{ toolCalls: [toolCall('bash', { command: 'echo yes > made.txt', description: 'Make a file' })] }, { text: ['Done with the shell.'] }];

  it('allowed once: the command runs', async () => {
    model.script(shellTurn());
    const turn = await acpTurn(direct(), 'Make the file', (request) => optionOf(request, 'allow_once'));
    console.log(`opencode acp: allowed turn ${turn.seconds.toFixed(1)} s`);
    expect(turn.exit, JSON.stringify(turn.exit)).toMatchObject({ code: 0, failure: undefined });
    expect(turn.asked).toHaveLength(1);
    expect(turn.asked[0]).toMatchObject({ kind: 'execute' });
    expect(JSON.stringify(turn.asked[0])).toContain('echo yes > made.txt');
    expect(fileIn(turn, 'made.txt')).toBe('yes\n');
  });

  it('denied: the command does not run, and the turn still ends', async () => {
    model.script(shellTurn());
    const turn = await acpTurn(direct(), 'Make the file', (request) => optionOf(request, 'reject_once'));
    expect(turn.asked).toHaveLength(1);
    expect(fileIn(turn, 'made.txt')).toBeUndefined();
    expect(turn.events).toContainEqual(expect.objectContaining({ type: 'system', text: expect.stringMatching(/\(reject_once\)$/) }));
  });
});

// Gemini CLI in its Agent Client Protocol mode (`gemini --acp`), for real, against the scripted
// Gemini API server: a sandboxed instance's run writes into its workspace (its permission request
// allowed, as the instance approves everything), the thread's next run loads the same session (the
// model sees the earlier turn), Steward's MCP server is called, a cancel ends the run and its shell
// command; run directly, a permission request allowed runs the command and one denied does not.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AcpAgent } from '../../src/main/core/agents/acp-agent';
import type { Instance } from '../../src/shared/contract';
import { tempDir } from '../support/core';
import { acpTurn, fileIn, optionOf } from './acp-support';
import { type GeminiServer, contentsText, startGeminiServer } from './servers/gemini';
import { type AgentDaemon, cliBin, processesMatching, startAgentDaemon } from './support';

let agents: AgentDaemon;
let server: GeminiServer;
let geminiHome: string;
let instance: Instance;
let agent: AcpAgent;
const sleepCommand = `sleep 309.${process.pid}`;

beforeAll(async () => {
  server = await startGeminiServer();
  geminiHome = tempDir('steward-gemini-acp-home-');
  fs.mkdirSync(path.join(geminiHome, '.gemini'));
  fs.mkdirSync(path.join(geminiHome, 'tmp'));
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  };
  fs.writeFileSync(path.join(geminiHome, '.gemini/settings.json'), JSON.stringify(settings, null, 2));
  const env = { GOOGLE_GEMINI_BASE_URL: server.baseUrl, GEMINI_API_KEY: 'test-key', GEMINI_CLI_HOME: geminiHome, TMPDIR: path.join(geminiHome, 'tmp') };
  agent = { provider: 'acp', command: 'gemini', args: ['--acp'], env };
  agents = await startAgentDaemon();
  const created = await agents.api('POST', '/api/instances', { name: 'Gemini ACP', agent });
  expect(created.status).toBe(201);
  instance = await agents.ready(created.body.instance.id);
  expect([instance.status, instance.imageTag]).toEqual(['running', expect.stringMatching(/^acp:gemini-cli 0\.61\.0 · loads sessions · sandbox \(bubblewrap /)]);
});

afterAll(async () => {
  for (const line of processesMatching(sleepCommand)) process.kill(Number(line.split(' ')[0]), 'SIGKILL');
  await agents?.close();
  await server?.close();
  if (geminiHome) fs.rmSync(geminiHome, { recursive: true, force: true });
});

const runMessages = async (runId: string, threadId: string) => (await agents.messages(threadId)).filter((message) => message.runId === runId).map((message) => [message.role, message.content]);

describe('gemini --acp through the daemon', () => {
  let threadId: string;
  let sessionId: string | null;

  it('writes a file in the workspace of a sandboxed instance, its permission request allowed once', async () => {
    server.script([
      { text: ['Writing ', 'the notes.'], calls: [{ name: 'write_file', args: { file_path: 'notes.md', content: 'Written over ACP.\n' } }] },
      { text: ['The notes are written.'] },
    ]);
    const started = Date.now();
    const run = await agents.settled((await agents.send(instance.id, 'Write the notes to notes.md')).id);
    console.log(`gemini --acp: write run ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    expect(fs.readFileSync(path.join(instance.workspaceDir, 'notes.md'), 'utf8')).toBe('Written over ACP.\n');
    const messages = await runMessages(run.id, run.threadId);
    expect(messages).toContainEqual(['assistant', 'Writing the notes.']);
    expect(messages).toContainEqual(['assistant', 'The notes are written.']);
    expect(messages.some(([role, text]) => role === 'tool' && /notes\.md/.test(text))).toBe(true);
    threadId = run.threadId;
    sessionId = run.sessionId;
    expect(sessionId).toBeTruthy();
  });

  it("continues the thread's session: the model sees the earlier turn", async () => {
    // Gemini 0.61 names a session's file by the minute: loading it in the minute it was made
    // records the loaded session over the same file first, and then finds nothing to load.
    await new Promise((resolve) => setTimeout(resolve, 60_500 - (Date.now() % 60_000)));
    server.script([{ text: ['You asked for notes.'] }]);
    const before = server.turns().length;
    const run = await agents.settled((await agents.send(instance.id, 'What did I ask for before?', threadId)).id);
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'succeeded', resumedSessionId: sessionId, sessionId });
    const request = server.turns().slice(before).at(-1)!;
    expect(contentsText(request)).toContain('Write the notes to notes.md');
    expect(contentsText(request)).toContain('What did I ask for before?');
    // Gemini replays the loaded session's turns after session/load answered: they are not recorded again.
    expect(await runMessages(run.id, run.threadId)).toEqual([['user', 'What did I ask for before?'], ['assistant', 'You asked for notes.']]);
  });

  it("calls Steward's MCP server, given in session/new with its run's key: an automation on its instance", async () => {
    server.script([
      { calls: [{ name: 'mcp_steward_create_automation', args: { name: 'ACP digest', prompt: 'Summarise notes.md', cronExpression: '0 8 * * MON' } }] },
      { text: ['Scheduled.'] },
    ]);
    const run = await agents.settled((await agents.send(instance.id, 'Schedule a weekly digest')).id);
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    const declared = server.turns().at(-2)!.body.tools?.flatMap((tool) => tool.functionDeclarations ?? []).map((declaration) => declaration.name);
    expect(declared).toEqual(expect.arrayContaining(['mcp_steward_create_automation']));
    const { automations } = (await agents.api('GET', '/api/automations')).body;
    expect(automations, JSON.stringify(await runMessages(run.id, run.threadId))).toContainEqual(expect.objectContaining({ name: 'ACP digest', instanceId: instance.id }));
    expect(await runMessages(run.id, run.threadId)).toContainEqual(['assistant', 'Scheduled.']);
  });

  it('ends with a cancel, its shell command with it', async () => {
    server.script([{ text: ['Waiting.'], calls: [{ name: 'run_shell_command', args: { command: sleepCommand, description: 'Wait a while.' } }] }]);
    const run = await agents.send(instance.id, 'Wait for a while');
    const deadline = Date.now() + 60_000;
    while (processesMatching(sleepCommand).length === 0) {
      if (Date.now() > deadline) throw new Error('the shell command never started');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const started = Date.now();
    await agents.api('POST', `/api/runs/${run.id}/cancel`);
    const done = await agents.settled(run.id);
    console.log(`gemini --acp: cancel ended the run in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(done.status).toBe('cancelled');
    expect(processesMatching(sleepCommand)).toEqual([]);
  });
});

describe('gemini --acp permission requests', () => {
  const direct = () => ({ ...agent, env: { ...agent.env, PATH: `${cliBin}${path.delimiter}${process.env.PATH ?? ''}` } });
  const shellTurn = () => [{ calls: [{ name: 'run_shell_command', args: { command: 'echo yes > made.txt', description: 'Make a file.' } }] }, { text: ['Done with the shell.'] }];

  it('allowed once: the command runs', async () => {
    server.script(shellTurn());
    const turn = await acpTurn(direct(), 'Make the file', (request) => optionOf(request, 'allow_once'));
    console.log(`gemini --acp: allowed turn ${turn.seconds.toFixed(1)} s`);
    expect(turn.exit, JSON.stringify(turn.exit)).toMatchObject({ code: 0, failure: undefined });
    expect(turn.asked).toHaveLength(1);
    expect(turn.asked[0]).toMatchObject({ kind: 'execute', title: expect.stringContaining('echo yes > made.txt') });
    expect(fileIn(turn, 'made.txt')).toBe('yes\n');
  });

  it('denied: the command does not run, and the turn still ends', async () => {
    server.script(shellTurn());
    const turn = await acpTurn(direct(), 'Make the file', (request) => optionOf(request, 'reject_once'));
    expect(turn.asked).toHaveLength(1);
    expect(turn.events).toContainEqual(expect.objectContaining({ type: 'system', text: expect.stringMatching(/^Permission for echo yes > made\.txt: .* \(reject_once\)$/) }));
    expect(fileIn(turn, 'made.txt')).toBeUndefined();
    expect(turn.exit.failure).toBeUndefined();
  });
});

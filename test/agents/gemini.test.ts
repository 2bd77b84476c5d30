// Gemini CLI, for real: the pinned @google/gemini-cli run by the `gemini` preset through the
// Steward daemon, against a scripted Gemini API server on loopback (GOOGLE_GEMINI_BASE_URL in the
// instance's env, as a user points it at a local server). One daemon and one instance for all
// cases: a tool run that writes into the workspace, its transcript and token figures, a thread
// that continues the CLI's own session, a cancel in the middle of a shell command, and a call to
// Steward's own MCP server (which leaves the user's Gemini settings as they were).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Instance, Run } from '../../src/shared/contract';
import { tempDir } from '../support/core';
import { root } from '../support/processes';
import { type AgentDaemon, processesMatching, startAgentDaemon } from './support';
import { type GeminiServer, type RecordedRequest, contentsText, startGeminiServer } from './servers/gemini';

let agents: AgentDaemon;
let server: GeminiServer;
let geminiHome: string;
let instance: Instance;
// A file name no other run on this machine writes, and a sleep no other process runs.
const notes = `notes/gemini-${process.pid}.md`;
const sleepCommand = `sleep 307.${process.pid}`;

beforeAll(async () => {
  server = await startGeminiServer();
  // Gemini's own settings, apart from the daemon's HOME: API-key auth (with GOOGLE_GEMINI_BASE_URL
  // set and no selectedType, 0.61 picks an auth type it then refuses: exit 41), and nothing that
  // would phone home.
  geminiHome = tempDir('steward-gemini-home-');
  fs.mkdirSync(path.join(geminiHome, '.gemini'));
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  };
  fs.writeFileSync(path.join(geminiHome, '.gemini/settings.json'), JSON.stringify(settings, null, 2));
  agents = await startAgentDaemon();
  // TMPDIR too: a shell command the cancel kills leaves its gemini-shell-* folder behind.
  fs.mkdirSync(path.join(geminiHome, 'tmp'));
  const env = { GOOGLE_GEMINI_BASE_URL: server.baseUrl, GEMINI_API_KEY: 'test-key', GEMINI_CLI_HOME: geminiHome, TMPDIR: path.join(geminiHome, 'tmp') };
  const agent = { provider: 'command', preset: 'gemini', env };
  const created = await agents.api('POST', '/api/instances', { name: 'Gemini', agent });
  expect(created.status).toBe(201);
  instance = await ready(created.body.instance.id);
  expect([instance.status, instance.imageTag]).toEqual(['running', expect.stringMatching(/^gemini@0\.61\.0 · sandbox \(bubblewrap /)]);
});

afterAll(async () => {
  // A cancel that left the sleep behind must not outlive the suite.
  for (const line of processesMatching(sleepCommand)) {
    try {
      process.kill(Number(line.split(' ')[0]), 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  await agents?.close();
  await server?.close();
  if (geminiHome) fs.rmSync(geminiHome, { recursive: true, force: true });
});

const ready = (id: string): Promise<Instance> => agents.ready(id);

const send = (prompt: string, threadId?: string): Promise<Run> => agents.send(instance.id, prompt, threadId);

/** The finished line Gemini's figures should give for these requests: models busiest first, then the summed tokens. */
function expectedFinish(requests: RecordedRequest[]): string {
  const perModel = new Map<string, number>();
  let input = 0;
  let output = 0;
  for (const { model, usage } of requests) {
    if (!usage) continue;
    input += usage.input;
    output += usage.output;
    perModel.set(model, (perModel.get(model) ?? 0) + usage.input + usage.output);
  }
  const models = [...perModel].sort((a, b) => b[1] - a[1]).map(([model]) => model);
  return `Gemini finished (${models.join(', ')}) — ${input.toLocaleString('en-US')} tokens in, ${output.toLocaleString('en-US')} out`;
}

describe('gemini', () => {
  let first: Run;
  const prompt = `Write the CI notes to ${notes}, then show them.`;
  const answer = `The notes are in ${notes}.`;

  it("calls Steward's MCP server from the settings of the instance's own Gemini home, with its run's key: an automation on its instance, the result back to the model", async () => {
    server.script([
      { calls: [{ name: 'mcp_steward_create_automation', args: { name: 'Weekly notes digest', prompt: `Summarise ${notes}`, cronExpression: '0 8 * * MON' } }] },
      { text: ['Scheduled a weekly digest.'] },
    ]);
    const before = server.requests.length;
    const run = await agents.send(instance.id, 'Schedule a weekly digest of the notes');
    const done = await agents.settled(run.id);
    expect(done.status, JSON.stringify(done)).toBe('succeeded');

    const turns = server.requests.slice(before).filter((request) => request.kind === 'turn');
    const declared = turns[0].body.tools?.flatMap((tool) => tool.functionDeclarations ?? []).map((declaration) => declaration.name);
    expect(declared).toEqual(expect.arrayContaining(['mcp_steward_create_automation', 'mcp_steward_send_prompt']));
    expect(contentsText(turns.at(-1)!)).toMatch(/"name":"mcp_steward_create_automation","response":\{"output":".*\\"automation\\":\{\\"id\\":\\"aut_/s);

    const { automations } = (await agents.api('GET', '/api/automations')).body;
    expect(automations).toContainEqual(expect.objectContaining({ name: 'Weekly notes digest', instanceId: instance.id, cronExpression: '0 8 * * MON' }));
    const messages = (await agents.messages(run.threadId)).filter((message) => message.runId === run.id).map((message) => [message.role, message.content]);
    expect(messages).toContainEqual(['tool', expect.stringMatching(/^mcp_steward_create_automation \{"name":"Weekly notes digest"/)]);
    expect(messages).toContainEqual(['assistant', 'Scheduled a weekly digest.']);
    // The server was in the instance's own settings for the run only; the user's file is as the user wrote it.
    expect(JSON.parse(fs.readFileSync(path.join(geminiHome, '.gemini/settings.json'), 'utf8')).mcpServers).toBeUndefined();
    const own = JSON.parse(fs.readFileSync(path.join(agents.stateOf(instance.id), '.gemini/settings.json'), 'utf8'));
    expect(own.mcpServers ?? {}).toEqual({});
  });

  it('writes a file with a relative path into the workspace, and nowhere else', async () => {
    server.script([
      { text: ['I will write ', 'the notes.'], calls: [{ name: 'write_file', args: { file_path: notes, content: 'One test fails.\n' } }], usage: { input: 1_200, output: 30 } },
      { calls: [{ name: 'run_shell_command', args: { command: `cat ${notes}`, description: 'Show the notes.' } }], usage: { input: 1_350, output: 12 } },
      { text: [answer], usage: { input: 1_400, output: 9 } },
    ]);
    const before = server.requests.length;
    first = await agents.settled((await send(prompt)).id);
    expect(first.status, first.error ?? '').toBe('succeeded');

    expect(fs.readFileSync(path.join(instance.workspaceDir, notes), 'utf8')).toBe('One test fails.\n');
    for (const elsewhere of [root, agents.home, agents.dataDir, geminiHome]) expect(fs.existsSync(path.join(elsewhere, notes))).toBe(false);

    const run = server.requests.slice(before);
    const turns = run.filter((request) => request.kind === 'turn');
    expect(turns).toHaveLength(3);
    expect(contentsText(turns[0])).toContain(prompt);
    expect(turns[0].body.tools?.flatMap((tool) => tool.functionDeclarations ?? []).map((declaration) => declaration.name)).toEqual(expect.arrayContaining(['write_file', 'run_shell_command']));
    expect(turns[0].headers['x-goog-api-key']).toBe('test-key');
    // The write's result went back to the model, and the shell's output too.
    expect(contentsText(turns[1])).toContain(path.join(instance.workspaceDir, notes));
    expect(contentsText(turns[2])).toContain('One test fails.');

    const thread = await agents.messages(first.threadId);
    expect(thread.map((message) => [message.role, message.content])).toEqual([
      ['user', prompt],
      ['system', 'Gemini started'],
      ['assistant', 'I will write the notes.'],
      ['tool', `write_file ${JSON.stringify({ file_path: notes, content: 'One test fails.\n' })}`],
      ['tool', 'write_file succeeded (no output)'],
      ['tool', `run_shell_command ${JSON.stringify({ command: `cat ${notes}`, description: 'Show the notes.' })}`],
      ['tool', 'One test fails.'],
      ['assistant', answer],
      ['system', expectedFinish(run)],
    ]);

    const lines = (await agents.activity(instance.id)).filter((line) => line.runId === first.id).map((line) => [line.kind, line.displayText]);
    expect(lines.slice(0, -1)).toEqual(thread.map((message) => [message.role, message.content.replace(/\s+/g, ' ').trim()]));
    expect(lines.at(-1)?.[1]).toMatch(/^Run succeeded after [\d.]+ s$/);
    expect(server.unhandled).toEqual([]);
  });

  it('continues the thread in the same Gemini session', async () => {
    expect(first?.status).toBe('succeeded');
    server.script([{ text: ['You asked me to write the CI notes; I wrote them.'], usage: { input: 2_000, output: 15 } }]);
    const before = server.requests.length;
    const second = await agents.settled((await send('What did I ask you to do?', first.threadId)).id);
    expect(second.status, second.error ?? '').toBe('succeeded');
    expect(second.threadId).toBe(first.threadId);
    // The first run's init named the session; the second resumed it (`--resume <id>`) and kept it.
    expect(first.sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(second.resumedSessionId).toBe(first.sessionId);
    expect(second.sessionId).toBe(first.sessionId);

    const turn = server.requests.slice(before).find((request) => request.kind === 'turn');
    const seen = contentsText(turn!);
    expect(seen).toContain(prompt);
    expect(seen).toContain(answer);
    expect(seen).toContain('What did I ask you to do?');

    const thread = await agents.messages(first.threadId);
    expect(thread.filter((message) => message.runId === second.id).map((message) => [message.role, message.content])).toEqual([
      ['user', 'What did I ask you to do?'],
      ['system', 'Gemini started'],
      ['assistant', 'You asked me to write the CI notes; I wrote them.'],
      ['system', expectedFinish(server.requests.slice(before))],
    ]);
  });

  it('cancels a run in the middle of a shell command, and ends the command too', async () => {
    server.script([{ text: ['Waiting.'], calls: [{ name: 'run_shell_command', args: { command: sleepCommand, description: 'Wait a while.' } }] }]);
    const run = await send('Wait for five minutes.');
    const deadline = Date.now() + 60_000;
    while (!(await agents.activity(instance.id)).some((line) => line.runId === run.id && line.kind === 'tool' && line.displayText.includes(sleepCommand))) {
      if (Date.now() > deadline) throw new Error('the sleep never showed in the activity');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await expect.poll(() => processesMatching(sleepCommand).length, { timeout: 10_000 }).toBeGreaterThan(0);

    expect((await agents.api('POST', `/api/runs/${run.id}/cancel`)).status).toBe(202);
    const cancelled = await agents.waitForRun(run.id, (now) => !['queued', 'running'].includes(now.status), 10_000);
    expect(cancelled.status).toBe('cancelled');
    await expect.poll(() => processesMatching(sleepCommand), { timeout: 3_000 }).toEqual([]);
  });
});

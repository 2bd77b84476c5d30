// Claude Code, for real: the pinned @anthropic-ai/claude-code run by the `claude-code` preset
// through the Steward daemon, against a scripted Anthropic Messages API server on loopback, named
// in the instance's env (ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY, as a user points Claude Code at
// any Anthropic-compatible server; IS_SANDBOX=1 because the suite runs as root). One daemon and one
// instance for all cases: a Write call into the workspace and its transcript and figures, a thread
// that resumes the Claude session, an overloaded API that it retries (said live), a cancel in the
// middle of a Bash command, a call to Steward's own MCP server (a follow-up automation), and a run
// stopped past its per-run budget (--max-budget-usd) while a resumed thread is held to each run's own cost.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Instance, Run } from '../../src/shared/contract';
import { tempDir } from '../support/core';
import { root } from '../support/processes';
import { type AgentDaemon, processesMatching, startAgentDaemon } from './support';
import { type AnthropicServer, type Usage, claudeCodeEnv, conversationText, startAnthropicServer } from './servers/anthropic';

let agents: AgentDaemon;
let model: AnthropicServer;
let configDir: string;
let claudeTmp: string;
let instance: Instance;
// A file name no other run on this machine writes, and a sleep no other process runs. The command
// does not start with the sleep: Claude Code refuses a leading `sleep` of 25 s or more.
const note = `note-claude-${process.pid}.txt`;
const sleepCommand = `sleep 307.${process.pid}`;

/** Claude Sonnet 4.5's list prices in dollars per million tokens, which Claude Code counts with. */
const price = { input: 3, cacheWrite: 3.75, cacheRead: 0.3, output: 15 };

/** What a user puts in the instance's env to point Claude Code at the scripted server. */
let claudeEnv: Record<string, string>;

beforeAll(async () => {
  model = await startAnthropicServer();
  configDir = tempDir('steward-claude-config-');
  // Its temp folder (background output, probes) under the suite's, short: it holds sockets.
  claudeTmp = tempDir('stw-cc-');
  agents = await startAgentDaemon();
  claudeEnv = claudeCodeEnv(model, configDir, claudeTmp);
  const created = await agents.api('POST', '/api/instances', { name: 'Claude', agent: { provider: 'command', preset: 'claude-code', env: claudeEnv } });
  expect(created.status).toBe(201);
  instance = await ready(created.body.instance.id);
  expect(instance.status, JSON.stringify(instance)).not.toBe('error');
});

afterAll(async () => {
  // A cancel that left the sleep behind must not outlive the suite.
  for (const line of processesMatching(sleepCommand)) process.kill(Number(line.split(' ')[0]), 'SIGKILL');
  await agents?.close();
  await model?.close();
  for (const dir of [configDir, claudeTmp]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const ready = (id: string): Promise<Instance> => agents.ready(id);

const send = (prompt: string, threadId?: string): Promise<Run> => agents.send(instance.id, prompt, threadId);

const linesOf = (run: Run) => agents.linesOf(run);

/** Polls the run's activity until a line passes `check`. */
async function lineShows(run: Run, check: (line: { kind: string; displayText: string }) => boolean) {
  for (const deadline = Date.now() + 60_000; ; ) {
    const lines = await linesOf(run);
    const found = lines.find(check);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no such line: ${JSON.stringify(lines)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Every file called `name` under `dir`. */
function filesNamed(dir: string, name: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((entry) => path.basename(entry) === name).map((entry) => path.join(dir, entry));
}

/** "8,550 tokens in, 52 out, $0.0173, 2 turns" from what the server answered, as Steward should say it. */
function figures(usages: Usage[], turns: number): string {
  const sum = (pick: (usage: Usage) => number | undefined) => usages.reduce((total, usage) => total + (pick(usage) ?? 0), 0);
  const [input, cacheWrite, cacheRead, output] = [sum((u) => u.input), sum((u) => u.cacheCreation), sum((u) => u.cacheRead), sum((u) => u.output)];
  const cost = (input * price.input + cacheWrite * price.cacheWrite + cacheRead * price.cacheRead + output * price.output) / 1e6;
  return `${(input + cacheWrite + cacheRead).toLocaleString('en-US')} tokens in, ${output.toLocaleString('en-US')} out, $${cost.toFixed(4)}, ${turns} ${turns === 1 ? 'turn' : 'turns'}`;
}

describe('claude-code', () => {
  let first: Run;
  const prompt = `Write hi into ${note}`;

  it('writes with a relative path into the workspace, and the transcript shows the call, its result, the answer and the figures', async () => {
    model.script([
      { text: ['I will write the note.'], calls: [{ name: 'Write', input: { file_path: note, content: 'hi\n' } }], usage: { input: 1200, output: 40, cacheCreation: 3000 } },
      { text: [`Wrote `, `${note}.`], usage: { input: 150, output: 12, cacheRead: 4200 } },
    ]);
    const before = model.turns().length;
    first = await send(prompt);
    const done = await agents.settled(first.id);
    expect(done.status, JSON.stringify(done)).toBe('succeeded');

    // The relative path landed in the workspace, and only there.
    expect(fs.readFileSync(path.join(instance.workspaceDir, note), 'utf8')).toBe('hi\n');
    expect([...filesNamed(agents.dataDir, note), ...filesNamed(configDir, note)]).toEqual([path.join(instance.workspaceDir, note)]);
    expect(fs.existsSync(path.join(root, note))).toBe(false);

    // What the model server saw: the key from the instance env, the prompt, Claude's tools, then the tool's result.
    const [asked, answered] = model.turns().slice(before);
    expect(asked.headers['x-api-key']).toBe('test-key');
    expect(asked.body.model).toBe('claude-sonnet-4-5');
    expect(asked.body.tools!.map((tool) => tool.name)).toEqual(expect.arrayContaining(['Bash', 'Write']));
    expect(conversationText(asked)).toContain(prompt);
    const result = answered.body.messages!.at(-1)!;
    expect(JSON.stringify(result.content)).toMatch(/"type":"tool_result".*File created successfully/);
    expect(model.unhandled).toEqual([]);

    const finished = `Claude Code finished — ${figures([asked.usage!, answered.usage!], 2)}`;
    expect(finished).toBe('Claude Code finished — 8,550 tokens in, 52 out, $0.0173, 2 turns');
    const messages = (await agents.messages(first.threadId)).map((message) => [message.role, message.content]);
    expect(messages).toEqual([
      ['user', prompt],
      ['system', 'Claude Code started (claude-sonnet-4-5)'],
      ['assistant', 'I will write the note.'],
      ['tool', `Write {"file_path":"${note}","content":"hi\\n"}`],
      ['tool', expect.stringMatching(new RegExp(`^File created successfully at: ${note.replaceAll('.', '\\.')}`))],
      ['assistant', `Wrote ${note}.`],
      ['system', finished],
    ]);
    const lines = await linesOf(first);
    expect(lines.map((line) => line.kind)).toEqual(['user', 'system', 'assistant', 'tool', 'tool', 'assistant', 'system', 'system']);
    expect(lines.at(-2)!.displayText).toBe(finished);
    expect(lines.at(-1)!.displayText).toMatch(/^Run succeeded after/);
    // The session the CLI named, kept with the run for the thread to resume.
    expect(done.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(asked.headers['x-claude-code-session-id']).toBe(done.sessionId);
  });

  it('continues the thread in the same Claude session: the model sees the first prompt and answer', async () => {
    model.script([{ text: ['You asked for a note; I wrote it.'], usage: { input: 2000, output: 9 } }]);
    const before = model.turns().length;
    const second = await send('What did I ask you before?', first.threadId);
    const done = await agents.settled(second.id);
    expect(done.status, JSON.stringify(done)).toBe('succeeded');

    const [asked] = model.turns().slice(before);
    const seen = conversationText(asked);
    expect(seen).toContain(prompt);
    expect(seen).toContain(`Wrote ${note}.`);
    expect(seen).toContain('What did I ask you before?');
    const firstRun = (await agents.api('GET', `/api/runs/${first.id}`)).body.run as Run;
    expect(done.resumedSessionId).toBe(firstRun.sessionId);
    expect(done.sessionId).toBe(firstRun.sessionId);
    expect(asked.headers['x-claude-code-session-id']).toBe(firstRun.sessionId);
    const texts = (await linesOf(second)).map((line) => line.displayText);
    // This run's own cost: the CLI's total_cost_usd counts the whole session on a resume.
    expect(texts).toContain(`Claude Code finished — ${figures([asked.usage!], 1)}`);
    const messages = await agents.messages(first.threadId);
    expect(messages.at(-2)).toMatchObject({ role: 'assistant', content: 'You asked for a note; I wrote it.', runId: second.id });
  });

  it('fails a run whose session is gone, saying why, and the thread’s next run starts a new session', async () => {
    const start = await agents.settled((await send('Remember plum')).id);
    expect(start.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    // Claude Code keeps a session as <config>/projects/<workspace path>/<id>.jsonl, in the instance's own CLI state.
    const [transcript] = filesNamed(agents.stateOf(instance.id), `${start.sessionId}.jsonl`);
    fs.rmSync(transcript);

    const refused = await agents.settled((await send('Which fruit?', start.threadId)).id);
    expect(refused).toMatchObject({ status: 'failed', resumedSessionId: start.sessionId, error: `The agent exited with code 1: No conversation found with session ID: ${start.sessionId}` });
    const texts = (await linesOf(refused)).map((line) => line.displayText);
    expect(texts).toContain(`Claude Code failed: No conversation found with session ID: ${start.sessionId} — 0 tokens in, 0 out, $0.0000, 0 turns`);

    const fresh = await agents.settled((await send('Which fruit, then?', start.threadId)).id);
    expect(fresh).toMatchObject({ status: 'succeeded', resumedSessionId: null });
    expect(fresh.sessionId).not.toBe(start.sessionId);
  });

  it('says, while it waits, that it retries an overloaded API (HTTP 529), and the run goes on and succeeds', async () => {
    let seen = () => {};
    const retrySeen = new Promise<void>((resolve) => (seen = resolve));
    // The retried request is answered only once the retry line is in the activity: it came live.
    model.script([{ status: 529 }, { text: ['Recovered.'], after: retrySeen }]);
    const run = await send('Say something despite the load');
    const retry = await lineShows(run, (line) => line.displayText.startsWith('Claude Code is retrying'));
    seen();
    expect(retry).toMatchObject({ kind: 'system', displayText: expect.stringMatching(/^Claude Code is retrying \(attempt 1\/10 in \d+\.\d s\): the API is overloaded \(HTTP 529\)$/) });
    const done = await agents.settled(run.id);
    expect(done.status, JSON.stringify(done)).toBe('succeeded');
    const texts = (await linesOf(run)).map((line) => line.displayText);
    expect(texts.indexOf(retry.displayText)).toBeLessThan(texts.indexOf('Recovered.'));
    expect(texts.filter((text) => /Claude Code failed|API Error/.test(text))).toEqual([]);
  });

  it('ends a run the API keeps refusing as overloaded (HTTP 529) with errorClass overloaded', async () => {
    // One retry of its own, not ten with backoff: the run ends in seconds.
    const agent = { provider: 'command', preset: 'claude-code', env: { ...claudeEnv, CLAUDE_CODE_MAX_RETRIES: '1' } };
    const capped = await ready((await agents.api('POST', '/api/instances', { name: 'Claude, one retry', agent })).body.instance.id);
    model.script([{ status: 529 }, { status: 529 }]);
    const run = await agents.send(capped.id, 'Say something despite the load');
    const done = await agents.settled(run.id);
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'failed', errorClass: 'overloaded' });
    expect((await linesOf(done)).map((line) => line.displayText)).toContainEqual(expect.stringMatching(/^Claude Code: API Error: 529 Overloaded\./));
  });

  it("calls Steward's MCP server, which the run was given with a key of its own: an automation on its instance, its result back to the model", async () => {
    model.script([
      { calls: [{ name: 'mcp__steward__create_automation', input: { name: 'Check the note again', prompt: `Read ${note}`, cronExpression: '0 9 * * 1-5' } }] },
      { text: ['Scheduled a follow-up every weekday at 9.'] },
    ]);
    const before = model.turns().length;
    const run = await send('Schedule a follow-up check of the note');
    const done = await agents.settled(run.id);
    expect(done.status, JSON.stringify(done)).toBe('succeeded');

    const [asked, answered] = model.turns().slice(before);
    // Claude Code defers MCP tools (loaded by ToolSearch when used); the model is told their names.
    expect(JSON.stringify(asked.body)).toContain('mcp__steward__create_automation');
    const result = JSON.stringify(answered.body.messages!.at(-1)!.content);
    expect(result).toMatch(/"type":"tool_result".*\\"automation\\":\{\\"id\\":\\"aut_/);

    const { automations } = (await agents.api('GET', '/api/automations')).body;
    expect(automations).toContainEqual(expect.objectContaining({ name: 'Check the note again', instanceId: instance.id, cronExpression: '0 9 * * 1-5' }));
    const messages = (await agents.messages(run.threadId)).filter((message) => message.runId === run.id).map((message) => [message.role, message.content]);
    expect(messages).toContainEqual(['tool', `mcp__steward__create_automation {"name":"Check the note again","prompt":"Read ${note}","cronExpression":"0 9 * * 1-5"}`]);
    expect(messages).toContainEqual(['assistant', 'Scheduled a follow-up every weekday at 9.']);
  });

  it('shows a long command while it runs, and cancel ends the run and the command', async () => {
    model.script([{ calls: [{ name: 'Bash', input: { command: `echo waiting && ${sleepCommand}`, description: 'Wait a long while' } }] }]);
    const run = await send('Wait a long while');
    await lineShows(run, (line) => line.kind === 'tool' && line.displayText.includes(sleepCommand));
    expect((await agents.api('GET', `/api/runs/${run.id}`)).body.run.status).toBe('running');
    for (const deadline = Date.now() + 10_000; processesMatching(sleepCommand).length === 0; ) {
      if (Date.now() > deadline) throw new Error('the command never started');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    expect((await agents.api('POST', `/api/runs/${run.id}/cancel`)).status).toBe(202);
    const done = await agents.settled(run.id, 10_000);
    expect(done.status).toBe('cancelled');
    for (const deadline = Date.now() + 10_000; processesMatching(sleepCommand).length > 0 && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(processesMatching(sleepCommand)).toEqual([]);
  });

  it('stops a run that spends past its per-run budget: Claude Code is given --max-budget-usd and the run ends saying why', async () => {
    expect((await agents.api('PATCH', `/api/instances/${instance.id}`, { budget: { usdPerRun: 0.5 } })).status).toBe(200);
    try {
      // 200,000 input tokens at $3 a million: $0.60 by the first call's end, past $0.50.
      model.script([
        { text: ['Reading everything.'], calls: [{ name: 'Bash', input: { command: 'echo one', description: 'Say one' } }], usage: { input: 200_000, output: 20 } },
        { text: ['Reading more.'], calls: [{ name: 'Bash', input: { command: 'echo two', description: 'Say two' } }], usage: { input: 200_000, output: 20 } },
        { text: ['Done.'] },
      ]);
      const before = model.turns().length;
      const run = await send('Read everything');
      const done = await agents.settled(run.id);
      const lines = (await linesOf(run)).map((line) => line.displayText);
      expect(done.costUsd, JSON.stringify(lines)).toBeGreaterThan(0.5);
      // Whichever stops it first, the CLI's own cap or Steward's check of the cost it reported, the run says why.
      if (done.status === 'cancelled') expect(done.error).toBe(`Cancelled: it spent $${done.costUsd!.toFixed(2)}, past the per-run budget of $0.50 of instance "Claude"`);
      else expect(done).toMatchObject({ status: 'failed', error: expect.stringMatching(/budget/i) });
      // The CLI stopped itself at its cap (error_max_budget_usd) before a second call.
      expect(lines, JSON.stringify(lines)).toContainEqual(expect.stringMatching(/^Claude Code failed: Reached maximum budget \(\$0\.5\)/));
      expect(model.turns().length - before).toBe(1);
    } finally {
      await agents.api('PATCH', `/api/instances/${instance.id}`, { budget: {} });
    }
  });

  it('holds each run of a resumed thread to usdPerRun by its own cost, not the session’s', async () => {
    expect((await agents.api('PATCH', `/api/instances/${instance.id}`, { budget: { usdPerRun: 0.5 } })).status).toBe(200);
    try {
      // $0.30 each: the session has spent $0.60 by the second run's end, each run $0.30.
      model.script([{ text: ['First.'], usage: { input: 100_000, output: 20 } }]);
      const first = await agents.settled((await send('First of two')).id);
      model.script([{ text: ['Second.'], usage: { input: 100_000, output: 20 } }]);
      const second = await agents.settled((await send('Second of two', first.threadId)).id);
      expect(second.resumedSessionId).toBe(first.sessionId);
      for (const run of [first, second]) {
        expect(run).toMatchObject({ status: 'succeeded', error: null });
        expect(run.costUsd).toBeCloseTo(0.3003);
      }
    } finally {
      await agents.api('PATCH', `/api/instances/${instance.id}`, { budget: {} });
    }
  });
});

// Agent Client Protocol agents against a scripted agent speaking ACP on stdio (fixtures/agents/acp-agent.mjs):
// its updates as the run's messages and lines, its session kept and loaded again for the thread's
// next run, a refusal failing the run, a cancel ending the turn and all it started, and its
// permission requests answered by whoever decides (allowed once when nobody does).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AcpAgent, startAcpAgent } from '../../src/main/core/agents/acp-agent';
import type { AgentEvent, PermissionRequest } from '../../src/main/core/agents/events';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { Instance, Run } from '../../src/shared/contract';
import { type TestCore, startTestCore, tempDir } from '../support/core';
import { settled } from '../support/runs';
import { processesMatching } from '../agents/support';
import { waitFor } from '../support/wait';

const scripted = path.resolve(import.meta.dirname, '../fixtures/agents/acp-agent.mjs');
const agent: AcpAgent = { provider: 'acp', command: process.execPath, args: [scripted] };

let t: TestCore;
let instance: Instance;

beforeAll(async () => {
  t = await startTestCore({ clock: systemClock });
  instance = (await t.api('POST', '/api/instances', { name: 'acp', agent, sandbox: { mode: 'off' } })).body.instance;
});
afterAll(() => t.close());

const send = async (prompt: string, threadId?: string): Promise<Run> => {
  const { status, body } = await t.api('POST', '/api/runs', { instanceId: instance.id, prompt, ...(threadId ? { threadId } : {}) });
  expect(status).toBe(202);
  return body.run as Run;
};
function probed(): Promise<Instance> {
  const current = async () => (await t.api('GET', `/api/instances/${instance.id}`)).body.instance as Instance;
  return waitFor(current, { what: `instance ${instance.id} to be probed`, until: (each) => each.status !== 'provisioning' });
}
const messagesOf = async (run: Run) =>
  ((await t.api('GET', `/api/threads/${run.threadId}?limit=1000`)).body.thread.messages as { runId: string; role: string; content: string }[]).filter((message) => message.runId === run.id).map(({ role, content }) => `${role}: ${content}`);

describe('a run of an ACP agent', () => {
  it('records its thoughts, plan, tool calls with their diffs and answer, and names it in the probe', async () => {
    expect(await probed()).toMatchObject({ status: 'running', imageTag: 'acp:scripted-acp 1.2.3 · loads sessions · host' });
    const run = await settled(t, (await send('please write the file')).id);
    expect(run).toMatchObject({ status: 'succeeded', sessionId: expect.stringMatching(/^acp-/) });
    expect(fs.readFileSync(path.join(instance.workspaceDir, 'out.txt'), 'utf8')).toBe('written by acp\n');
    const target = path.join(instance.workspaceDir, 'out.txt');
    expect(await messagesOf(run)).toEqual([
      'user: please write the file',
      'system: Thinking: Reading the prompt.',
      'system: Plan: [~] answer; [ ] stop',
      'assistant: Hello, world.',
      `tool: Write out.txt ${JSON.stringify({ path: target })}`,
      `system: The agent asks permission (edit) for Write out.txt: --- ${target} (new file) + written by acp { "path": "${target}" }`,
      'system: Permission for Write out.txt: Allow (allow_once) (this instance approves every request)',
      `tool: --- ${target} (new file)\n+ written by acp`,
      // Steward's MCP server was in the session, with the run's key.
      expect.stringMatching(/^assistant: turns before: 0; mcp: steward http http:\/\/127\.0\.0\.1:\d+\/mcp$/),
    ]);
  });

  it("continues the thread's session: loaded again, its replay not recorded twice", async () => {
    const first = await settled(t, (await send('remember tangerine')).id);
    const second = await settled(t, (await send('which fruit?', first.threadId)).id);
    expect(second).toMatchObject({ status: 'succeeded', resumedSessionId: first.sessionId, sessionId: first.sessionId });
    // The replay of the earlier turn (after session/load answered, as Gemini CLI sends it) is not recorded again.
    expect(await messagesOf(second)).toEqual([
      'user: which fruit?',
      'system: Thinking: Reading the prompt.',
      'system: Plan: [~] answer; [ ] stop',
      expect.stringMatching(/^assistant: Hello, world\. turns before: 1; mcp: steward http /),
    ]);
  });

  it('fails a turn the agent refused, saying why', async () => {
    const run = await settled(t, (await send('refuse this')).id);
    expect(run).toMatchObject({ status: 'failed', error: 'The agent refused to go on (refusal).' });
  });

  it('fails a run whose agent died in its turn, with its last words', async () => {
    const run = await settled(t, (await send('crash now')).id);
    expect(run).toMatchObject({ status: 'failed', error: 'The agent exited with code 3: scripted-acp: out of cheese' });
  });

  it('starts a new session when the agent cannot load one, and says so', async () => {
    await t.api('PATCH', `/api/instances/${instance.id}`, { agent: { ...agent, env: { ACP_NO_LOAD: '1' } } });
    try {
      const first = await settled(t, (await send('remember plum')).id);
      const second = await settled(t, (await send('which fruit?', first.threadId)).id);
      expect(second).toMatchObject({ status: 'succeeded', resumedSessionId: first.sessionId });
      expect(second.sessionId).not.toBe(first.sessionId);
      expect(await messagesOf(second)).toContain('system: The agent cannot load sessions: this run starts a new one.');
      expect((await messagesOf(second)).at(-1)).toMatch(/turns before: 0;/);
    } finally {
      await t.api('PATCH', `/api/instances/${instance.id}`, { agent });
    }
  });

  it('ends with a cancel: session/cancel, then nothing of it left running', async () => {
    const marker = String(4000 + Math.floor(Math.random() * 1000));
    const bin = tempDir('steward-acp-cancel-');
    await t.api('PATCH', `/api/instances/${instance.id}`, { agent: { ...agent, env: { ACP_SLEEP: marker } } });
    try {
      const run = await send('wait for me');
      await waitFor(() => processesMatching(`sleep ${marker}`).length > 0, { what: 'the agent to start its sleep', timeoutMs: 10_000 });
      expect((await t.api('POST', `/api/runs/${run.id}/cancel`)).status).toBeLessThan(300);
      expect(await settled(t, run.id)).toMatchObject({ status: 'cancelled' });
      expect(processesMatching(`sleep ${marker}`)).toEqual([]);
      expect(processesMatching(scripted)).toEqual([]);
    } finally {
      await t.api('PATCH', `/api/instances/${instance.id}`, { agent });
      fs.rmSync(bin, { recursive: true, force: true });
    }
  });
});

describe('the probe of an ACP agent', () => {
  const probe = async (acpAgent: AcpAgent): Promise<Instance> => {
    const created = (await t.api('POST', '/api/instances', { name: 'probe', agent: acpAgent, sandbox: { mode: 'off' } })).body.instance as Instance;
    const current = async () => (await t.api('GET', `/api/instances/${created.id}`)).body.instance as Instance;
    return waitFor(current, { what: `instance ${created.id} to be probed`, timeoutMs: 30_000, until: (each) => each.status !== 'provisioning' });
  };

  it('refuses a command that is not there, or that does not speak ACP', async () => {
    expect(await probe({ provider: 'acp', command: 'no-such-acp-agent' })).toMatchObject({ status: 'error', statusReason: "no-such-acp-agent was not found on PATH; install it or set the agent's command to its full path." });
    const notAcp = await probe({ provider: 'acp', command: 'sh', args: ['-c', 'echo "usage: try --acp" >&2; exit 2'] });
    expect(notAcp.status).toBe('error');
    expect(notAcp.statusReason).toMatch(/^sh -c .* did not answer ACP's initialize \(.*\): usage: try --acp; check that its arguments start its ACP mode/);
  });
});

describe('permission requests', () => {
  async function turn(answer: (request: PermissionRequest) => { optionId: string } | { cancelled: true }) {
    const workspaceDir = tempDir('steward-acp-permission-');
    const events: AgentEvent[] = [];
    const asked: PermissionRequest[] = [];
    const agentProcess = startAcpAgent(agent, {
      prompt: 'write it',
      workspaceDir,
      env: {},
      onEvent: (event) => events.push(event),
      requestPermission: (request) => {
        asked.push(request);
        return Promise.resolve(answer(request));
      },
    });
    const exit = await agentProcess.exited;
    const written = fs.existsSync(path.join(workspaceDir, 'out.txt'));
    fs.rmSync(workspaceDir, { recursive: true, force: true });
    return { exit, events, asked, written };
  }

  it('asks whoever decides, with the options, and writes only when allowed', async () => {
    const allowed = await turn(() => ({ optionId: 'once' }));
    expect(allowed.asked).toEqual([expect.objectContaining({ title: 'Write out.txt', kind: 'edit', options: [{ id: 'always', name: 'Always allow', kind: 'allow_always' }, { id: 'once', name: 'Allow', kind: 'allow_once' }, { id: 'no', name: 'Reject', kind: 'reject_once' }] })]);
    expect(allowed).toMatchObject({ written: true, exit: { code: 0, failure: undefined } });
    expect(allowed.events).toContainEqual(expect.objectContaining({ type: 'system', text: 'Permission for Write out.txt: Allow (allow_once)' }));

    const denied = await turn(() => ({ optionId: 'no' }));
    expect(denied).toMatchObject({ written: false, exit: { code: 0, failure: undefined } });
    expect(denied.events).toContainEqual(expect.objectContaining({ type: 'tool_result', output: 'The user rejected the write.', isError: true }));

    const cancelled = await turn(() => ({ cancelled: true }));
    expect(cancelled.written).toBe(false);
    expect(cancelled.events).toContainEqual(expect.objectContaining({ type: 'system', text: 'Permission request for Write out.txt cancelled' }));
  });
});

describe('permissions: ask', () => {
  it('puts the agent’s request to a person as an approval; denied, nothing is written and the run ends', async () => {
    const asking = (await t.api('POST', '/api/instances', { name: 'acp asks', agent, sandbox: { mode: 'off' }, permissions: { mode: 'ask', timeoutSeconds: 600 } })).body.instance as Instance;
    const { body } = await t.api('POST', '/api/runs', { instanceId: asking.id, prompt: 'please write the file' });
    const pending = async () => ((await t.api('GET', `/api/approvals?status=pending&runId=${body.run.id}`)).body.approvals as { id: string; kind: string; title: string }[])[0];
    const approval = await waitFor(pending, { what: 'the agent\'s request as an approval' });
    expect(approval).toMatchObject({ kind: 'tool', title: 'The agent asks to Write out.txt' });
    expect((await t.api('GET', `/api/runs/${body.run.id}`)).body.run.status).toBe('waiting');
    await t.api('POST', `/api/approvals/${approval.id}/decision`, { decision: 'deny', note: 'not that file' });
    const run = await settled(t, body.run.id);
    expect(run.status).toBe('succeeded');
    expect(fs.existsSync(path.join(asking.workspaceDir, 'out.txt'))).toBe(false);
    expect(await messagesOf(run)).toContain('system: Denied over the API: The agent asks to Write out.txt — note: not that file');
  });
});

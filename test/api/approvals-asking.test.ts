// permissions: ask, through the API: the built-in agent asks before write_file (denied: nothing is
// written, the model is told; allowed: written), a run's timeout stands still while it waits for a
// person, and ask on an agent with no way to ask is a 400 that names it.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { Approval, Run } from '../../src/shared/contract';
import { ManualClock } from '../support/clock';
import { type TestCore, startTestCore } from '../support/core';
import { type OpenAiServer, startOpenAiServer } from '../support/openai-server';
import { settled } from '../support/runs';
import { waitFor } from '../support/wait';

let t: TestCore;
let model: OpenAiServer;

beforeAll(async () => {
  t = await startTestCore({ clock: systemClock });
  model = await startOpenAiServer();
});
afterAll(async () => {
  await t.close();
  await model.close();
});

function pendingFor(core: TestCore, runId: string): Promise<Approval> {
  const pending = async () => ((await core.api('GET', `/api/approvals?status=pending&runId=${runId}`)).body.approvals as Approval[])[0];
  return waitFor(pending, { what: `an approval for ${runId}` });
}

const writeCall = (file: string) => ({ name: 'write_file', argumentPieces: [JSON.stringify({ path: file, content: 'hello' })] });

describe('the built-in agent with permissions: ask', () => {
  for (const decision of ['deny', 'allow'] as const) {
    it(`asks before write_file; ${decision === 'deny' ? 'denied, nothing is written and the model is told' : 'allowed, the file is written'}`, async () => {
      const file = `asked-${decision}.txt`;
      const instance = (await t.api('POST', '/api/instances', { name: `careful ${decision}`, agent: { provider: 'openai', baseUrl: model.baseUrl, model: 'qwen3:8b', tools: ['files'] }, permissions: { mode: 'ask', timeoutSeconds: 600 } })).body.instance;
      model.script([{ toolCalls: [writeCall(file)] }, { text: ['Done.'] }]);
      const { run } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: `write ${file}` })).body as { run: Run };
      const approval = await pendingFor(t, run.id);
      expect(approval).toMatchObject({ kind: 'tool', title: `The agent wants to write ${file}`, detail: { tool: 'write_file', path: file } });
      expect(fs.existsSync(path.join(instance.workspaceDir, file))).toBe(false);
      await t.api('POST', `/api/approvals/${approval.id}/decision`, { decision, ...(decision === 'deny' ? { note: 'no files today' } : {}) });
      expect((await settled(t, run.id)).status).toBe('succeeded');
      expect(fs.existsSync(path.join(instance.workspaceDir, file))).toBe(decision === 'allow');
      const toolResult = JSON.stringify(model.requests.at(-1)!.body.messages.at(-1));
      if (decision === 'deny') expect(toolResult).toContain('Not allowed: Denied by a person: no files today');
    });
  }
});

describe('a run that waits for a person', () => {
  it('does not time out while it waits: its timeout stands still', async () => {
    const clock = new ManualClock(new Date());
    const core = await startTestCore({ clock });
    try {
      const script = path.resolve('test/fixtures/approvals/ask-human.mjs');
      const agent = { provider: 'command', preset: 'custom', command: process.execPath, args: [script], stewardTools: true, timeoutSeconds: 60 };
      const instance = (await core.api('POST', '/api/instances', { name: 'patient', agent })).body.instance;
      await core.core.services.instances.idle();
      const { run } = (await core.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'ask' })).body as { run: Run };
      const question = await pendingFor(core, run.id);
      // Five minutes pass while it waits (the question's own timeout is ten): far past the run's 60 s, had it ticked.
      clock.advanceTo(new Date(clock.now().getTime() + 300_000));
      expect((await core.api('GET', `/api/runs/${run.id}`)).body.run.status).toBe('waiting');
      await core.api('POST', `/api/approvals/${question.id}/decision`, { decision: 'allow', answer: 'red' });
      expect((await settled(core, run.id)).status).toBe('succeeded');
    } finally {
      await core.close();
    }
  });
});

describe('an agent that cannot ask', () => {
  it('is refused ask with a 400 that names it', async () => {
    const refused = await t.api('POST', '/api/instances', { name: 'codex asks', agent: { provider: 'command', preset: 'codex' }, permissions: { mode: 'ask', timeoutSeconds: 600 } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'invalid_field', field: 'permissions' });
    expect(refused.body.error.message).toContain('The codex agent has no way to ask before it acts');
  });
});

describe('Steward killed while an agent waits for a person', () => {
  it('finds the run interrupted at the next start, and its question expired with it', async () => {
    const { tempDir } = await import('../support/core');
    const { createApproval } = await import('../../src/main/core/services/approval-records');
    const dataDir = tempDir('steward-asking-');
    const first = await startTestCore({ clock: systemClock, dataDir });
    const instance = (await first.api('POST', '/api/instances', { name: 'parked', agent: { provider: 'command', preset: 'custom', command: 'cat' } })).body.instance;
    await first.api('POST', `/api/instances/${instance.id}/stop`);
    const { run } = (await first.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'ask' })).body as { run: Run };
    // What the store holds when the process dies while its agent waits on ask_human (no graceful stop ran).
    const { store } = first.core;
    store.runs.claim(run.id, new Date().toISOString());
    const question = createApproval(store, { runId: run.id, instanceId: instance.id, threadId: run.threadId, kind: 'question', title: 'Which colour?', detail: { text: 'Which colour?' }, timeoutSeconds: 600 }, new Date());
    store.runs.move(run.id, 'running', 'waiting');
    await first.core.close();

    const second = await startTestCore({ clock: systemClock, dataDir });
    try {
      expect((await second.api('GET', `/api/runs/${run.id}`)).body.run.status).toBe('interrupted');
      expect((await second.api('GET', `/api/approvals/${question.id}`)).body.approval).toMatchObject({ status: 'expired', decidedBy: null });
      expect((await second.api('GET', '/api/approvals?status=pending')).body.approvals).toEqual([]);
    } finally {
      await second.close();
    }
  });
});

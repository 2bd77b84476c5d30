// Cancel ends a run whatever it is doing, within 5 s, and leaves nothing behind: queued behind a
// stopped instance, waiting to be allowed to start, running a command agent, and waiting mid-work
// for a person — the built-in agent on a permission (permissions: ask) and a CLI agent on
// ask_human through Steward's MCP server. Afterwards the run is cancelled, its approvals are
// expired (deciding one answers 409), and no process of the run is left.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { Approval, Run } from '../../src/shared/contract';
import { isEnded } from '../../src/shared/run-states';
import { type TestCore, request, startTestCore } from '../support/core';
import { type OpenAiServer, startOpenAiServer } from '../support/openai-server';
import { processesOfRun } from '../support/processes';
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

const runOf = async (id: string): Promise<Run> => (await t.api('GET', `/api/runs/${id}`)).body.run as Run;
const approvalsOf = async (runId: string): Promise<Approval[]> => (await t.api('GET', `/api/approvals?runId=${runId}`)).body.approvals as Approval[];

/** Cancels, and expects the run ended as cancelled within 5 s with nothing pending and nothing running. */
async function cancelAndCheck(runId: string): Promise<Run> {
  const asked = Date.now();
  expect((await t.api('POST', `/api/runs/${runId}/cancel`)).status).toBe(202);
  const run = await waitFor(() => runOf(runId), { what: `run ${runId} to end`, until: (current) => isEnded(current.status), timeoutMs: 5_000 });
  expect(Date.now() - asked).toBeLessThan(5_000);
  expect(run.status).toBe('cancelled');
  for (const approval of await approvalsOf(runId)) {
    expect(approval.status).toBe('expired');
    expect((await t.api('POST', `/api/approvals/${approval.id}/decision`, { decision: 'allow' })).status).toBe(409);
  }
  expect(processesOfRun(runId)).toEqual([]);
  await t.core.services.runner.done(runId);
  return run;
}

const sleeper = { provider: 'command', preset: 'custom', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] };

describe('cancel', () => {
  it('ends a queued run whose instance is stopped', async () => {
    const instance = (await t.api('POST', '/api/instances', { name: 'stopped', agent: sleeper })).body.instance;
    await t.core.services.instances.idle();
    expect((await t.api('POST', `/api/instances/${instance.id}/stop`)).status).toBe(200);
    const { run } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'later' })).body as { run: Run };
    expect(run.status).toBe('queued');
    expect((await cancelAndCheck(run.id)).error).toBe('Cancelled before it started.');
  });

  it('ends a run waiting to be allowed to start, and its approval expires', async () => {
    const instance = (await t.api('POST', '/api/instances', { name: 'gated', agent: sleeper })).body.instance;
    await t.core.services.instances.idle();
    const webhook = (await t.api('POST', '/api/webhooks', { name: 'Deploy', promptTemplate: 'Deploy {{payload}}', instanceId: instance.id, approval: { mode: 'before-run', timeoutSeconds: 600 } })).body.webhook;
    const fired = await request(webhook.triggerUrl, { method: 'POST', body: 'v2', headers: { 'content-type': 'text/plain' } });
    const run = fired.body.run as Run;
    expect(run.status).toBe('waiting');
    expect((await approvalsOf(run.id)).map((each) => each.status)).toEqual(['pending']);
    await cancelAndCheck(run.id);
  });

  it('ends a running command agent and its process', async () => {
    const instance = (await t.api('POST', '/api/instances', { name: 'busy', agent: sleeper })).body.instance;
    await t.core.services.instances.idle();
    const { run } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'work' })).body as { run: Run };
    await waitFor(() => processesOfRun(run.id).length > 0, { what: 'its agent to start' });
    await cancelAndCheck(run.id);
  });

  it('ends the built-in agent waiting for a person on a permission', async () => {
    const instance = (await t.api('POST', '/api/instances', { name: 'asks first', agent: { provider: 'openai', baseUrl: model.baseUrl, model: 'qwen3:8b', tools: ['shell'] }, permissions: { mode: 'ask', timeoutSeconds: 600 } })).body.instance;
    model.script([{ toolCalls: [{ name: 'shell', argumentPieces: [JSON.stringify({ command: 'touch ran.txt' })] }] }, { text: ['Done.'] }]);
    const { run } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'touch a file' })).body as { run: Run };
    await waitFor(async () => (await approvalsOf(run.id)).some((each) => each.status === 'pending'), { what: 'the permission request' });
    expect((await runOf(run.id)).status).toBe('waiting');
    await cancelAndCheck(run.id);
    expect(fs.existsSync(path.join(instance.workspaceDir, 'ran.txt'))).toBe(false);
  });

  it('ends a CLI agent waiting on ask_human through the MCP server', async () => {
    const script = path.resolve('test/fixtures/approvals/ask-human.mjs');
    const instance = (await t.api('POST', '/api/instances', { name: 'asks a human', agent: { provider: 'command', preset: 'custom', command: process.execPath, args: [script], stewardTools: true } })).body.instance;
    await t.core.services.instances.idle();
    const { run } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'ask' })).body as { run: Run };
    await waitFor(async () => (await approvalsOf(run.id)).some((each) => each.status === 'pending'), { what: 'the question' });
    await cancelAndCheck(run.id);
  });

  it('ends a run cancelled the moment it is claimed, while its agent is still being set up', async () => {
    const instance = (await t.api('POST', '/api/instances', { name: 'just claimed', agent: sleeper })).body.instance;
    await t.core.services.instances.idle();
    const { run } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'go' })).body as { run: Run };
    await waitFor(async () => (await runOf(run.id)).status === 'running', { what: 'it to be claimed' });
    await cancelAndCheck(run.id);
  });
});

// Red team: the run's own key, from a sandboxed run, against another instance (issue 29, "What to
// build" 4): an `off` instance next to it has a secret in its agent's env and ran a prompt with a
// secret in it. The probe reads that run and its messages, lists instances and the activity feed,
// sends it a prompt, makes an automation and a webhook for it, and makes its own then moves them
// to it. None of its secrets may come back, and nothing may have been made or started there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Instance, Run } from '../../../src/shared/contract';
import { lacks } from '../../support/requirements';
import { type Lab, fixture, marker, openLab } from './lab';

const skip = lacks('sandbox');
let lab: Lab;
let victim: Instance;
let victimRun: Run;
let said: Record<string, string> = {};
let text = '';
const envSecret = marker('victim-env');
const promptSecret = marker('victim-prompt');

beforeAll(async () => {
  if (skip) return;
  lab = await openLab();
  victim = await lab.instance({ provider: 'command', preset: 'custom', command: 'cat', env: { VICTIM_TOKEN: envSecret } }, { mode: 'off' }, 'victim');
  victimRun = await lab.run(victim, `the password is ${promptSecret}`);
  const other = victim.id;
  const attacks = [
    ['getRun', 'get_run', { id: victimRun.id }],
    ['getMessages', 'get_run_messages', { id: victimRun.id }],
    ['instances', 'list_instances', {}],
    ['activity', 'list_activity', { limit: 1000 }],
    ['sendPrompt', 'send_prompt', { instanceId: other, prompt: 'id; cat ~/.ssh/*' }],
    ['sendToThread', 'send_prompt', { instanceId: other, prompt: 'id', threadId: victimRun.threadId }],
    ['automationThere', 'create_automation', { name: 'x', prompt: 'id', cronExpression: '0 0 1 1 *', instanceId: other }],
    ['webhookThere', 'create_webhook', { name: 'x', promptTemplate: 'id {{payload}}', instanceId: other }],
    ['automationHere', 'create_automation', { name: 'mine', prompt: 'id', cronExpression: '0 0 1 1 *' }],
    ['automationMoved', 'update_automation', { id: '$automationHere.automation.id', instanceId: other }],
    ['webhookHere', 'create_webhook', { name: 'mine', promptTemplate: 'id {{payload}}' }],
    ['webhookMoved', 'update_webhook', { id: '$webhookHere.webhook.id', instanceId: other }],
    ['ownOnTheirThread', 'send_prompt', { instanceId: '@own', prompt: 'id', threadId: victimRun.threadId }],
    ['automationOnTheirThread', 'create_automation', { name: 't', prompt: 'id', cronExpression: '0 0 1 1 *', threadId: victimRun.threadId, memory: 'continue' }],
    ['automations', 'list_automations', {}],
  ];
  const attacker = await lab.instance(
    { provider: 'command', preset: 'custom', command: 'node', args: [fixture('redteam/run-key.mjs')], stewardTools: true, env: { PROBE_ATTACKS: JSON.stringify(attacks) } },
    { mode: 'sandbox' },
  );
  const run = await lab.run(attacker, 'go', 30_000);
  text = await lab.transcript(run);
  said = await lab.said(run);
  if (process.env.REDTEAM_VERBOSE) console.log(run.status, run.error, text);
}, 60_000);
afterAll(async () => {
  await lab?.close();
});

describe.skipIf(skip)("a run key and another instance", () => {
  it('the probe made every call', () => {
    expect(text).toContain('== done');
    expect(said.automationHere).toMatch(/^ok /);
  });
  it("nothing of the other instance's secrets comes back", () => {
    expect(text).not.toContain(envSecret);
    expect(text).not.toContain(promptSecret);
  });
  it('no run was started there', async () => {
    const runs = (await lab.t.api('GET', `/api/runs?instanceId=${victim.id}&limit=100`)).body.runs as Run[];
    expect(runs.map((run) => run.id)).toEqual([victimRun.id]);
  });
  it("no run or automation of the attacker's joins the other instance's thread", async () => {
    const runs = (await lab.t.api('GET', '/api/runs?limit=100')).body.runs as Run[];
    const automations = (await lab.t.api('GET', '/api/automations')).body.automations as { threadId: string }[];
    expect(runs.filter((run) => run.threadId === victimRun.threadId).map((run) => run.id)).toEqual([victimRun.id]);
    expect(automations.filter((automation) => automation.threadId === victimRun.threadId)).toEqual([]);
  });
  it('no automation or webhook points there', async () => {
    const automations = (await lab.t.api('GET', '/api/automations')).body.automations as { instanceId: string }[];
    const webhooks = (await lab.t.api('GET', '/api/webhooks')).body.webhooks as { instanceId: string }[];
    expect([...automations, ...webhooks].filter((item) => item.instanceId === victim.id)).toEqual([]);
  });
});

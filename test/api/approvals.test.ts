// Approvals through the API, against a real daemon on loopback with a real SQLite file and a clock
// moved by hand: a webhook's run that waits for a person (allowed, denied, expired, decided twice,
// cancelled while it waits, across a restart), the single-use decision links (a GET decides
// nothing, a POST decides once, then 410), and ask_human from a real child process through /mcp
// with its run's key.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../support/clock';
import { type TestCore, request, startTestCore, tempDir } from '../support/core';
import { waitFor } from '../support/wait';

const cores: TestCore[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

async function start(clock = new ManualClock('2026-11-25T10:00:00.000Z'), dataDir?: string) {
  const t = await startTestCore({ clock, dataDir });
  cores.push(t);
  return t;
}

const echo = { provider: 'command', preset: 'custom', command: 'echo', args: ['done'] };

/** A webhook whose runs wait for a person, on an instance that answers at once. */
async function gatedWebhook(t: TestCore, timeoutSeconds = 3600) {
  const instance = (await t.api('POST', '/api/instances', { name: 'gated', agent: echo, sandbox: { mode: 'off', network: [], readDeny: [], writeAllow: [] } })).body.instance;
  await t.core.services.instances.idle();
  const webhook = (await t.api('POST', '/api/webhooks', { name: 'Deploy', promptTemplate: 'Deploy {{payload}}', instanceId: instance.id, approval: { mode: 'before-run', timeoutSeconds } })).body.webhook;
  const fired = await request(webhook.triggerUrl, { method: 'POST', body: 'v2', headers: { 'content-type': 'text/plain' } });
  expect(fired.status).toBe(202);
  expect(fired.body.run.status).toBe('waiting');
  return { instance, webhook, runId: fired.body.run.id as string };
}

const runOf = (t: TestCore, id: string) => t.api('GET', `/api/runs/${id}`).then((answer) => answer.body.run);
const pending = (t: TestCore) => t.api('GET', '/api/approvals?status=pending').then((answer) => answer.body.approvals);

describe('a run that waits before it starts', () => {
  it('starts once allowed, and the decision is in its thread and the feed', async () => {
    const t = await start();
    const { runId } = await gatedWebhook(t);
    const [approval] = await pending(t);
    expect(approval).toMatchObject({ runId, kind: 'run', status: 'pending', title: 'Start a run of webhook "Deploy"?', detail: { text: 'Deploy v2' }, decidedBy: null, expiresAt: '2026-11-25T11:00:00.000Z' });
    expect(approval.links.allow).toMatch(/\/api\/approvals\/links\/[\w-]{43}$/);
    expect((await runOf(t, runId)).status).toBe('waiting');

    const decided = await t.api('POST', `/api/approvals/${approval.id}/decision`, { decision: 'allow', note: 'ship it' });
    expect(decided.status).toBe(200);
    expect(decided.body.approval).toMatchObject({ status: 'allowed', decidedBy: 'api', note: 'ship it', decidedAt: '2026-11-25T10:00:00.000Z' });
    expect(decided.body.approval.links).toBeUndefined();
    await waitFor(() => runOf(t, runId), { what: 'the run to finish', until: (run) => run.status === 'succeeded' });
    const messages = (await t.api('GET', `/api/runs/${runId}/messages`)).body.messages.map((message: { content: string }) => message.content);
    expect(messages).toContain('Allowed over the API: Start a run of webhook "Deploy"? — note: ship it');

    const again = await t.api('POST', `/api/approvals/${approval.id}/decision`, { decision: 'deny' });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'already_decided' });
  });

  it('is cancelled when denied, or when no one answers in time; a decision then is 409 expired', async () => {
    const clock = new ManualClock('2026-11-25T10:00:00.000Z');
    const t = await start(clock);
    const denied = await gatedWebhook(t, 600);
    const [first] = await pending(t);
    await t.api('POST', `/api/approvals/${first.id}/decision`, { decision: 'deny', note: 'not on a Friday' });
    expect(await runOf(t, denied.runId)).toMatchObject({ status: 'cancelled', error: 'Not started: denied through the API (not on a Friday).', startedAt: null });

    const late = await request(denied.webhook.triggerUrl, { method: 'POST', body: 'v3', headers: { 'content-type': 'text/plain' } });
    const [second] = await pending(t);
    clock.advanceTo('2026-11-25T10:10:01.000Z');
    expect(await runOf(t, late.body.run.id)).toMatchObject({ status: 'cancelled', error: 'Not started: not approved within 10 min.' });
    expect((await t.api('GET', `/api/approvals/${second.id}`)).body.approval).toMatchObject({ status: 'expired', decidedBy: 'timeout' });
    const tooLate = await t.api('POST', `/api/approvals/${second.id}/decision`, { decision: 'allow' });
    expect(tooLate.status).toBe(409);
    expect(tooLate.body.error.code).toBe('expired');
  });

  it('cancelled while it waits, its approval expires with it', async () => {
    const t = await start();
    const { runId } = await gatedWebhook(t);
    expect((await t.api('POST', `/api/runs/${runId}/cancel`)).status).toBe(202);
    expect((await runOf(t, runId)).status).toBe('cancelled');
    const [approval] = (await t.api('GET', `/api/approvals?runId=${runId}`)).body.approvals;
    expect(approval).toMatchObject({ status: 'expired', decidedBy: null });
  });

  it('waits across a restart, and its timeout counts from its creation', async () => {
    const clock = new ManualClock('2026-11-25T10:00:00.000Z');
    const dataDir = tempDir('steward-approvals-');
    const first = await startTestCore({ clock, dataDir });
    const { runId } = await gatedWebhook(first, 3600);
    await first.core.close();

    clock.jumpTo('2026-11-25T10:30:00.000Z');
    const second = await start(clock, dataDir);
    expect((await runOf(second, runId)).status).toBe('waiting');
    expect(await pending(second)).toHaveLength(1);
    clock.advanceTo('2026-11-25T11:00:01.000Z');
    expect((await runOf(second, runId)).status).toBe('cancelled');
  });
});

describe('decision links', () => {
  it('a GET shows the request and decides nothing; a POST decides once; then 410 saying what happened', async () => {
    const t = await start();
    const { runId } = await gatedWebhook(t);
    const [approval] = await pending(t);
    const page = await fetch(approval.links.deny);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('Deploy v2');
    expect(html).toContain('<form method="post"><button class="deny" type="submit">Deny</button></form>');
    expect((await runOf(t, runId)).status).toBe('waiting');

    const decided = await fetch(approval.links.deny, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    expect(decided.status).toBe(200);
    expect((await t.api('GET', `/api/approvals/${approval.id}`)).body.approval).toMatchObject({ status: 'denied', decidedBy: 'link' });
    expect((await runOf(t, runId)).status).toBe('cancelled');

    for (const link of [approval.links.deny, approval.links.allow]) {
      const used = await fetch(link, { method: 'POST' });
      expect(used.status).toBe(410);
      expect(await used.text()).toContain('was denied by a link, less than a minute ago, at 10:00 UTC.');
    }
    expect((await fetch(`${t.url}/api/approvals/links/nonsense`)).status).toBe(404);
  });

  it('are shown to admin callers only', async () => {
    const t = await start();
    await gatedWebhook(t);
    const { key } = t.core.services.apiKeys.create('reader', 'read');
    const [seen] = (await t.api('GET', '/api/approvals', undefined, { authorization: `Bearer ${key}` })).body.approvals;
    expect(seen.links).toBeUndefined();
    expect((await t.api('POST', `/api/approvals/${seen.id}/decision`, { decision: 'allow' }, { authorization: `Bearer ${key}` })).status).toBe(403);
  });
});

describe('ask_human', () => {
  it('an agent asks through /mcp with its run key, waits (its run waiting), and gets the answer', async () => {
    const t = await start(new ManualClock(new Date()));
    const script = path.resolve('test/fixtures/approvals/ask-human.mjs');
    const agent = { provider: 'command', preset: 'custom', command: process.execPath, args: [script], stewardTools: true };
    const instance = (await t.api('POST', '/api/instances', { name: 'asker', agent })).body.instance;
    await t.core.services.instances.idle();
    const { run } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'ask' })).body;
    const [question] = await waitFor(() => pending(t), { what: 'the question', until: (list) => list.length === 1 });
    expect(question).toMatchObject({ kind: 'question', runId: run.id, title: 'Which colour should the banner be?', detail: { options: ['red', 'blue'] } });
    expect((await runOf(t, run.id)).status).toBe('waiting');

    await t.api('POST', `/api/approvals/${question.id}/decision`, { decision: 'allow', answer: 'blue' });
    const finished = await waitFor(() => runOf(t, run.id), { what: 'the run to end', until: (each) => each.status === 'succeeded' || each.status === 'failed' });
    expect(finished.status).toBe('succeeded');
    const said = (await t.api('GET', `/api/runs/${run.id}/messages`)).body.messages.map((message: { role: string; content: string }) => message.content);
    expect(said.some((text: string) => text.startsWith('ANSWER ') && text.includes('"answer":"blue"'))).toBe(true);
  });

  it("a question with options is answered from its link's page by one of them, not by a bare yes", async () => {
    const t = await start(new ManualClock(new Date()));
    const script = path.resolve('test/fixtures/approvals/ask-human.mjs');
    const agent = { provider: 'command', preset: 'custom', command: process.execPath, args: [script], stewardTools: true };
    const instance = (await t.api('POST', '/api/instances', { name: 'asker', agent })).body.instance;
    await t.core.services.instances.idle();
    const { run } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'ask' })).body;
    const [question] = await waitFor(() => pending(t), { what: 'the question', until: (list) => list.length === 1 });
    const page = await (await fetch(question.links.allow)).text();
    expect(page).toContain('<button class="allow" type="submit" name="answer" value="red">red</button>');
    expect(page).toContain('<button class="allow" type="submit" name="answer" value="blue">blue</button>');
    const form = (body: string) => fetch(question.links.allow, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    for (const body of ['', 'answer=green']) {
      const refused = await form(body);
      expect(refused.status, body).toBe(400);
      expect(await refused.text(), body).toContain('Pick one of the options the agent offered.');
    }
    const chosen = await form('answer=blue');
    expect(chosen.status).toBe(200);
    expect(await chosen.text()).toContain('The agent has been told "blue".');
    await waitFor(() => runOf(t, run.id), { what: 'the run to end', until: (each) => each.status === 'succeeded' || each.status === 'failed' });
    const said = (await t.api('GET', `/api/runs/${run.id}/messages`)).body.messages.map((message: { content: string }) => message.content);
    expect(said.some((text: string) => text.startsWith('ANSWER ') && text.includes('"answer":"blue"'))).toBe(true);
  });

  it('is refused to a caller that is no run', async () => {
    const t = await start();
    const refused = await t.api('POST', '/api/approvals/questions', { question: 'Anyone?' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain("the run's own key");
  });
});

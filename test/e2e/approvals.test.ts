// End to end: two tabs of the web UI (built from source, in real Chromium) on one real headless
// daemon. A webhook whose runs wait for a person is triggered: the request appears in both tabs'
// Needs you (the navigation counts 1), is allowed in one, and leaves the other without a reload
// while the run goes on to succeed. Then a real agent asks a question (ask_human through /mcp with
// its run's key): it shows inline on the run page in one tab ("waiting for you") and in Needs you
// in the other, is answered with typed text, and the agent gets that answer. Screenshots go to
// test-artifacts/. Skipped, with a line naming what to install, where Chromium is missing.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { artifacts, useE2e } from '../support/e2e';
import { root } from '../support/processes';

const e2e = useE2e({ name: 'approvals' });
const { skip, api } = e2e;
const unsandboxed = { mode: 'off', network: [], readDeny: [], writeAllow: [] };
let first: Page;
let second: Page;
let origin: string;

const runStatus = async (id: string) => (await api<{ run: { status: string } }>('GET', `/api/runs/${id}`)).run.status;

beforeAll(async () => {
  if (skip) return;
  ({ page: first, origin } = e2e);
  // The same context: the second tab has the session cookie too.
  second = await e2e.context.newPage();
});

describe.skipIf(skip)('approvals in two tabs', () => {
  it('a run waiting before it starts: in both tabs, allowed in one, gone from the other without a reload', async () => {
    const { instance } = await api<{ instance: { id: string } }>('POST', '/api/instances', { name: 'Gate', agent: { provider: 'command', preset: 'custom', command: 'echo', args: ['deployed'] }, sandbox: unsandboxed });
    const { webhook } = await api<{ webhook: { token: string } }>('POST', '/api/webhooks', { name: 'Deploy', promptTemplate: 'Deploy {{payload}}', instanceId: instance.id, approval: { mode: 'before-run', timeoutSeconds: 3600 } });
    await first.goto(`${origin}/#/needs-you`);
    await second.goto(`${origin}/#/needs-you`);
    for (const tab of [first, second]) await expect.poll(() => tab.getByText('Nothing waits for you').isVisible()).toBe(true);

    const fired = await fetch(`${origin}/api/webhooks/trigger/${webhook.token}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'v2' });
    expect(fired.status).toBe(202);
    const runId = ((await fired.json()) as { run: { id: string } }).run.id;
    const title = 'Start a run of webhook "Deploy"?';
    for (const tab of [first, second]) {
      await expect.poll(() => tab.getByRole('link', { name: 'Needs you, 1 waiting' }).isVisible(), { timeout: 10_000 }).toBe(true);
      const request = tab.getByRole('article', { name: title });
      await expect.poll(() => request.isVisible()).toBe(true);
      expect(await request.textContent()).toContain('Deploy v2');
      expect(await request.getByRole('link', { name: 'See its run' }).getAttribute('href')).toBe(`#/runs/${runId}`);
    }
    expect(await runStatus(runId)).toBe('waiting');
    await second.screenshot({ path: path.join(artifacts, 'approvals-needs-you.png'), fullPage: true });

    await first.getByRole('article', { name: title }).getByRole('button', { name: 'Allow' }).click();
    await expect.poll(() => second.getByRole('article', { name: title }).count(), { timeout: 10_000 }).toBe(0);
    expect(await second.getByRole('link', { name: 'Needs you, nothing waiting' }).isVisible()).toBe(true);
    expect(await second.getByText('Nothing waits for you').isVisible()).toBe(true);
    await expect.poll(() => runStatus(runId), { timeout: 15_000 }).toBe('succeeded');
  }, 60_000);

  it('a question from a run: inline on its page in one tab, in Needs you in the other, answered with text', async () => {
    const script = path.join(root, 'test/fixtures/approvals/ask-human.mjs');
    const agent = { provider: 'command', preset: 'custom', command: process.execPath, args: [script], stewardTools: true };
    const { instance } = await api<{ instance: { id: string } }>('POST', '/api/instances', { name: 'Asker', agent, sandbox: unsandboxed });
    const { run } = await api<{ run: { id: string } }>('POST', '/api/runs', { instanceId: instance.id, prompt: 'Pick a banner colour.' });
    const question = 'Which colour should the banner be?';

    await second.goto(`${origin}/#/runs/${run.id}`);
    const inline = second.getByRole('article', { name: question });
    await expect.poll(() => inline.isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => second.getByText('waiting for you').first().isVisible()).toBe(true);
    expect(await inline.getByRole('group', { name: 'Choices' }).getByRole('button').allTextContents()).toEqual(['red', 'blue']);
    await expect.poll(() => first.getByRole('article', { name: question }).isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await first.getByRole('link', { name: 'Needs you, 1 waiting' }).isVisible()).toBe(true);
    await second.screenshot({ path: path.join(artifacts, 'approvals-inline-question.png'), fullPage: true });

    await inline.getByLabel('Answer').fill('teal, like the logo');
    await inline.getByRole('button', { name: 'Send answer' }).click();
    await expect.poll(() => first.getByRole('article', { name: question }).count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => runStatus(run.id), { timeout: 20_000 }).toBe('succeeded');
    const { messages } = await api<{ messages: { content: string }[] }>('GET', `/api/runs/${run.id}/messages`);
    expect(messages.some((message) => message.content.startsWith('ANSWER ') && message.content.includes('teal, like the logo'))).toBe(true);
  }, 60_000);
});

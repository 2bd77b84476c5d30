// End to end: two real daemons, each with its own data folder and port, and the web UI of the
// first (built from source, in real Chromium). Through Settings the first follows the second: its
// key is pasted (and stored as a secret), the connection tested, the remote added. Its instance
// shows in Instances with its host, its lines in the Activity feed; a chat with it gets the
// answer of the agent over there. When the second daemon stops, one notice says so above its
// instance, whose card stays. Screenshots go to test-artifacts/. Skipped, with a line naming what
// to install, where Chromium is missing.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Instance } from '../../src/shared/contract';
import { request, tempDir } from '../support/temp';
import { artifacts, useE2e } from '../support/e2e';
import { type Server, runCli, startDaemon } from '../support/processes';
import { waitFor } from '../support/wait';

// Here, the Steward whose web UI is open; there, the second one it follows (started by this file).
const e2e = useE2e({ name: 'remotes-here' });
const { skip } = e2e;
const echo = { provider: 'command', preset: 'custom', command: 'cat' };
const unsandboxed = { mode: 'off', network: [], readDeny: [], writeAllow: [] };
const remoteName = 'Build server';
let there: Server;
let thereKey: string;
let thereInstance: Instance;
let page: Page;
let origin: string;
let dirs: string[] = [];

/** The second daemon's own API, with its own key. */
const remoteApi = (method: string, route: string, body?: unknown) =>
  request(`${there.url}${route}`, { method, headers: { authorization: `Bearer ${thereKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });

beforeAll(async () => {
  if (skip) return;
  ({ page, origin } = e2e);
  const thereDir = tempDir('steward-e2e-remotes-there-');
  dirs = [thereDir];
  thereKey = runCli(['keys', 'create', '--name', 'laptop', '--data-dir', thereDir]).trim().split('\n').at(-1)!;
  there = await startDaemon(thereDir);
  // The second Steward's own instance echoes each prompt back (set with its own API).
  const { instances } = (await remoteApi('GET', '/api/instances')).body as { instances: Instance[] };
  const patched = await remoteApi('PATCH', `/api/instances/${instances[0].id}`, { agent: echo, sandbox: unsandboxed });
  expect(patched.status).toBe(200);
  thereInstance = await waitFor(async () => ((await remoteApi('GET', `/api/instances/${instances[0].id}`)).body as { instance: Instance }).instance, { what: 'its instance to run', timeoutMs: 20_000, until: (instance) => instance.status === 'running' });
}, 120_000);

afterAll(async () => {
  await there?.stop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(skip)('a remote Steward in the web UI', () => {
  it('is added through Settings: the key pasted and stored, the connection tested, then followed', async () => {
    await page.goto(`${origin}/#/settings`);
    await expect.poll(() => page.getByRole('heading', { name: 'Remote Stewards' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await page.getByRole('button', { name: 'Add remote' }).click();
    const form = page.getByRole('form', { name: 'Add a remote Steward' });
    await form.getByLabel('Remote name').fill(remoteName);
    await form.getByLabel('Remote URL').fill(there.url);
    await form.getByLabel('API key').fill(thereKey);
    await form.getByRole('button', { name: 'Test connection' }).click();
    const result = form.getByRole('status');
    await expect.poll(() => result.textContent(), { timeout: 15_000 }).toMatch(/connected Steward \S+ · \d+ ms · 1 instance/);
    await form.getByRole('button', { name: 'Add remote' }).click();
    const row = page.getByRole('table', { name: 'Remote Stewards' }).getByRole('row', { name: new RegExp(remoteName) });
    await expect.poll(() => row.locator('.badge.connected').isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await row.textContent()).toContain('127.0.0.1');
    // The key is a secret of this Steward now, under the name the form suggested.
    expect(await page.getByRole('table', { name: 'Secrets' }).getByText('remote-build-server-key').isVisible()).toBe(true);
    await row.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(artifacts, 'remotes-settings.png'), fullPage: true });
  }, 60_000);

  it('shows its instance in Instances with its host, apart from this Steward’s own of the same name', async () => {
    await page.goto(`${origin}/#/instances`);
    const group = page.getByRole('region', { name: `${remoteName} on 127.0.0.1` });
    const card = group.getByRole('article', { name: thereInstance.name });
    await expect.poll(() => card.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await card.locator('.badge.host').textContent()).toBe('⇄ runs on 127.0.0.1');
    await expect.poll(() => card.locator('.badge.running').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByRole('article', { name: 'Steward' }).count()).toBe(2);
    await page.screenshot({ path: path.join(artifacts, 'remotes-instances.png'), fullPage: true });
  }, 30_000);

  it('chats with it: the prompt goes there, the answer of its agent comes back live', async () => {
    await page.goto(`${origin}/#/chat`);
    await page.getByLabel('Instance', { exact: true }).selectOption({ label: `${thereInstance.name} (on 127.0.0.1)` });
    await expect.poll(() => page.url()).toContain(`#/chat/${thereInstance.id}`);
    const box = page.getByLabel('Message');
    await box.fill('hello from the first Steward');
    await box.press('Enter');
    const conversation = page.getByRole('log', { name: 'Conversation' });
    await expect.poll(() => conversation.locator('[data-role="assistant"]').first().textContent().catch(() => ''), { timeout: 20_000 }).toContain('hello from the first Steward');
    // The run is the second Steward's: it happened there.
    const threadId = /#\/chat\/ins_\w+\/(thr_\w+)$/.exec(page.url())?.[1];
    expect(threadId).toBeTruthy();
    expect((await remoteApi('GET', `/api/threads/${threadId}`)).status).toBe(200);
  }, 45_000);

  it('shows its lines in the Activity feed, named with its host', async () => {
    await page.goto(`${origin}/#/activity`);
    const stream = page.getByRole('log', { name: 'Activity stream' });
    await expect.poll(() => stream.textContent(), { timeout: 15_000 }).toContain('hello from the first Steward');
    expect(await stream.getByText(`${thereInstance.name} (on 127.0.0.1)`).count()).toBeGreaterThan(0);
    expect(await page.getByRole('complementary', { name: 'Filters' }).getByRole('button', { name: `${thereInstance.name} (on 127.0.0.1)` }).isVisible()).toBe(true);
  }, 30_000);

  it('says once that it is unreachable when it stops; its instance’s card stays', async () => {
    await page.goto(`${origin}/#/instances`);
    const group = page.getByRole('region', { name: `${remoteName} on 127.0.0.1` });
    await expect.poll(() => group.getByRole('article').count(), { timeout: 10_000 }).toBe(1);
    await there.stop();
    const notice = page.getByRole('alert', { name: `${remoteName} is unreachable` });
    await expect.poll(() => notice.count(), { timeout: 20_000 }).toBe(1);
    expect(await notice.textContent()).toContain('since');
    expect(await page.getByRole('alert').filter({ hasText: 'unreachable' }).count()).toBe(1);
    const card = group.getByRole('article', { name: thereInstance.name });
    expect(await card.isVisible()).toBe(true);
    expect(await card.locator('.badge.unreachable').isVisible()).toBe(true);
    expect(await card.locator('.error').count()).toBe(0);
    await page.screenshot({ path: path.join(artifacts, 'remotes-unreachable.png'), fullPage: true });
  }, 45_000);
});

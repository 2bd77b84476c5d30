// End to end: a chat with an instance of a remote Steward (two real daemons, the first's web UI in
// real Chromium) when that Steward stops. The chat says what Instances says, in the same words (its
// name, "unreachable", since when), not the instance's raw error; a prompt sent meanwhile is refused
// with the time in local words and the ISO time in its tooltip. Screenshots go to test-artifacts/.
import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Instance } from '../../src/shared/contract';
import { request, tempDir } from '../support/temp';
import { artifacts, useE2e } from '../support/e2e';
import { type Server, runCli, startDaemon } from '../support/processes';
import { waitFor } from '../support/wait';

// Here, the Steward whose web UI is open; there, the remote one it follows (started by this file).
const e2e = useE2e({ name: 'chat-remote-here' });
const { skip } = e2e;
const remoteName = 'Build server';
let here: Server;
let there: Server;
let thereKey: string;
let thereInstance: Instance;
let page: Page;
let api: APIRequestContext;
let dirs: string[] = [];

const remoteApi = (method: string, route: string, body?: unknown) =>
  request(`${there.url}${route}`, { method, headers: { authorization: `Bearer ${thereKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });

async function call<T>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown): Promise<T> {
  const response = await api.fetch(`${here.url}${url}`, { method, ...(body === undefined ? {} : { data: body }) });
  expect(response.ok(), `${method} ${url}: ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

beforeAll(async () => {
  if (skip) return;
  here = e2e.daemon;
  page = e2e.page;
  const thereDir = tempDir('steward-chat-remote-there-');
  dirs = [thereDir];
  thereKey = runCli(['keys', 'create', '--name', 'laptop', '--data-dir', thereDir]).trim().split('\n').at(-1)!;
  there = await startDaemon(thereDir);
  const { instances } = (await remoteApi('GET', '/api/instances')).body as { instances: Instance[] };
  await remoteApi('PATCH', `/api/instances/${instances[0].id}`, { agent: { provider: 'command', preset: 'custom', command: 'cat' }, sandbox: { mode: 'off', network: [], readDeny: [], writeAllow: [] } });
  thereInstance = await waitFor(async () => ((await remoteApi('GET', `/api/instances/${instances[0].id}`)).body as { instance: Instance }).instance, { what: 'its instance to run', timeoutMs: 20_000, until: (instance) => instance.status === 'running' });
  api = e2e.context.request;
  await page.getByRole('heading', { name: 'Activity' }).waitFor();
  await call('PUT', '/api/secrets/build-server-key', { value: thereKey });
  await call('POST', '/api/remotes', { name: remoteName, url: there.url, apiKeyRef: 'build-server-key' });
}, 120_000);

afterAll(async () => {
  await there?.stop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(skip)('a chat with a remote Steward that stops', () => {
  it('says what Instances says, and a prompt refused meanwhile gives its time in local words', async () => {
    await page.goto(`${here.url}/#/chat/${thereInstance.id}`);
    const head = page.locator('.conversation > .bar').first();
    await expect.poll(() => head.locator('.badge.running').isVisible(), { timeout: 20_000 }).toBe(true);
    await there.stop();

    const notice = page.getByRole('alert', { name: `${remoteName} is unreachable` });
    await expect.poll(() => notice.count(), { timeout: 20_000 }).toBe(1);
    expect(await head.locator('.badge.unreachable').isVisible()).toBe(true);
    // Said once, as the remote's state: not as the instance's own error.
    expect(await page.getByText('is not ready').count()).toBe(0);
    expect(await head.locator('.badge.error').count()).toBe(0);
    // Its words: the remote, its state and why (the cause moves on as Steward keeps trying: a stream ended, then a refused connection).
    const wordsOf = async (alert: typeof notice) => [await alert.locator('strong').first().textContent(), await alert.locator('.badge').textContent(), await alert.locator('p.error').textContent()];
    const said = [remoteName, '✕ unreachable', expect.stringMatching(/^Remote “Build server” \(127\.0\.0\.1\) is unreachable: /)];
    expect(await wordsOf(notice)).toEqual(said);

    const box = page.getByLabel('Message');
    await box.fill('are you there?');
    await box.press('Enter');
    const refused = page.locator('.composer [role="alert"]');
    await expect.poll(() => refused.textContent(), { timeout: 15_000 }).toContain('unreachable');
    const text = (await refused.textContent())!;
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    const time = refused.locator('time');
    expect(await time.getAttribute('title')).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    expect(await time.textContent()).toBe(await time.evaluate((node: { title: string }) => new Date(node.title).toLocaleString()));
    // What was typed is kept to send again.
    expect(await box.inputValue()).toBe('are you there?');
    await page.screenshot({ path: path.join(artifacts, 'chat-remote-unreachable.png'), fullPage: true });

    // Instances says the same, in the same words.
    await page.goto(`${here.url}/#/instances`);
    const onInstances = page.getByRole('alert', { name: `${remoteName} is unreachable` });
    await expect.poll(() => onInstances.count(), { timeout: 10_000 }).toBe(1);
    expect(await wordsOf(onInstances)).toEqual(said);
  }, 90_000);
});

// End to end: Chat on a phone (390×844) in real Chromium against a real daemon. The conversation
// takes the width (no sideways page scroll, long unbroken words and names wrap or are cut), the
// chats open from the "Chats" button (Escape closes them and gives focus back), another chat is
// picked and continued by typing and pressing Enter or clicking Send. Then, at desktop width, the
// runs of those prompts say "chat" in Runs, the Source filter finds them, and their page agrees.
// Screenshots go to test-artifacts/.
import path from 'node:path';
import type { APIRequestContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { artifacts, useE2e } from '../support/e2e';
import { waitFor } from '../support/wait';

const e2e = useE2e({ name: 'chat-phone' });
const { skip } = e2e;
// A name as long as allowed, without a space to break at.
const name = `Echo${'x'.repeat(146)}`;
const longWord = 'y'.repeat(150);
let page: Page;
let api: APIRequestContext;
let instanceId: string;
const threads: string[] = [];

type RunBody = { run: { id: string; threadId: string; status: string; source: string; finishedAt: string | null } };

async function call<T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> {
  const response = await api.fetch(`${e2e.daemon.url}${url}`, { method, ...(body === undefined ? {} : { data: body }) });
  expect(response.ok(), `${method} ${url}: ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

const finished = (runId: string) => waitFor(async () => (await call<RunBody>('GET', `/api/runs/${runId}`)).run.finishedAt !== null, { what: `run ${runId} to finish`, timeoutMs: 20_000 });

// The page's globals (this file compiles without the DOM library): functions given to
// page.evaluate run in the page, so they cast globalThis themselves.
type PageGlobals = { document: { documentElement: { scrollWidth: number }; activeElement: { textContent: string | null; getAttribute: (name: string) => string | null } | null }; innerWidth: number };

/** Whether the page scrolls sideways. */
const sideways = () => page.evaluate(() => {
  const { document, innerWidth } = globalThis as unknown as PageGlobals;
  return document.documentElement.scrollWidth > innerWidth;
});
/** What has the keyboard focus: its text, or one of its attributes. */
const focused = (attribute?: string) => page.evaluate((name) => {
  const { document } = globalThis as unknown as PageGlobals;
  return name ? document.activeElement?.getAttribute(name) : document.activeElement?.textContent;
}, attribute);

beforeAll(async () => {
  if (skip) return;
  ({ page } = e2e);
  api = e2e.context.request;
  await page.getByRole('heading', { name: 'Activity' }).waitFor();
  // Two chats with an instance that echoes, seeded the way the app sends them.
  const agent = { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'echo "you said: $(cat)"'] };
  const { instance } = await call<{ instance: { id: string } }>('POST', '/api/instances', { name, agent });
  instanceId = instance.id;
  await waitFor(async () => (await call<{ instance: { status: string } }>('GET', `/api/instances/${instanceId}`)).instance.status === 'running', { what: 'the instance to run', timeoutMs: 20_000 });
  for (const prompt of ['the first topic', `the second topic, with ${longWord}`]) {
    const { run } = await call<RunBody>('POST', '/api/runs', { instanceId, prompt, source: 'chat' });
    await finished(run.id);
    threads.push(run.threadId);
  }
}, 120_000);

describe.skipIf(skip)('Chat at 390 px', () => {
  it('gives the conversation the width, with the chats behind a button', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${e2e.daemon.url}/#/chat/${instanceId}/${threads[1]}`);
    const conversation = page.getByRole('log', { name: 'Conversation' });
    await expect.poll(() => conversation.textContent()).toContain(`you said: the second topic, with ${longWord}`);
    expect(await sideways()).toBe(false);
    const width = async (selector: string) => (await page.locator(selector).boundingBox())!.width;
    expect(await width('.conversation')).toBeGreaterThanOrEqual(340);
    expect(await width('.conversation textarea')).toBeGreaterThanOrEqual(340);
    // The long word wraps inside its bubble rather than widening it.
    const bubble = (await conversation.locator('[data-role="assistant"]').boundingBox())!;
    expect(bubble.x + bubble.width).toBeLessThanOrEqual(390);
    // The list of chats is not beside it: it waits behind the button, which counts them.
    const list = page.getByRole('navigation', { name: `Chats with ${name}` });
    expect(await list.isVisible()).toBe(false);
    await page.screenshot({ path: path.join(artifacts, 'chat-390.png'), fullPage: true });

    const toggle = page.getByRole('button', { name: 'Chats (2)' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    await expect.poll(() => list.isVisible()).toBe(true);
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    // The keyboard starts in the list, on the chat shown.
    expect(await focused('aria-current')).toBe('page');
    expect(await sideways()).toBe(false);
    await page.screenshot({ path: path.join(artifacts, 'chat-390-chats.png'), fullPage: true });
    await page.keyboard.press('Escape');
    await expect.poll(() => list.isVisible()).toBe(false);
    expect(await focused()).toBe('Chats (2)');
  }, 60_000);

  it('picks another chat from the list and continues it with Enter and with Send', async () => {
    await page.getByRole('button', { name: 'Chats (2)' }).click();
    const list = page.getByRole('navigation', { name: `Chats with ${name}` });
    await list.getByRole('link', { name: /the first topic/ }).click();
    await expect.poll(() => page.url()).toBe(`${e2e.daemon.url}/#/chat/${instanceId}/${threads[0]}`);
    await expect.poll(() => list.isVisible()).toBe(false);
    const conversation = page.getByRole('log', { name: 'Conversation' });
    await expect.poll(() => conversation.textContent()).toContain('you said: the first topic');

    const box = page.getByLabel('Message');
    await box.click();
    await box.pressSequentially('typed on a phone');
    await box.press('Enter');
    await expect.poll(() => conversation.textContent(), { timeout: 15_000 }).toContain('you said: typed on a phone');
    await box.fill('sent with the button');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => conversation.textContent(), { timeout: 15_000 }).toContain('you said: sent with the button');
    // The newest reply is on screen, not only in the page.
    const reply = conversation.getByText('you said: sent with the button');
    await expect.poll(() => reply.isVisible()).toBe(true);
    expect(await sideways()).toBe(false);
    await page.screenshot({ path: path.join(artifacts, 'chat-390-continued.png'), fullPage: true });
  }, 60_000);
});

describe.skipIf(skip)('where a chat prompt came from', () => {
  it('says "chat" in Runs and on its page, and the Source filter finds it; a prompt through the API says "api"', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const { run: viaApi } = await call<RunBody>('POST', '/api/runs', { instanceId, prompt: 'sent by a script' });
    await finished(viaApi.id);
    await page.goto(`${e2e.daemon.url}/#/runs`);
    const runs = page.getByRole('table');
    const rowOf = (prompt: string) => runs.getByRole('row').filter({ hasText: prompt });
    await expect.poll(() => rowOf('sent with the button').count()).toBe(1);
    // Its source said once, not "chat chat" nor "api api".
    expect((await rowOf('sent with the button').getByRole('cell').nth(2).textContent())?.trim()).toBe('chat');
    await expect.poll(() => rowOf('sent by a script').count()).toBe(1);
    expect((await rowOf('sent by a script').getByRole('cell').nth(2).textContent())?.trim()).toBe('api');

    await page.getByLabel('Source').selectOption('chat');
    await expect.poll(() => rowOf('sent by a script').count()).toBe(0);
    for (const prompt of ['the first topic', 'typed on a phone', 'sent with the button']) expect(await rowOf(prompt).count()).toBe(1);
    await page.screenshot({ path: path.join(artifacts, 'runs-chat-filter.png') });

    await rowOf('sent with the button').getByRole('link').click();
    const about = page.locator('dl[aria-label="About this run"]');
    await expect.poll(() => about.textContent()).toContain('chat (a prompt in the chat)');
    await page.goto(`${e2e.daemon.url}/#/runs/${viaApi.id}`);
    await expect.poll(() => about.textContent()).toContain('API (a prompt sent through the API)');
  }, 60_000);
});

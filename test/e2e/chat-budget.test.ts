// End to end budget: a chat of 10,000 messages (agent lines with tool calls among them, written by a
// fake Claude Code CLI through a real daemon) opened in Chat in real Chromium. From the click on the
// chat in the list, the page must show the newest message and stop making requests in under 2 s,
// its JS heap stay under 150 MB, and only the rows in view be in the page, tool calls collapsed.
// The figures are printed as one JSON line. A new prompt's reply shows at the bottom (the view
// follows), scrolling up shows older messages, and "Jump to latest" goes back.
// Screenshots go to test-artifacts/.
import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifacts, useE2e } from '../support/e2e';
import { WaitTimeout, waitFor } from '../support/wait';
import { tempDir } from '../support/temp';

const messageCount = 10_000;
const newest = 'the newest of them all';
const e2e = useE2e({ name: 'chat-budget' });
const { skip } = e2e;
let page: Page;
let api: APIRequestContext;
let cdp: CDPSession;
let dirs: string[] = [];
let instanceId: string;
let threadId: string;

// Claude Code's stream-json, as its CLI prints it: asked to "flood N", N - 1 lines (a tool call and
// its result every 25th, each a message of its own) ending with `newest`; asked anything else, an echo.
const fakeClaude = `
let prompt = '';
process.stdin.on('data', (chunk) => (prompt += chunk));
process.stdin.on('end', () => {
  const say = (text) => JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text }] } });
  const flood = /flood (\\d+)/.exec(prompt);
  if (!flood) return process.stdout.write(say('you said: ' + prompt) + '\\n');
  const lines = [];
  const before = Number(flood[1]) - 2;
  for (let i = 1; lines.length < before; i++) {
    if (i % 25 !== 0 || lines.length > before - 2) { lines.push(say('message ' + i)); continue; }
    lines.push(JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: 't' + i, name: 'Bash', input: { command: 'echo ' + i } }] } }));
    lines.push(JSON.stringify({ type: 'user', message: { role: 'user', content: [{ tool_use_id: 't' + i, type: 'tool_result', content: 'output ' + i }] } }));
  }
  lines.push(say(${JSON.stringify(newest)}));
  process.stdout.write(lines.join('\\n') + '\\n');
});
`;

type RunBody = { run: { id: string; threadId: string; status: string; finishedAt: string | null } };

async function call<T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> {
  const response = await api.fetch(`${e2e.daemon.url}${url}`, { method, ...(body === undefined ? {} : { data: body }) });
  expect(response.ok(), `${method} ${url}: ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

async function heapBytes(): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((metric) => metric.name === 'JSHeapUsedSize')!.value;
}

beforeAll(async () => {
  if (skip) return;
  const bin = tempDir('steward-chat-budget-bin-');
  dirs = [bin];
  fs.writeFileSync(path.join(bin, 'fake-claude.mjs'), fakeClaude);
  fs.writeFileSync(path.join(bin, 'claude'), `#!/bin/sh\n[ "$1" = "--version" ] && { echo "2.1.3 (Claude Code)"; exit 0; }\nexec "${process.execPath}" "${path.join(bin, 'fake-claude.mjs')}" "$@"\n`, { mode: 0o755 });
  ({ page } = e2e);
  api = e2e.context.request;
  cdp = await e2e.context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.getByRole('heading', { name: 'Activity' }).waitFor();

  const agent = { provider: 'command', preset: 'claude-code', command: path.join(bin, 'claude'), env: { IS_SANDBOX: '1' } };
  const sandbox = { mode: 'off', network: [], readDeny: [], writeAllow: [] };
  const { instance } = await call<{ instance: { id: string } }>('POST', '/api/instances', { name: 'Talker', agent, sandbox });
  instanceId = instance.id;
  await waitFor(async () => (await call<{ instance: { status: string } }>('GET', `/api/instances/${instanceId}`)).instance.status === 'running', { what: 'the instance to run', timeoutMs: 60_000 });
  const { run } = await call<RunBody>('POST', '/api/runs', { instanceId, prompt: `flood ${messageCount}`, source: 'chat' });
  threadId = run.threadId;
  await waitFor(async () => (await call<RunBody>('GET', `/api/runs/${run.id}`)).run.finishedAt !== null, { what: 'the flood to finish', timeoutMs: 60_000 });
  const { thread } = await call<{ thread: { messages: unknown[]; hasMore: boolean } }>('GET', `/api/threads/${threadId}?after=${messageCount - 5}&limit=10`);
  // The prompt, the agent's lines and nothing after: exactly the count.
  expect(thread.messages.length).toBe(5);
}, 180_000);

afterAll(async () => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(skip)('a chat of 10,000 messages', () => {
  it('opens from the list in under 2 s, under 150 MB of heap, with only the rows in view in the page and tool calls collapsed', async () => {
    await page.goto(`${e2e.daemon.url}/#/chat/${instanceId}`);
    const link = page.getByRole('navigation', { name: 'Chats with Talker' }).getByRole('link', { name: /flood/ });
    await link.waitFor();

    let requests = 0;
    let lastRequestAt = 0;
    // The health poll and the event stream tick on their own: they are not the page catching up.
    const catchingUp = (url: string) => new URL(url).pathname.startsWith('/api/') && !['/api/health', '/api/events'].includes(new URL(url).pathname);
    page.on('request', (request) => {
      if (!catchingUp(request.url())) return;
      requests++;
      lastRequestAt = Date.now();
    });
    page.on('requestfinished', (request) => {
      if (catchingUp(request.url())) lastRequestAt = Math.max(lastRequestAt, Date.now());
    });
    let peakHeap = await heapBytes();
    const last = page.getByText(newest, { exact: true });
    const clickedAt = Date.now();
    await link.click();
    let shownAt = 0;
    const settled = async () => {
      if (!shownAt && (await last.isVisible())) shownAt = Date.now();
      peakHeap = Math.max(peakHeap, await heapBytes());
      // Settled: the newest message shown and no request for a whole second.
      return shownAt > 0 && Date.now() - Math.max(shownAt, lastRequestAt) > 1_000;
    };
    // Up to 30 s after the click; a page that has not settled by then fails on the figures below, which say how far it got.
    await waitFor(settled, { what: 'the chat to settle', timeoutMs: Math.max(clickedAt + 30_000 - Date.now(), 0) }).catch((error: unknown) => {
      if (!(error instanceof WaitTimeout)) throw error;
    });
    const settleMs = Math.max(shownAt, lastRequestAt) - clickedAt;
    const log = page.getByRole('log', { name: 'Conversation' });
    const rowsInPage = await log.locator('.transcript-row').count();
    const figures = { messages: messageCount, settleMs, peakHeapMB: +(peakHeap / 2 ** 20).toFixed(1), apiRequests: requests, rowsInPage };
    console.log(JSON.stringify({ chatBudget: figures }));
    await page.screenshot({ path: path.join(artifacts, 'chat-10000-messages.png') });

    expect(shownAt).toBeGreaterThan(0);
    expect(settleMs).toBeLessThan(2_000);
    expect(peakHeap).toBeLessThan(150 * 2 ** 20);
    expect(rowsInPage).toBeGreaterThan(0);
    expect(rowsInPage).toBeLessThan(100);
    // The newest is on screen inside the conversation, not only in the page.
    const box = (await last.boundingBox())!;
    const frame = (await log.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(frame.y + frame.height + 1);
    // Tool calls stay one collapsed line each.
    expect(await log.locator('details.tools').count()).toBeGreaterThan(0);
    expect(await log.locator('details.tools[open]').count()).toBe(0);
  }, 60_000);

  it('follows a new reply at the bottom, shows older messages when scrolled up, and jumps back', async () => {
    const log = page.getByRole('log', { name: 'Conversation' });
    const box = page.getByLabel('Message');
    await box.fill('are you still there?');
    await box.press('Enter');
    const reply = log.getByText('you said: are you still there?', { exact: true });
    await expect.poll(() => reply.isVisible(), { timeout: 20_000 }).toBe(true);
    const frame = (await log.boundingBox())!;
    const shown = (await reply.boundingBox())!;
    expect(shown.y + shown.height).toBeLessThanOrEqual(frame.y + frame.height + 1);

    await log.hover();
    await page.mouse.wheel(0, -4_000);
    const jump = page.getByRole('button', { name: 'Jump to latest' });
    await expect.poll(() => jump.isVisible()).toBe(true);
    await expect.poll(() => reply.isVisible()).toBe(false);
    // Older messages are drawn as they come into view.
    const older = async () => Number(/message (\d+)/.exec((await log.locator('[data-role="assistant"]').first().textContent()) ?? '')?.[1] ?? Infinity);
    await expect.poll(older).toBeLessThan(9_900);
    expect(await log.locator('details.tools[open]').count()).toBe(0);
    await page.screenshot({ path: path.join(artifacts, 'chat-10000-scrolled.png') });
    await jump.click();
    await expect.poll(() => reply.isVisible()).toBe(true);
    await expect.poll(() => jump.isVisible()).toBe(false);
  }, 60_000);
});

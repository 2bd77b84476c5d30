// @vitest-environment jsdom
// Approvals in the renderer on a real core: Needs you lists the pending requests newest first with
// what each asks (kind, instance, its run, its detail: the command, the file and its diff, the URL;
// when it expires) and the navigation counts them; one decided through the API leaves the list live; Allow with a note decides it as the UI;
// a question from a real agent (ask_human through /mcp) shows inline on its run page and in its
// chat, is answered with a quick choice, and the agent gets the answer; a waiting run reads
// "waiting for you"; a reconnection reloads the list.
import path from 'node:path';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { App } from '../../src/renderer/src/App';
import { NeedsYou } from '../../src/renderer/src/features/approvals/NeedsYou';
import { Toasts } from '../../src/renderer/src/ui/Toasts';
import { Chat } from '../../src/renderer/src/features/chat/Chat';
import { RunView } from '../../src/renderer/src/features/runs/Run';
import type { Approval, Run } from '../../src/shared/contract';
import { type TestCore, request, startTestCore } from '../support/core';
import { createAppStore } from '../../src/renderer/src/store';
import { followLiveEvents } from '../../src/renderer/src/store/events';
import type { StreamEvent } from '../../src/renderer/src/lib/api';
import { connectStore, ipcClientOf, renderWith } from './harness';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore({ clock: systemClock });
});
afterAll(() => t.close());
afterEach(cleanup);

const pending = async (): Promise<Approval[]> => (await t.api('GET', '/api/approvals?status=pending')).body.approvals;
const runOf = async (id: string): Promise<Run> => (await t.api('GET', `/api/runs/${id}`)).body.run;

/** A webhook whose runs wait for a person, on an instance that answers at once; returns a trigger. */
async function gatedWebhook(name: string) {
  const agent = { provider: 'command', preset: 'custom', command: 'echo', args: ['done'] };
  const { instance } = (await t.api('POST', '/api/instances', { name: `${name} box`, agent, sandbox: { mode: 'off', network: [], readDeny: [], writeAllow: [] } })).body;
  await t.core.services.instances.idle();
  const { webhook } = (await t.api('POST', '/api/webhooks', { name, promptTemplate: 'Deploy {{payload}}', instanceId: instance.id, approval: { mode: 'before-run', timeoutSeconds: 7200 } })).body;
  const trigger = async (payload: string): Promise<string> => {
    const fired = await request(webhook.triggerUrl, { method: 'POST', body: payload, headers: { 'content-type': 'text/plain' } });
    expect(fired.status).toBe(202);
    return fired.body.run.id;
  };
  return { instance, trigger };
}

describe('Needs you', () => {
  it('lists pending requests newest first, counts them in the navigation, and drops one decided anywhere', async () => {
    const { instance, trigger } = await gatedWebhook('Deploy');
    const older = await trigger('v1');
    const newer = await trigger('v2');
    const { store, disconnect } = connectStore(t);
    window.location.hash = '#/needs-you';
    renderWith(store, <App />);
    await waitFor(() => expect(screen.getByRole('link', { name: 'Needs you, 2 waiting' })).toBeTruthy());
    await screen.findByRole('region', { name: 'Needs you' });
    const requests = await screen.findAllByRole('article', { name: 'Start a run of webhook "Deploy"?' });
    expect(requests).toHaveLength(2);
    const [first, second] = requests.map((each) => within(each));
    expect(first.getByText('Deploy v2')).toBeTruthy();
    expect(second.getByText('Deploy v1')).toBeTruthy();
    expect(first.getByText('Start a run')).toBeTruthy();
    expect(first.getByText(`${instance.name}`, { exact: false })).toBeTruthy();
    expect(first.getByRole('link', { name: 'See its run' }).getAttribute('href')).toBe(`#/runs/${newer}`);
    expect(first.getAllByRole('time')[1].textContent).toBe('in 2 h');

    // Decided through the API (another tab, the phone): gone from the list and the count, live.
    const older1 = (await pending()).find((each) => each.runId === older)!;
    await t.api('POST', `/api/approvals/${older1.id}/decision`, { decision: 'deny', note: 'not that one' });
    await waitFor(() => expect(screen.getAllByRole('article', { name: 'Start a run of webhook "Deploy"?' })).toHaveLength(1));
    expect(screen.getByRole('link', { name: 'Needs you, 1 waiting' })).toBeTruthy();
    await waitFor(async () => expect((await runOf(older)).status).toBe('cancelled'));

    // Allowed here with a note: decided by the UI, the note kept, and the run starts.
    const last = within(screen.getByRole('article', { name: 'Start a run of webhook "Deploy"?' }));
    fireEvent.change(last.getByLabelText('Note (optional)'), { target: { value: 'ship it' } });
    fireEvent.click(last.getByRole('button', { name: 'Allow' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Start a run of webhook "Deploy"?' })).toBeNull());
    expect(screen.getByText('Nothing waits for you')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Needs you, nothing waiting' })).toBeTruthy();
    const decided = (await t.api('GET', `/api/approvals?status=decided&runId=${newer}`)).body.approvals[0];
    expect(decided).toMatchObject({ status: 'allowed', decidedBy: 'ui', note: 'ship it' });
    await waitFor(async () => expect((await runOf(newer)).status).toBe('succeeded'), { timeout: 10_000 });
    disconnect();
    window.location.hash = '';
  });

  it('says why a request decided elsewhere first could not be decided here', async () => {
    const { trigger } = await gatedWebhook('Release');
    await trigger('v3');
    // A window that has not heard the live event yet (it follows none): the click is refused in words.
    const { client, unregister } = ipcClientOf(t);
    const store = createAppStore(client);
    await Promise.all([store.getState().loadInstances(), store.getState().loadApprovals()]);
    renderWith(store, <><NeedsYou /><Toasts /></>);
    const article = within(await screen.findByRole('article', { name: 'Start a run of webhook "Release"?' }));
    const [approval] = await pending();
    await t.api('POST', `/api/approvals/${approval.id}/decision`, { decision: 'allow' });
    fireEvent.click(article.getByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Start a run of webhook "Release"?' })).toBeNull());
    expect(screen.getByText('Nothing waits for you')).toBeTruthy();
    expect(screen.getByTestId('toasts').textContent).toMatch(/was already allowed \(api\)/);
    unregister();
  });
});

describe('an action an agent asks to take', () => {
  it('shows its command, file and diff, and URL, and a denial with a note reaches the agent', async () => {
    const agent = { provider: 'command', preset: 'custom', command: 'sleep', args: ['30'] };
    const { instance } = (await t.api('POST', '/api/instances', { name: 'Sleeper', agent, sandbox: { mode: 'off', network: [], readDeny: [], writeAllow: [] } })).body;
    await t.core.services.instances.idle();
    const { run } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'work' })).body;
    await waitFor(async () => expect((await runOf(run.id)).status).toBe('running'), { timeout: 10_000 });
    const detail = { text: 'Deploy the site', tool: 'Bash', command: 'git push origin main', path: 'site/index.html', diff: '-<h1>Old</h1>\n+<h1>New</h1>', url: 'https://example.com/deploy' };
    const asked = t.core.services.approvals.ask(run.id, { kind: 'tool', title: 'Run git push origin main', detail, timeoutSeconds: 600 });
    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadInstances(), store.getState().loadApprovals()]);
    renderWith(store, <NeedsYou />);
    const request = within(await screen.findByRole('article', { name: 'Run git push origin main' }));
    expect(request.getByText('Use a tool')).toBeTruthy();
    expect(request.getByText('Deploy the site')).toBeTruthy();
    expect(request.getByLabelText('Command').textContent).toBe('git push origin main');
    expect(request.getByText('site/index.html')).toBeTruthy();
    expect(request.getByLabelText('Changes').textContent).toBe('-<h1>Old</h1>\n+<h1>New</h1>');
    expect(request.getByText('https://example.com/deploy')).toBeTruthy();
    expect(request.queryByLabelText('Answer')).toBeNull();
    fireEvent.change(request.getByLabelText('Note (optional)'), { target: { value: 'not on a Friday' } });
    fireEvent.click(request.getByRole('button', { name: 'Deny' }));
    expect(await asked).toMatchObject({ status: 'denied', decidedBy: 'ui', note: 'not on a Friday' });
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Run git push origin main' })).toBeNull());
    await t.api('POST', `/api/runs/${run.id}/cancel`);
    disconnect();
  });
});

describe('the pending list after a reconnection', () => {
  it('reloads on resync: a request made while the stream was away appears', async () => {
    // Live events by hand: none is delivered but the resync a reconnection announces.
    let hear: (event: StreamEvent) => void = () => undefined;
    const { client, unregister } = ipcClientOf(t);
    const store = createAppStore({ call: client.call.bind(client), subscribe: (listener) => ((hear = listener), () => undefined) });
    const stop = followLiveEvents(store);
    await store.getState().loadApprovals();
    const before = store.getState().approvals!.length;
    const { trigger } = await gatedWebhook('Away');
    const runId = await trigger('while away');
    expect(store.getState().approvals).toHaveLength(before);
    hear({ type: 'resync' });
    await waitFor(() => expect(store.getState().approvals!.map((each) => each.runId)).toContain(runId));
    stop();
    unregister();
    const [approval] = (await pending()).filter((each) => each.runId === runId);
    await t.api('POST', `/api/approvals/${approval.id}/decision`, { decision: 'deny' });
  });
});

describe('a question inline', () => {
  it('shows on the run page and in the chat, is answered with a quick choice, and the agent gets the answer', async () => {
    const script = path.resolve('test/fixtures/approvals/ask-human.mjs');
    const agent = { provider: 'command', preset: 'custom', command: process.execPath, args: [script], stewardTools: true };
    const { instance } = (await t.api('POST', '/api/instances', { name: 'Asker', agent })).body;
    await t.core.services.instances.idle();
    const { run } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'ask' })).body;
    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadInstances(), store.getState().loadRuns()]);
    await waitFor(async () => expect((await pending()).filter((each) => each.runId === run.id)).toHaveLength(1), { timeout: 15_000 });
    await act(() => store.getState().loadApprovals());

    // In the chat, where the conversation is.
    const chat = renderWith(store, <Chat instanceId={instance.id} threadId={run.threadId} />);
    const inChat = within(await screen.findByRole('region', { name: 'Waiting for you' }));
    expect(inChat.getByRole('article', { name: 'Which colour should the banner be?' })).toBeTruthy();
    expect(inChat.getByText('A question')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Asker is waiting for you.'));
    chat.unmount();

    renderWith(store, <RunView id={run.id} />);
    await waitFor(() => expect(screen.getAllByText('waiting for you').length).toBeGreaterThan(0));
    const request = within(await screen.findByRole('article', { name: 'Which colour should the banner be?' }));
    expect(request.queryByRole('link', { name: 'See its run' })).toBeNull();
    // An answer is needed to answer.
    fireEvent.click(request.getByRole('button', { name: 'Send answer' }));
    expect(request.getByRole('alert').textContent).toBe('Type an answer, or pick one of the choices.');
    const choices = within(request.getByRole('group', { name: 'Choices' }));
    fireEvent.click(choices.getByRole('button', { name: 'blue' }));
    expect(request.getByLabelText<HTMLTextAreaElement>('Answer').value).toBe('blue');
    expect(choices.getByRole('button', { name: 'blue' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(request.getByRole('button', { name: 'Send answer' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Which colour should the banner be?' })).toBeNull());
    await waitFor(async () => expect((await runOf(run.id)).status).toBe('succeeded'), { timeout: 15_000 });
    const said = (await t.api('GET', `/api/runs/${run.id}/messages`)).body.messages.map((message: { content: string }) => message.content);
    expect(said.some((text: string) => text.startsWith('ANSWER ') && text.includes('"answer":"blue"'))).toBe(true);
    disconnect();
  });
});

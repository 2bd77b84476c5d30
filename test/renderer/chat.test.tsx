// @vitest-environment jsdom
// The chat on a real core, through the whole app and its router: Enter sends and Shift+Enter does
// not, a first message opens a thread, the next one continues it (two turns, one thread), replies
// arrive live by fetching only what is new, "New chat" starts another, and the list shows both.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { App } from '../../src/renderer/src/App';
import type { CallInput, StewardClient } from '../../src/renderer/src/lib/api';
import { type TestCore, startTestCore } from '../support/core';
import { connectStore, renderWith } from './harness';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore({ clock: systemClock });
});
afterAll(() => t.close());
afterEach(cleanup);

/** Counts the messages every threads.get of the store brings back. */
function recordThreadLoads(client: StewardClient): { client: StewardClient; fetched: number[] } {
  const fetched: number[] = [];
  return {
    fetched,
    client: {
      subscribe: (listener) => client.subscribe(listener),
      call: (async (name: Parameters<StewardClient['call']>[0], input?: CallInput) => {
        const answer = await client.call(name, input);
        if (name === 'threads.get') fetched.push((answer as { thread: { messages: unknown[] } }).thread.messages.length);
        return answer;
      }) as StewardClient['call'],
    },
  };
}

describe('the chat', () => {
  it('sends with Enter, continues the thread, follows replies live, and lists the chats', async () => {
    const { instance } = (await t.api('POST', '/api/instances', { name: 'Echo', agent: { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'echo "you said: $(cat)"'] } })).body;
    await t.core.services.instances.idle();
    const { store, disconnect } = connectStore(t);
    const recorded = recordThreadLoads(store.getState().client);
    store.setState({ client: recorded.client });
    window.location.hash = `#/chat/${instance.id}`;
    renderWith(store, <App />);

    // The view is loaded lazily: its first import may take a while on a busy machine.
    const chats = await screen.findByRole('navigation', { name: 'Chats with Echo' }, { timeout: 10_000 });
    await waitFor(() => expect(chats.textContent).toContain('No chats yet.'));
    const box = screen.getByLabelText<HTMLTextAreaElement>('Message');
    fireEvent.change(box, { target: { value: 'first line' } });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(box.value).toBe('first line');
    expect((await t.api('GET', '/api/runs')).body.runs.filter((run: { instanceId: string }) => run.instanceId === instance.id)).toEqual([]);

    fireEvent.change(box, { target: { value: 'hello' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(window.location.hash).toMatch(new RegExp(`^#/chat/${instance.id}/thr_`)));
    const threadId = window.location.hash.split('/')[3];
    const conversation = await screen.findByRole('log', { name: 'Conversation' });
    await waitFor(() => expect(conversation.textContent).toContain('you said: hello'), { timeout: 10_000 });

    const again = screen.getByLabelText('Message');
    fireEvent.change(again, { target: { value: 'and again' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.getByRole('log', { name: 'Conversation' }).textContent).toContain('you said: and again'), { timeout: 10_000 });
    const turns = [...screen.getByRole('log', { name: 'Conversation' }).querySelectorAll('[data-role]')].map((node) => node.getAttribute('data-role'));
    expect(turns).toEqual(['user', 'assistant', 'user', 'assistant']);
    const thread = (await t.api('GET', `/api/threads/${threadId}`)).body.thread;
    expect(thread.messages.map((m: { content: string }) => m.content)).toEqual(['hello', 'you said: hello', 'and again', 'you said: and again']);
    // Every load asked only for what was new: no message came twice, however many lines arrived.
    expect(recorded.fetched.reduce((sum, count) => sum + count, 0)).toBe(4);

    await waitFor(() => expect(within(chats).getAllByRole('link').map((link) => link.textContent)).toEqual([expect.stringContaining('hello')]));
    fireEvent.click(screen.getByRole('button', { name: 'New chat' }));
    await waitFor(() => expect(window.location.hash).toBe(`#/chat/${instance.id}`));
    expect(screen.getByText('A new chat with Echo')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'another topic' } });
    fireEvent.keyDown(screen.getByLabelText('Message'), { key: 'Enter' });
    await waitFor(() => expect(screen.getByRole('log', { name: 'Conversation' }).textContent).toContain('you said: another topic'), { timeout: 10_000 });
    await waitFor(() => expect(within(chats).getAllByRole('link').map((link) => link.firstElementChild?.textContent)).toEqual(['another topic', 'hello']));
    expect(within(chats).getByRole('link', { current: 'page' }).textContent).toContain('another topic');
    disconnect();
  });

  it('opens the chats as a panel from the "Chats" button: focus goes in, Escape closes it and gives focus back', async () => {
    const { instance } = (await t.api('POST', '/api/instances', { name: 'Lister', agent: { provider: 'command', preset: 'custom', command: 'cat' } })).body;
    await t.core.services.instances.idle();
    await t.api('POST', `/api/instances/${instance.id}/stop`);
    const { run } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'one topic', source: 'chat' })).body;
    const { store, disconnect } = connectStore(t);
    window.location.hash = `#/chat/${instance.id}/${run.threadId}`;
    renderWith(store, <App />);
    const toggle = await screen.findByRole('button', { name: 'Chats (1)' }, { timeout: 10_000 });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    const panel = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(panel.className).toBe('chat-list');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(panel.className).toBe('chat-list open');
    await waitFor(() => expect(document.activeElement?.textContent).toContain('one topic'));
    fireEvent.keyDown(window, { key: 'Escape' });
    await waitFor(() => expect(toggle.getAttribute('aria-expanded')).toBe('false'));
    expect(document.activeElement).toBe(toggle);
    // Its Close button does the same.
    fireEvent.click(toggle);
    fireEvent.click(within(panel).getByRole('button', { name: 'Close' }));
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(toggle);
    disconnect();
  });

  it('says when the instance is stopped, shows the waiting prompt, and starts it on request', async () => {
    const { instance } = (await t.api('POST', '/api/instances', { name: 'Napper', agent: { provider: 'command', preset: 'custom', command: 'cat' } })).body;
    await t.core.services.instances.idle();
    await t.api('POST', `/api/instances/${instance.id}/stop`);
    const { store, disconnect } = connectStore(t);
    window.location.hash = `#/chat/${instance.id}`;
    renderWith(store, <App />);
    const box = await screen.findByLabelText('Message');
    fireEvent.change(box, { target: { value: 'wake up' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(screen.getByText('You · waiting')).toBeTruthy());
    const status = screen.getByRole('status');
    expect(status.textContent).toContain('Napper is stopped.');
    fireEvent.click(within(status).getByRole('button', { name: 'Start it' }));
    await waitFor(() => expect(screen.getByRole('log', { name: 'Conversation' }).textContent).toContain('wake up'), { timeout: 10_000 });
    await waitFor(() => expect(screen.queryByText('You · waiting')).toBeNull());
    disconnect();
  });
});

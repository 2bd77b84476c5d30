// @vitest-environment jsdom
// The MCP server list editor, with Testing Library on a real core: in Settings (a command with
// arguments and environment, a URL whose header is a stored secret; edit, remove, problems in
// words, the server's refusal on its row) and in an openai instance's "Edit agent" form.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Toasts } from '../../src/renderer/src/ui/Toasts';
import { Instances } from '../../src/renderer/src/features/instances/Instances';
import { Settings } from '../../src/renderer/src/features/settings/Settings';
import { type TestCore, startTestCore } from '../support/core';
import { connectStore, renderWith } from './harness';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(() => t.close());
afterEach(cleanup);

describe('MCP servers in Settings', () => {
  it('adds a command and a URL with a secret header, edits, removes and saves them; problems are said in words', async () => {
    await t.api('PUT', '/api/secrets/DOCS_TOKEN', { value: 'Bearer docs-1' });
    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadSettings(), store.getState().loadSecrets()]);
    renderWith(store, <><Settings /><Toasts /></>);
    const card = (await screen.findByRole('heading', { name: 'MCP servers' })).parentElement!;

    fireEvent.click(within(card).getByRole('button', { name: 'Add MCP server' }));
    let editor = within(card).getByRole('group', { name: 'New MCP server' });
    fireEvent.click(within(editor).getByRole('button', { name: 'Apply' }));
    expect(within(editor).getByText(/Use 1 to 32 lowercase letters/)).toBeTruthy();
    expect(within(editor).getByText('Give the command that starts the server, e.g. npx.')).toBeTruthy();
    fireEvent.change(within(editor).getByLabelText('Server name'), { target: { value: 'everything' } });
    fireEvent.change(within(editor).getByLabelText('Command'), { target: { value: 'npx' } });
    fireEvent.click(within(editor).getByRole('button', { name: 'Add argument' }));
    fireEvent.click(within(editor).getByRole('button', { name: 'Add argument' }));
    fireEvent.change(within(editor).getByLabelText('Argument 1'), { target: { value: '-y' } });
    fireEvent.change(within(editor).getByLabelText('Argument 2'), { target: { value: '@modelcontextprotocol/server-everything' } });
    fireEvent.change(within(editor).getByLabelText('Environment'), { target: { value: 'LOG_LEVEL=debug' } });
    fireEvent.click(within(editor).getByRole('button', { name: 'Apply' }));
    expect(within(card).getByRole('row', { name: /everything/ }).textContent).toContain('npx -y @modelcontextprotocol/server-everything');

    fireEvent.click(within(card).getByRole('button', { name: 'Add MCP server' }));
    editor = within(card).getByRole('group', { name: 'New MCP server' });
    fireEvent.change(within(editor).getByLabelText('Server name'), { target: { value: 'everything' } });
    fireEvent.change(within(editor).getByLabelText('Transport'), { target: { value: 'http' } });
    fireEvent.change(within(editor).getByLabelText('URL'), { target: { value: 'https://docs.example.com/mcp' } });
    fireEvent.click(within(editor).getByRole('button', { name: 'Add header' }));
    fireEvent.click(within(editor).getByRole('button', { name: 'Apply' }));
    expect(within(editor).getByText('Another server is named everything.')).toBeTruthy();
    expect(within(editor).getByText('Each header needs a name and a secret.')).toBeTruthy();
    fireEvent.change(within(editor).getByLabelText('Server name'), { target: { value: 'docs' } });
    fireEvent.change(within(editor).getByLabelText('Header 1 secret'), { target: { value: 'DOCS_TOKEN' } });
    fireEvent.click(within(editor).getByRole('button', { name: 'Apply' }));
    fireEvent.click(within(card).getByRole('button', { name: 'Save MCP servers' }));
    await waitFor(() => expect(screen.getByTestId('toasts').textContent).toContain('MCP servers saved.'));
    expect((await t.api('GET', '/api/settings')).body.settings.mcpServers).toEqual([
      { name: 'everything', transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'], env: { LOG_LEVEL: 'debug' } },
      { name: 'docs', transport: 'http', url: 'https://docs.example.com/mcp', headers: { Authorization: 'DOCS_TOKEN' } },
    ]);

    // The server's own refusal (an environment variable's name) shows on the row it concerns.
    fireEvent.click(within(card).getByRole('button', { name: 'Edit everything' }));
    editor = within(card).getByRole('group', { name: 'MCP server everything' });
    expect(within(editor).getByLabelText<HTMLTextAreaElement>('Environment').value).toBe('LOG_LEVEL=debug');
    fireEvent.change(within(editor).getByLabelText('Environment'), { target: { value: '1BAD=x' } });
    fireEvent.click(within(editor).getByLabelText('Use it in runs'));
    fireEvent.click(within(editor).getByRole('button', { name: 'Apply' }));
    fireEvent.click(within(card).getByRole('button', { name: 'Save MCP servers' }));
    await waitFor(() => expect(within(within(card).getByRole('row', { name: /everything/ })).getByRole('alert').textContent).toContain('MCP servers, entry 1 env: "1BAD" is not a variable name'));
    expect(within(card).getByRole('row', { name: /everything/ }).textContent).toContain('(off)');

    fireEvent.click(within(card).getByRole('button', { name: 'Remove everything' }));
    fireEvent.click(within(card).getByRole('button', { name: 'Save MCP servers' }));
    await waitFor(async () => expect((await t.api('GET', '/api/settings')).body.settings.mcpServers.map((each: { name: string }) => each.name)).toEqual(['docs']));
    disconnect();
  });
});

describe('MCP servers of an instance', () => {
  it('are edited in the openai agent form and saved with the agent', async () => {
    const { store, disconnect } = connectStore(t);
    const instance = await store.getState().createInstance({ name: 'Local model', agent: { provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'qwen3:8b' } });
    await store.getState().loadSettings();
    renderWith(store, <Instances />);
    const card = screen.getByRole('article', { name: 'Local model' });
    fireEvent.click(within(card).getByRole('button', { name: 'Edit agent' }));
    const form = within(card).getByRole('form', { name: 'Agent of Local model' });
    fireEvent.click(within(form).getByRole('button', { name: 'Add MCP server' }));
    const editor = within(form).getByRole('group', { name: 'New MCP server' });
    fireEvent.change(within(editor).getByLabelText('Server name'), { target: { value: 'files' } });
    fireEvent.change(within(editor).getByLabelText('Command'), { target: { value: 'npx' } });
    fireEvent.click(within(editor).getByRole('button', { name: 'Add argument' }));
    fireEvent.change(within(editor).getByLabelText('Argument 1'), { target: { value: '@modelcontextprotocol/server-filesystem' } });
    fireEvent.click(within(editor).getByRole('button', { name: 'Add argument' }));
    fireEvent.change(within(editor).getByLabelText('Argument 2'), { target: { value: '.' } });
    fireEvent.click(within(editor).getByRole('button', { name: 'Apply' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Save agent' }));
    await waitFor(() => expect(store.getState().instances.find((each) => each.id === instance.id)?.agent).toMatchObject({ mcpServers: [{ name: 'files', transport: 'stdio', command: 'npx', args: ['@modelcontextprotocol/server-filesystem', '.'] }] }));
    disconnect();
  });
});

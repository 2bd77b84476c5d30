// @vitest-environment jsdom
// Escape closes every editor and viewer, the innermost first: the webhook form, the new instance
// form, and an MCP server form open inside it (the instance form stays until a second Escape).
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Instances } from '../../src/renderer/src/features/instances/Instances';
import { Webhooks } from '../../src/renderer/src/features/webhooks/Webhooks';
import { type TestCore, startTestCore } from '../support/core';
import { connectStore, renderWith } from './harness';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(() => t.close());
afterEach(cleanup);

const escape = () => fireEvent.keyDown(window, { key: 'Escape' });

describe('Escape', () => {
  it('closes the webhook form', async () => {
    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadInstances(), store.getState().loadWebhooks()]);
    renderWith(store, <Webhooks />);
    fireEvent.click(screen.getAllByRole('button', { name: 'New webhook' })[0]);
    expect(screen.getByRole('form', { name: 'New webhook' })).toBeTruthy();
    escape();
    await waitFor(() => expect(screen.queryByRole('form', { name: 'New webhook' })).toBeNull());
    disconnect();
  });

  it('closes an MCP server form inside the new instance form first, then the instance form', async () => {
    const { store, disconnect } = connectStore(t);
    await store.getState().loadInstances();
    renderWith(store, <Instances />);
    fireEvent.click(screen.getByRole('button', { name: 'New instance' }));
    const form = screen.getByRole('form', { name: 'New instance' });
    fireEvent.change(within(form).getByLabelText('Agent'), { target: { value: 'openai' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add MCP server' }));
    expect(within(form).getByRole('group', { name: 'New MCP server' })).toBeTruthy();
    escape();
    await waitFor(() => expect(within(form).queryByRole('group', { name: 'New MCP server' })).toBeNull());
    expect(screen.getByRole('form', { name: 'New instance' })).toBe(form);
    escape();
    await waitFor(() => expect(screen.queryByRole('form', { name: 'New instance' })).toBeNull());
    disconnect();
  });
});

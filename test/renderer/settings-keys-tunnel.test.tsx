// @vitest-environment jsdom
// Settings' small truths, on a real core: each API key scope is explained beside the keys; a key
// made by another process on the same data folder (as `steward keys create` makes it, writing the
// folder directly) appears without a reload, and one revoked there goes; the tunnel's Start,
// disabled until a tunnel is saved, says why next to it.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core';
import { silentLogger } from '../../src/main/core/logger';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { Settings } from '../../src/renderer/src/features/settings/Settings';
import { type TestCore, startTestCore } from '../support/core';
import { connectStore, renderWith } from './harness';

let t: TestCore;
beforeAll(async () => {
  // The key watch runs on real timers (every 2 s).
  t = await startTestCore({ clock: systemClock });
});
afterAll(async () => {
  await t?.close();
});
afterEach(cleanup);

/** What the CLI does: the data folder opened in another core, not listening, and a key made there. */
async function besideTheDaemon<T>(work: (core: Awaited<ReturnType<typeof createCore>>) => Promise<T> | T): Promise<T> {
  const cli = await createCore({ dataDir: t.dataDir, listen: false, logger: silentLogger() });
  try {
    return await work(cli);
  } finally {
    await cli.close();
  }
}

describe('Settings: keys and tunnel', () => {
  it('explains each scope; a key made or revoked by the CLI shows without a reload; Start says why it waits', async () => {
    const { store, disconnect } = connectStore(t);
    await store.getState().loadSettings();
    renderWith(store, <Settings />);
    const scopes = await screen.findByLabelText('What the scopes allow');
    for (const [scope, words] of [['read', 'Changes nothing.'], ['runs', 'starts and cancels runs'], ['admin', 'decides approvals']]) {
      expect(within(scopes).getByText(scope)).toBeTruthy();
      expect(scopes.textContent).toContain(words);
    }

    const start = screen.getByRole<HTMLButtonElement>('button', { name: 'Start tunnel' });
    expect(start.disabled).toBe(true);
    expect(start.getAttribute('aria-describedby')).toBe('tunnel-start-note');
    expect(document.getElementById('tunnel-start-note')?.textContent).toBe('Save the tunnel first: Start uses the saved settings.');

    const made = await besideTheDaemon((cli) => cli.services.apiKeys.create('made-by-cli', 'read').apiKey);
    await waitFor(() => expect(screen.getByText('made-by-cli')).toBeTruthy(), { timeout: 6_000 });
    await besideTheDaemon((cli) => cli.services.apiKeys.revoke(made.id));
    await waitFor(() => expect(screen.queryByText('made-by-cli')).toBeNull(), { timeout: 6_000 });
    disconnect();
  }, 30_000);
});

// @vitest-environment jsdom
// The activity view on a real core with more lines than one page: its filters are asked of the
// server, so matches older than the newest 1,000 lines are found; "Load older" pages back; live
// lines join only when the same filters keep them.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { ActivityKind } from '../../src/shared/contract';
import { activityPageSize } from '../../src/renderer/src/features/activity/activity-slice';
import { Activity } from '../../src/renderer/src/features/activity/Activity';
import { type TestCore, startTestCore } from '../support/core';
import { connectStore, renderWith } from './harness';

let t: TestCore;
let instanceId: string;

beforeAll(async () => {
  t = await startTestCore({ clock: systemClock });
  instanceId = (await t.api('POST', '/api/instances', { name: 'Talker', agent: { provider: 'command', preset: 'custom', command: 'cat' } })).body.instance.id;
  await t.core.services.instances.idle();
});
afterAll(() => t.close());
afterEach(cleanup);

function append(kind: ActivityKind, text: string, at = new Date()): void {
  t.core.store.transaction(() => t.core.store.activity.append({ instanceId, runId: null, kind, label: '', displayText: text, raw: '{}', timestamp: at.toISOString() }));
}

/** The stream's lines written by this test, top to bottom. */
const lines = () =>
  [...screen.getByRole('log', { name: 'Activity stream' }).querySelectorAll('.line')].flatMap((line) => /(?:tool|said) \d+$/.exec(line.textContent ?? '')?.[0] ?? []);

describe('the activity view with more than 1,000 lines', () => {
  it('finds old matching lines on the server, pages back, and filters live lines the same way', async () => {
    const now = Date.now();
    const hourAgo = now - 3600e3;
    t.core.store.transaction(() => {
      for (let index = 1; index <= 5; index++) append('tool', `tool ${index}`, new Date(hourAgo + index));
      for (let index = 1; index <= 1_200; index++) append('assistant', `said ${index}`, new Date(now + index));
    });
    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadInstances(), store.getState().loadActivity()]);
    renderWith(store, <Activity />);
    // Unfiltered: the newest page, newest first, and older ones on demand.
    await waitFor(() => expect(lines()).toHaveLength(activityPageSize));
    expect(lines()[0]).toBe('said 1200');
    fireEvent.click(screen.getByRole('button', { name: 'Load older' }));
    // The page before overlaps the oldest line's millisecond by design: nothing is shown twice or skipped.
    await waitFor(() => expect(lines().length).toBeGreaterThan(activityPageSize + 100));
    expect(lines()).toEqual(Array.from({ length: lines().length }, (_, index) => `said ${1_200 - index}`));

    // The five tool lines are older than the newest 1,200: the server finds them.
    fireEvent.click(within(screen.getByRole('group', { name: 'Kind' })).getByRole('button', { name: 'tool' }));
    await waitFor(() => expect(lines()).toEqual(['tool 5', 'tool 4', 'tool 3', 'tool 2', 'tool 1']));
    expect(screen.queryByText('No lines match the filters')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Load older' })).toBeNull();

    // Live: a line the filter keeps arrives, one it does not stays out. Both are the newest lines
    // whatever the time is now (the 1,200 above reach 1.2 s past the start).
    append('assistant', 'said 1201', new Date(Math.max(Date.now(), now + 1_201)));
    append('tool', 'tool 6', new Date(Math.max(Date.now(), now + 1_202)));
    await waitFor(() => expect(lines()[0]).toBe('tool 6'));
    expect(lines()).not.toContain('said 1201');

    fireEvent.click(screen.getByRole('button', { name: 'Reset filters' }));
    await waitFor(() => expect(lines().slice(0, 3)).toEqual(['tool 6', 'said 1201', 'said 1200']));
    disconnect();
  });
});

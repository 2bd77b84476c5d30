// @vitest-environment jsdom
// The run page's outcome and retries on a real core: the agent's outcome and summary shown first,
// the cost and tokens the run recorded, why a failed run failed in words with a link to its retry,
// and the retry's link back and when it may start. The fields are set in the store as the runner
// and the outcome tool set them.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/main/core/ids';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { RunView } from '../../src/renderer/src/features/runs/Run';
import { RunList } from '../../src/renderer/src/features/runs/Runs';
import type { Run } from '../../src/shared/contract';
import { type TestCore, startTestCore } from '../support/core';
import { settled } from '../support/runs';
import { connectStore, renderWith } from './harness';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore({ clock: systemClock });
});
afterAll(() => t.close());
afterEach(cleanup);

const facts = () => {
  const list = document.querySelector('dl[aria-label="About this run"]')!;
  return Object.fromEntries([...list.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent])) as Record<string, string>;
};

async function automationRun(agent: unknown, name: string): Promise<{ run: Run; instanceId: string }> {
  const { instance } = (await t.api('POST', '/api/instances', { name, agent, sandbox: { mode: 'off' } })).body;
  await t.core.services.instances.idle();
  const { automation } = (await t.api('POST', '/api/automations', { name, prompt: 'Look at the PRs.', cronExpression: '@yearly', instanceId: instance.id })).body;
  return { run: await settled(t, (await t.api('POST', `/api/automations/${automation.id}/run`)).body.run.id), instanceId: instance.id };
}

describe('the run page', () => {
  it('shows the outcome and summary first, and the cost and tokens the run recorded; the run list shows them too', async () => {
    const { run } = await automationRun({ provider: 'command', preset: 'custom', command: 'cat' }, 'Reviewer');
    expect(run.status).toBe('succeeded');
    t.core.store.runs.setOutcome(run.id, 'needs_attention', 'Two PRs wait for your review.');
    t.core.store.runs.setUsage(run.id, { costUsd: 0.0456, inputTokens: 1200, outputTokens: 300 });
    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadInstances(), store.getState().loadAutomations()]);
    renderWith(store, <RunView id={run.id} />);
    const outcome = await screen.findByRole('group', { name: 'Outcome' });
    expect(outcome.textContent).toBe('⚑ Needs attention' + 'Two PRs wait for your review.');
    // Before the facts: the first thing read under the title.
    expect(outcome.compareDocumentPosition(document.querySelector('dl[aria-label="About this run"]')!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(facts()).toMatchObject({ Cost: '$0.0456', Tokens: '1,200 in · 300 out' });
    expect(facts().Failure).toBeUndefined();
    cleanup();

    // The run list shows the outcome beside the status, and the summary instead of the prompt.
    renderWith(store, <RunList />);
    const row = (await screen.findByText('Two PRs wait for your review.')).closest('tr')!;
    expect(within(row).getAllByRole('cell')[1].textContent).toBe('✓ succeeded ⚑ Needs attention');
    expect(row.textContent).not.toContain('Look at the PRs.');
    disconnect();
  });

  it('says why a run failed and links it with its retry, which says when it may start', async () => {
    const { run: failed, instanceId } = await automationRun({ provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'exit 3'] }, 'Rate limited');
    expect(failed.status).toBe('failed');
    t.core.store.runs.setErrorClass(failed.id, 'rate_limit');
    // The retry waits out its backoff, on a stopped instance so that nothing starts it meanwhile.
    await t.api('POST', `/api/instances/${instanceId}/stop`);
    const startAfter = new Date(Date.now() + 90_000).toISOString();
    const retry: Run = { ...failed, id: newId('run'), status: 'queued', retryOf: failed.id, startAfter, errorClass: null, createdAt: new Date().toISOString(), startedAt: null, finishedAt: null, error: null, stderr: null };
    t.core.store.runs.insert(retry);

    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadInstances(), store.getState().loadAutomations()]);
    const page = renderWith(store, <RunView id={failed.id} />);
    await waitFor(() => expect(facts().Failure).toBe('Rate limited (HTTP 429)'));
    const about = within(document.querySelector<HTMLElement>('dl[aria-label="About this run"]')!);
    await waitFor(() => expect(about.getByRole('link', { name: retry.id }).getAttribute('href')).toBe(`#/runs/${retry.id}`));
    expect(facts()['Retried as']).toBe(`${retry.id} (queued)`);
    expect(facts()['Retry of']).toBeUndefined();
    page.unmount();

    renderWith(store, <RunView id={retry.id} />);
    await waitFor(() => expect(facts()['Retry of']).toBe(failed.id));
    expect(within(document.querySelector<HTMLElement>('dl[aria-label="About this run"]')!).getByRole('link', { name: failed.id }).getAttribute('href')).toBe(`#/runs/${failed.id}`);
    const wait = screen.getAllByRole('status').find((each) => each.textContent?.startsWith('Waits to retry until'))!;
    expect(wait.querySelector('time')?.getAttribute('datetime')).toBe(startAfter);
    expect(wait.textContent).toMatch(/\(in 1 minute\)|\(in 2 minutes\)/);
    disconnect();
  });
});

// A run in the app's list follows it through every status it takes, waiting for a person included
// (before it starts, and in the middle of it), while a copy of the run older than the one shown (a
// list fetched before a live event) never takes it back.
import { describe, expect, it } from 'vitest';
import type { Run } from '../../src/shared/contract';
import type { StewardClient } from '../../src/renderer/src/lib/api';
import { createAppStore } from '../../src/renderer/src/store';

const run = (status: Run['status'], startedAt: string | null = null) => ({ id: 'run_1', status, startedAt }) as Run;

function follow(...copies: Run[]): Run['status'][] {
  const store = createAppStore({} as StewardClient);
  return copies.map((copy) => {
    store.getState().upsertRun(copy);
    return store.getState().runs.find((each) => each.id === 'run_1')!.status;
  });
}

describe('a run in the list', () => {
  const started = '2026-11-27T09:00:00.000Z';
  it('waits for a person before it starts, is allowed, runs, asks mid-run, goes on and ends', () => {
    expect(follow(run('queued'), run('waiting'), run('queued'), run('running', started), run('waiting', started), run('running', started), run('succeeded', started)))
      .toEqual(['queued', 'waiting', 'queued', 'running', 'waiting', 'running', 'succeeded']);
  });

  it('keeps what is newer than an older copy: started over not started, ended over either', () => {
    expect(follow(run('running', started), run('queued'))).toEqual(['running', 'running']);
    expect(follow(run('waiting', started), run('waiting'))).toEqual(['waiting', 'waiting']);
    expect(follow(run('failed', started), run('running', started), run('waiting'))).toEqual(['failed', 'failed', 'failed']);
  });
});

// The runs repository refuses a move the run-state table does not name: an ended run stays as it
// ended (a late "cancelled" cannot overwrite "succeeded", a late answer cannot make it running),
// a run is created queued or waiting only, and each move is announced with the status it reached.
import { afterEach, describe, expect, it } from 'vitest';
import { enqueueRun } from '../../src/main/core/services/run-queue';
import type { StoreChange } from '../../src/main/core/store/commit-hooks';
import type { Run } from '../../src/shared/contract';
import { servicesFor, tempStore } from '../support/core';

let made: ReturnType<typeof tempStore> | undefined;
afterEach(() => made?.remove());

function setUp() {
  made = tempStore();
  const { store, dir } = made;
  const instance = servicesFor(store, dir).instances.ensureDefault();
  store.threads.insert('thr_moves', 'chat', instance.id, new Date().toISOString());
  const heard: StoreChange[] = [];
  store.subscribe((change) => heard.push(change));
  const enqueue = (): Run => enqueueRun(store, { instanceId: instance.id, threadId: 'thr_moves', source: 'api', sourceId: null, prompt: 'p' }, new Date());
  return { store, enqueue, heard };
}

describe('run moves', () => {
  it('keep an ended run as it ended', () => {
    const { store, enqueue } = setUp();
    const run = enqueue();
    expect(store.runs.claim(run.id, new Date().toISOString())).toBe(true);
    expect(store.runs.finish(run.id, 'succeeded', new Date().toISOString(), null, null)).toBe(true);
    expect(store.runs.finish(run.id, 'cancelled', new Date().toISOString(), 'late', null)).toBe(false);
    expect(store.runs.move(run.id, 'waiting', 'running')).toBe(false);
    expect(store.runs.get(run.id)).toMatchObject({ status: 'succeeded', error: null });
  });

  it('do not let a queued run end as anything but cancelled, nor start twice', () => {
    const { store, enqueue } = setUp();
    const run = enqueue();
    expect(store.runs.finish(run.id, 'succeeded', new Date().toISOString(), null, null)).toBe(false);
    expect(store.runs.get(run.id)!.status).toBe('queued');
    expect(store.runs.claim(run.id, new Date().toISOString())).toBe(true);
    expect(store.runs.claim(run.id, new Date().toISOString())).toBe(false);
  });

  it('refuse a move the table does not name, and a run created already running', () => {
    const { store, enqueue } = setUp();
    const run = enqueue();
    expect(() => store.runs.move(run.id, 'running', 'queued')).toThrow('A run does not move from running to queued.');
    expect(() => store.runs.insert({ ...run, id: `${run.id}x`, status: 'running' })).toThrow('A run starts queued or waiting, not running.');
  });

  it('are announced with the status reached', () => {
    const { store, enqueue, heard } = setUp();
    const run = enqueue();
    store.runs.claim(run.id, new Date().toISOString());
    store.runs.move(run.id, 'running', 'waiting');
    store.runs.move(run.id, 'waiting', 'running');
    store.runs.setUsage(run.id, { costUsd: 1, inputTokens: null, outputTokens: null });
    store.runs.finish(run.id, 'failed', new Date().toISOString(), 'x', null);
    expect(heard.filter((change) => change.type === 'run').map((change) => (change.type === 'run' ? change.status ?? 'changed' : ''))).toEqual(['queued', 'running', 'waiting', 'running', 'changed', 'failed']);
  });
});

// A delivery's run status as its row shows it: the latest live event's, except that a list loaded
// with the run's end is not taken back by an event that was on its way before it.
import { describe, expect, it } from 'vitest';
import type { DeliverySummary } from '../../src/shared/contract';
import { deliveryRunStatus } from '../../src/renderer/src/features/webhooks/webhooks-slice';

const delivery = (status: NonNullable<DeliverySummary['run']>['status'] | null) =>
  ({ id: 'dlv_1', runId: status ? 'run_1' : null, run: status ? { id: 'run_1', status } : null }) as DeliverySummary;

describe('deliveryRunStatus', () => {
  it('follows live events in any order a run takes: waiting for a person, then queued, running, its end', () => {
    expect(deliveryRunStatus(delivery('waiting'), {})).toBe('waiting');
    expect(deliveryRunStatus(delivery('waiting'), { run_1: 'queued' })).toBe('queued');
    expect(deliveryRunStatus(delivery('running'), { run_1: 'waiting' })).toBe('waiting');
    expect(deliveryRunStatus(delivery('queued'), { run_1: 'failed' })).toBe('failed');
  });

  it('keeps an end the list already has over an older live event, and has no status without a run', () => {
    expect(deliveryRunStatus(delivery('failed'), { run_1: 'running' })).toBe('failed');
    expect(deliveryRunStatus(delivery(null), { run_1: 'running' })).toBeNull();
  });
});

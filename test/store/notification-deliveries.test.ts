// The notification delivery log of a channel keeps its newest rows; a pending one is never
// trimmed, whatever its age, since it has still to be sent.
import { afterEach, describe, expect, it } from 'vitest';
import { tempStore } from '../support/core';

const stores: ReturnType<typeof tempStore>[] = [];
afterEach(() => {
  for (const each of stores.splice(0)) each.remove();
});

describe('notification deliveries', () => {
  it('keepNewest trims the oldest finished deliveries of one channel only', () => {
    const temp = tempStore();
    stores.push(temp);
    const { store } = temp;
    const at = '2026-01-01T00:00:00.000Z';
    for (const id of ['chn_a', 'chn_b']) store.notificationChannels.save({ id, name: id, kind: 'webhook', url: 'http://127.0.0.1/', sealedUrl: null, sealedSecret: null, tokenRef: null, enabled: true, on: 'all', sources: [], createdAt: at, updatedAt: at });
    const add = (id: string, channelId: string, status: 'pending' | 'delivered') => {
      store.notificationDeliveries.insert({ id, channelId, runId: null, about: id, event: 'test', requestHeaders: {}, requestBody: '{}', createdAt: at, nextAttemptAt: null });
      if (status !== 'pending') store.notificationDeliveries.recordAttempt(id, { status, attempts: 1, nextAttemptAt: null, lastStatusCode: 200, lastError: null, responseBody: '', finishedAt: at });
    };
    add('ntf_1', 'chn_a', 'pending');
    add('ntf_2', 'chn_a', 'delivered');
    add('ntf_3', 'chn_b', 'delivered');
    add('ntf_4', 'chn_a', 'delivered');
    add('ntf_5', 'chn_a', 'delivered');
    expect(store.notificationDeliveries.keepNewest('chn_a', 2)).toBe(1);
    expect(store.notificationDeliveries.page('chn_a', undefined, 10).map((each) => each.id)).toEqual(['ntf_5', 'ntf_4', 'ntf_1']);
    expect(store.notificationDeliveries.page('chn_b', undefined, 10).map((each) => each.id)).toEqual(['ntf_3']);
    expect(store.notificationChannels.get('chn_a')?.lastDelivery).toMatchObject({ status: 'delivered', statusCode: 200 });
  });
});

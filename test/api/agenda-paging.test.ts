// The Agenda of a busy day through the real HTTP API, read a page at a time with its cursor: three
// automations every minute, the morning's fires recorded, the afternoon's still to come. Across
// pages every fire of the day comes once, in order, the past ones as recorded and the future ones
// as scheduled, whatever page a tie of due times is split across.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgendaEntry } from '../../src/shared/contract';
import { ManualClock } from '../support/clock';
import { type TestCore, startTestCore } from '../support/core';

const day = '2026-11-21';
const now = `${day}T12:00:30.000Z`;
let t: TestCore;

beforeAll(async () => {
  t = await startTestCore({ clock: new ManualClock(now) });
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/agenda, paged', () => {
  it('returns every fire of a day with more than a page of them exactly once across pages', async () => {
    const ids: string[] = [];
    for (const name of ['a', 'b', 'c']) {
      const response = await t.api('POST', '/api/automations', { name, prompt: 'p', cronExpression: '* * * * *' });
      expect(response.body).not.toHaveProperty('error');
      ids.push(response.body.automation.id);
    }
    // The morning as the scheduler would have recorded it: every minute to 12:00, one in ten missed.
    const { store } = t.core;
    store.transaction(() => {
      for (let minute = 0; minute <= 12 * 60; minute++) {
        const dueAt = new Date(Date.parse(`${day}T00:00:00.000Z`) + minute * 60_000).toISOString();
        for (const id of ids) store.fires.record({ automationId: id, dueAt, state: minute % 10 ? 'fired' : 'missed', reason: minute % 10 ? null : 'steward_off', detail: null, runId: null, recordedAt: dueAt });
      }
    });

    const seen: AgendaEntry[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const query = new URLSearchParams({ from: `${day}T00:00:00.000Z`, to: `${day}T23:59:59.999Z`, limit: '500', ...(after ? { after } : {}) });
      const response = await t.api('GET', `/api/agenda?${query.toString()}`);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const { entries, nextAfter } = response.body.agenda as { entries: AgendaEntry[]; nextAfter: string | null };
      expect(entries.length).toBeLessThanOrEqual(500);
      seen.push(...entries);
      after = nextAfter;
      pages++;
    } while (after !== null && pages < 100);

    // 24 × 60 minutes, three automations each; 500 a page splits ties of a minute across pages.
    const total = 24 * 60 * ids.length;
    expect(pages).toBe(Math.ceil(total / 500));
    const keys = seen.map((entry) => `${entry.dueAt}|${entry.automationId}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBe(total);
    expect(keys).toEqual([...keys].sort());
    // The past as recorded, the future as scheduled, split at now.
    expect(seen.filter((entry) => entry.dueAt <= now).every((entry) => entry.state !== 'due')).toBe(true);
    expect(seen.filter((entry) => entry.dueAt > now).every((entry) => entry.state === 'due')).toBe(true);
    expect(seen.filter((entry) => entry.state === 'missed')).toHaveLength((12 * 6 + 1) * ids.length);
  });
});

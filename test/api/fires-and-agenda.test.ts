// Fires, health and the agenda through the API (real HTTP, real SQLite, a hand-moved clock), with
// the core restarted across fire times as a user's machine would be.
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../support/clock';
import { type TestCore, startTestCore, tempDir } from '../support/core';

const cores: TestCore[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

describe('/api/automations/{id}/fires and /api/agenda', () => {
  it('lists fires since a time, shows health, and the agenda of a week across a restart', async () => {
    const clock = new ManualClock('2026-11-21T10:02:00.000Z');
    const dataDir = tempDir('steward-fires-');
    let t = await startTestCore({ clock, dataDir });
    const automation = (await t.api('POST', '/api/automations', { name: 'Hourly', prompt: 'p', cronExpression: '0 * * * *' })).body.automation;
    expect(automation.health).toEqual({ state: 'healthy', lastFireAt: null, lastRunId: null, lastRunStatus: null, consecutiveFailures: 0, missedLast30Days: 0, nextFireAt: '2026-11-21T11:00:00.000Z' });
    // Stopped, not removed: the data folder lives on.
    await t.core.close();

    clock.jumpTo('2026-11-21T13:30:00.000Z');
    t = await startTestCore({ clock, dataDir });
    cores.push(t);
    const fires = await t.api('GET', `/api/automations/${automation.id}/fires?since=2026-11-21T12:00:00.000Z`);
    expect(fires.body).not.toHaveProperty("error");
    expect(fires.status).toBe(200);
    expect(fires.body.fires.map((fire: { dueAt: string; state: string }) => [fire.dueAt, fire.state])).toEqual([
      ['2026-11-21T13:00:00.000Z', 'caught-up'],
      ['2026-11-21T12:00:00.000Z', 'missed'],
    ]);
    const shown = (await t.api('GET', `/api/automations/${automation.id}`)).body.automation;
    expect(shown.health).toMatchObject({ state: 'missing', missedLast30Days: 2, lastFireAt: '2026-11-21T13:00:00.000Z', nextFireAt: '2026-11-21T14:00:00.000Z' });

    const agenda = await t.api('GET', '/api/agenda');
    expect(agenda.status).toBe(200);
    expect(agenda.body.agenda).toMatchObject({ from: '2026-11-21T00:00:00.000Z', to: '2026-11-29T00:00:00.000Z', nextAfter: null, forecastMonthUsd: null });
    const states = agenda.body.agenda.entries.map((entry: { state: string }) => entry.state);
    expect(states.slice(0, 3)).toEqual(['missed', 'missed', 'caught-up']);
    expect(states.slice(3).every((state: string) => state === 'due')).toBe(true);
    // 10:00 was before the automation existed; from 14:00 on the 21st through the 28th.
    expect(states.length).toBe(3 + 10 + 7 * 24);

    expect((await t.api('GET', '/api/agenda?from=2026-11-01T00:00:00.000Z&to=2026-12-31T00:00:00.000Z')).body.error).toMatchObject({ code: 'invalid_field', field: expect.any(String) });
    expect((await t.api('GET', '/api/agenda?after=nonsense')).body.error).toMatchObject({ code: 'invalid_field', field: expect.any(String) });
    expect((await t.api('GET', '/api/automations/aut_nope/fires')).status).toBe(404);
  });
});

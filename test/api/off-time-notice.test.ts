// The notice for the time Steward was off, as a person reads it: the feed line over the API, and
// the title and body a notification shows (the desktop app and every channel take those two). It
// says "Steward was off" once: "Steward was off 02:56–02:57: 1 caught up".
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { noticeOf } from '../../src/main/core/services/notices';
import { ManualClock } from '../support/clock';
import { type TestCore, startTestCore, tempDir } from '../support/core';

const dataDir = tempDir();
const cores: TestCore[] = [];
afterAll(async () => {
  for (const core of cores) await core.core.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A core on the shared data folder, its clock at `time` (the time it starts). */
async function startAt(time: string): Promise<{ t: TestCore; clock: ManualClock }> {
  const clock = new ManualClock(time);
  const t = await startTestCore({ clock, dataDir });
  cores.push(t);
  return { t, clock };
}

describe('the off-time notice', () => {
  it('says Steward was off once, in the feed and in the notification', async () => {
    const first = await startAt('2026-11-21T10:00:30.000Z');
    const created = await first.t.api('POST', '/api/automations', { name: 'Every minute', prompt: 'tick', cronExpression: '* * * * *' });
    expect(created.status).toBe(201);
    first.clock.advanceTo('2026-11-21T10:00:40.000Z');
    cores.splice(cores.indexOf(first.t), 1);
    await first.t.core.close();

    // Off across one fire (10:01), back at 10:01:30: that fire is caught up.
    const second = await startAt('2026-11-21T10:01:30.000Z');
    const feed = await second.t.api('GET', '/api/activity');
    expect(feed.status).toBe(200);
    const lines = (feed.body.events as { displayText: string; raw: string }[]).filter((line) => noticeOf(line.raw)?.kind === 'steward-was-off');
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line.displayText).toMatch(/^Steward was off \d\d:\d\d–\d\d:\d\d: 1 caught up$/);
    expect(line.displayText.match(/Steward was off/g)).toHaveLength(1);
    const notice = noticeOf(line.raw)!;
    expect(notice.title).toMatch(/^Steward was off \d\d:\d\d–\d\d:\d\d$/);
    expect(notice.body).toBe('1 caught up');
    expect(`${notice.title}: ${notice.body}`).toBe(line.displayText);
  });
});

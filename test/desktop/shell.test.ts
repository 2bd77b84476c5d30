// The desktop shell's pure parts: the tray menu from state, the notification policy, and which
// URLs the window may load.
import { describe, expect, it } from 'vitest';
import { notificationFor, shouldNotify } from '../../src/main/notify-policy';
import { relative, trayMenu, trayTooltip } from '../../src/main/tray-menu';
import { isAppUrl } from '../../src/main/app-url';
import type { ActivityEvent, Run } from '../../src/shared/contract';

const now = new Date('2026-11-21T10:00:00.000Z');
const line = (n: number, runId: string | null = `run_${n}`): ActivityEvent => ({
  instanceId: 'ins_1', instanceName: 'Homelab', avatarUrl: '', label: 'cron', kind: 'assistant', timestamp: now.toISOString(), displayText: `line ${n}`, raw: '{}', line: n, runId,
});
const run = (status: Run['status'], extra: Partial<Run> = {}): Run => ({
  id: 'run_1', instanceId: 'ins_1', threadId: 'thr_1', source: 'automation', sourceId: 'aut_1', status, prompt: 'Summarise the night', scheduledFor: null,
  createdAt: now.toISOString(), startedAt: now.toISOString(), finishedAt: now.toISOString(), error: null, stderr: null, sessionId: null, resumedSessionId: null, ...extra,
});

describe('the tray menu', () => {
  it('shows runs, the next fire, the last 5 events newest first, pause, open and quit', () => {
    const menu = trayMenu({ running: 2, queued: 3, paused: false, nextFire: { at: '2026-11-21T10:25:00.000Z', name: 'Nightly digest' }, recent: [1, 2, 3, 4, 5, 6].map((n) => line(n)) }, now);
    const labels = menu.map((item) => ('label' in item ? item.label : '—'));
    expect(labels).toEqual(['2 runs running, 3 queued', 'Next: Nightly digest in 25 min', '—', 'Homelab: line 6', 'Homelab: line 5', 'Homelab: line 4', 'Homelab: line 3', 'Homelab: line 2', '—', 'Pause all automations', 'Open Steward', '—', 'Quit Steward']);
    expect(menu[3]).toMatchObject({ enabled: true, action: { kind: 'openRun', runId: 'run_6' } });
    expect(menu.find((item) => 'label' in item && item.label === 'Quit Steward')).toMatchObject({ action: { kind: 'quit' } });
  });

  it('says when automations are paused or nothing is scheduled, and offers resume', () => {
    const paused = trayMenu({ running: 0, queued: 0, paused: true, nextFire: null, recent: [line(1, null)] }, now);
    expect(paused.map((item) => ('label' in item ? item.label : '—'))).toEqual(['No runs running', 'Automations paused', '—', 'Homelab: line 1', '—', 'Resume all automations', 'Open Steward', '—', 'Quit Steward']);
    expect(paused[3]).toMatchObject({ enabled: false });
    expect(trayMenu({ running: 1, queued: 0, paused: false, nextFire: null, recent: [] }, now)[1]).toMatchObject({ label: 'No automation scheduled' });
    expect(trayTooltip({ running: 1, queued: 2, paused: true, nextFire: null, recent: [] })).toBe('Steward — 1 running, 2 queued, automations paused');
    expect([relative(new Date(now.getTime() + 20_000), now), relative(new Date(now.getTime() + 3 * 3600e3), now), relative(new Date(now.getTime() + 5 * 86400e3), now)]).toEqual(['now', 'in 3 h', 'in 5 days']);
  });
});

describe('notifications', () => {
  it('follow the setting: all, failures only, none; a cancelled run never notifies', () => {
    const cases: [Run['status'], boolean, boolean][] = [
      ['succeeded', true, false],
      ['failed', true, true],
      ['timed_out', true, true],
      ['interrupted', true, true],
      ['cancelled', false, false],
    ];
    for (const [status, all, failures] of cases) {
      expect(shouldNotify(run(status), 'all'), `${status} all`).toBe(all);
      expect(shouldNotify(run(status), 'failures'), `${status} failures`).toBe(failures);
      expect(shouldNotify(run(status), 'none'), `${status} none`).toBe(false);
    }
  });

  it('follow an automation’s or webhook’s own choice over the setting', () => {
    expect(shouldNotify(run('succeeded'), 'failures', 'all')).toBe(true);
    expect(shouldNotify(run('failed'), 'all', 'none')).toBe(false);
    expect(shouldNotify(run('succeeded'), 'all', 'failures')).toBe(false);
    expect(shouldNotify(run('succeeded'), 'all', 'default')).toBe(true);
    expect(shouldNotify(run('cancelled'), 'all', 'all')).toBe(false);
  });

  it('name what ran and why it failed', () => {
    expect(notificationFor(run('succeeded'), 'Nightly digest')).toEqual({ title: 'Nightly digest finished', body: 'Summarise the night' });
    expect(notificationFor(run('timed_out', { error: 'The agent ran past its timeout and was stopped.' }), 'Deploys')).toEqual({ title: 'Deploys timed out', body: 'The agent ran past its timeout and was stopped.' });
    expect(notificationFor(run('failed', { source: 'api', sourceId: null, error: 'exit 1' }), undefined)).toEqual({ title: 'A prompt failed', body: 'exit 1' });
  });
});

describe('the window', () => {
  it('loads only the app itself: its files, or the dev server while developing', () => {
    expect(isAppUrl('file:///opt/Steward/out/renderer/index.html', undefined)).toBe(true);
    expect(isAppUrl('https://evil.example/', undefined)).toBe(false);
    expect(isAppUrl('http://localhost:5173/#/runs', 'http://localhost:5173')).toBe(true);
    expect(isAppUrl('http://localhost:5173.evil.example/', 'http://localhost:5173/')).toBe(false);
  });
});

// The desktop shell's pure parts: the tray menu and icon from state, the notification policy,
// which URLs the window may load and which permissions it gets, and the error box at start.
import { describe, expect, it } from 'vitest';
import { notificationFor, shouldNotify } from '../../src/main/shell/notify-policy';
import { ago, attentionCount, relative, runLabel, trayIconFile, trayMenu, trayTitle, trayTooltip, type TrayRun } from '../../src/main/shell/tray-menu';
import { isAppUrl } from '../../src/main/shell/app-url';
import { allowPermission } from '../../src/main/shell/permissions';
import { startupErrorMessage } from '../../src/main/shell/startup-error';
import { DataDirInUseError } from '../../src/main/core/data-lock';
import type { Run } from '../../src/shared/contract';

const now = new Date('2026-11-21T10:00:00.000Z');
const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000).toISOString();
const trayRun = (n: number, status: Run['status'] = 'succeeded', finishedAt: string | null = minutesAgo(n)): TrayRun => ({ id: `run_${n}`, title: `Automation ${n}`, status, finishedAt });
const run = (status: Run['status'], extra: Partial<Run> = {}): Run => ({
  id: 'run_1', instanceId: 'ins_1', threadId: 'thr_1', source: 'automation', sourceId: 'aut_1', status, prompt: 'Summarise the night', scheduledFor: null,
  createdAt: now.toISOString(), startedAt: now.toISOString(), finishedAt: now.toISOString(), error: null, stderr: null, sessionId: null, resumedSessionId: null, ...extra,
});

describe('the tray menu', () => {
  it('shows runs, the next fire, the last 5 runs newest first, pause, open and quit', () => {
    const recent = [trayRun(1, 'running', null), trayRun(2, 'failed'), trayRun(90, 'timed_out'), trayRun(3000), trayRun(5, 'queued', null), trayRun(6)];
    const menu = trayMenu({ running: 2, queued: 3, paused: false, nextFire: { at: '2026-11-21T10:25:00.000Z', name: 'Nightly digest' }, recent }, now);
    const labels = menu.map((item) => ('label' in item ? item.label : '—'));
    expect(labels).toEqual([
      '2 runs running, 3 queued',
      'Next: Nightly digest in 25 min',
      '—',
      'Automation 1 — running',
      'Automation 2 — failed 2 min ago',
      'Automation 90 — timed out 2 h ago',
      'Automation 3000 — finished 2 days ago',
      'Automation 5 — queued',
      '—',
      'Pause all automations',
      'Open Steward',
      '—',
      'Quit Steward',
    ]);
    expect(menu[3]).toMatchObject({ enabled: true, action: { kind: 'openRun', runId: 'run_1' } });
    expect(menu.find((item) => 'label' in item && item.label === 'Quit Steward')).toMatchObject({ action: { kind: 'quit' } });
  });

  it('counts only what needs attention: failed runs and needs_attention, in the last day', () => {
    const ended = (status: Run['status'], outcome: Run['outcome'] = null, minutesAgo = 5) => ({ status, outcome, finishedAt: new Date(now.getTime() - minutesAgo * 60_000).toISOString() });
    const runs = [ended('failed'), ended('timed_out', 'done'), ended('succeeded', 'needs_attention'), ended('succeeded', 'nothing_to_report'), ended('succeeded', 'done'), ended('succeeded'), ended('cancelled', 'needs_attention'), ended('failed', null, 25 * 60), { status: 'running' as const, finishedAt: null }];
    expect(attentionCount(runs, now)).toBe(3);
    const state = { running: 0, queued: 0, paused: false, nextFire: null, recent: [{ ...trayRun(7), outcome: 'needs_attention' as const }, { ...trayRun(8), outcome: 'nothing_to_report' as const }], attention: 3 };
    expect(trayTooltip(state)).toBe('Steward — idle, 3 runs need attention');
    expect(trayTitle(state)).toBe('3');
    expect(trayMenu(state, now).map((item) => ('label' in item ? item.label : '—')).slice(0, 6)).toEqual(['No runs running', 'No automation scheduled', '3 runs need attention', '—', 'Automation 7 — needs attention 7 min ago', 'Automation 8 — nothing to report 8 min ago']);
    expect(trayMenu(state, now)[2]).toMatchObject({ enabled: true, action: { kind: 'open' } });
    expect(trayTitle({ ...state, attention: 0 })).toBe('');
    expect(trayTooltip({ ...state, attention: 1 })).toBe('Steward — idle, 1 run needs attention');
  });

  it('says when automations are paused or nothing is scheduled, and offers resume', () => {
    const paused = trayMenu({ running: 0, queued: 0, paused: true, nextFire: null, recent: [trayRun(0, 'cancelled')] }, now);
    expect(paused.map((item) => ('label' in item ? item.label : '—'))).toEqual(['No runs running', 'Automations paused', '—', 'Automation 0 — cancelled just now', '—', 'Resume all automations', 'Open Steward', '—', 'Quit Steward']);
    expect(trayMenu({ running: 1, queued: 0, paused: false, nextFire: null, recent: [] }, now)[1]).toMatchObject({ label: 'No automation scheduled' });
    expect(runLabel({ ...trayRun(1), title: 'x'.repeat(80) }, now)).toHaveLength(60);
    expect(ago(new Date(now.getTime() - 45 * 60_000), now)).toBe('45 min ago');
    expect(trayTooltip({ running: 1, queued: 2, paused: true, nextFire: null, recent: [] })).toBe('Steward — 1 running, 2 queued, automations paused');
    const full = { running: 0, queued: 4, paused: false, nextFire: null, recent: [], storageProblem: 'The disk holding Steward’s data folder is full' };
    expect(trayTooltip(full)).toBe('Steward — idle, 4 queued, cannot save: The disk holding Steward’s data folder is full');
    expect(trayMenu(full, now)[0]).toMatchObject({ label: 'Cannot save: The disk holding Steward’s data folder is full', enabled: false });
    expect([relative(new Date(now.getTime() + 20_000), now), relative(new Date(now.getTime() + 3 * 3600e3), now), relative(new Date(now.getTime() + 5 * 86400e3), now)]).toEqual(['now', 'in 3 h', 'in 5 days']);
  });

  it('picks a template on macOS, and a glyph that stands out from the tray elsewhere', () => {
    expect(trayIconFile('darwin', true)).toBe('trayTemplate.png');
    expect(trayIconFile('linux', true)).toBe('tray-dark.png');
    expect(trayIconFile('win32', false)).toBe('tray-light.png');
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

  it('stay quiet for a failed run that is retried: its last attempt tells', () => {
    expect(shouldNotify(run('failed'), 'failures', 'default', true)).toBe(false);
    expect(shouldNotify(run('timed_out'), 'all', 'all', true)).toBe(false);
    expect(shouldNotify(run('failed'), 'failures', 'default', false)).toBe(true);
  });

  it('attention: only failures and runs whose agent said needs_attention; nothing_to_report is quiet under every policy', () => {
    const attention = (status: Run['status'], outcome: Run['outcome'] = null) => shouldNotify(run(status, { outcome }), 'attention');
    expect(attention('failed')).toBe(true);
    expect(attention('timed_out', 'done')).toBe(true);
    expect(attention('succeeded', 'needs_attention')).toBe(true);
    expect(attention('succeeded', 'done')).toBe(false);
    expect(attention('succeeded')).toBe(false);
    expect(attention('cancelled', 'needs_attention')).toBe(false);
    expect(shouldNotify(run('succeeded', { outcome: 'nothing_to_report' }), 'all')).toBe(false);
    expect(shouldNotify(run('failed', { outcome: 'nothing_to_report' }), 'failures')).toBe(true);
    expect(shouldNotify(run('succeeded', { outcome: 'needs_attention' }), 'all', 'attention')).toBe(true);
    expect(shouldNotify(run('succeeded', { outcome: 'done' }), 'attention', 'all')).toBe(true);
    expect(shouldNotify(run('succeeded', { outcome: 'needs_attention' }), 'attention', 'none')).toBe(false);
  });

  it('say what needs attention in the agent’s own summary', () => {
    expect(notificationFor(run('succeeded', { outcome: 'needs_attention', summary: 'The certificate expires in 3 days.' }), 'Cert check')).toEqual({ title: 'Cert check needs attention', body: 'The certificate expires in 3 days.' });
  });

  it('name what ran and why it failed', () => {
    expect(notificationFor(run('succeeded'), 'Nightly digest')).toEqual({ title: 'Nightly digest finished', body: 'Summarise the night' });
    expect(notificationFor(run('timed_out', { error: 'The agent ran past its timeout and was stopped.' }), 'Deploys')).toEqual({ title: 'Deploys timed out', body: 'The agent ran past its timeout and was stopped.' });
    expect(notificationFor(run('failed', { source: 'api', sourceId: null, error: 'exit 1' }), undefined)).toEqual({ title: 'A prompt failed', body: 'exit 1' });
  });
});

describe('the window', () => {
  const packaged = { rendererIndex: '/opt/Steward/resources/app.asar/out/renderer/index.html' };
  const dev = { rendererIndex: '/home/me/steward/out/renderer/index.html', devServerUrl: 'http://localhost:5173/' };

  it('loads only the app itself: its own index.html, or the dev server while developing', () => {
    expect(isAppUrl('file:///opt/Steward/resources/app.asar/out/renderer/index.html', packaged)).toBe(true);
    expect(isAppUrl('file:///opt/Steward/resources/app.asar/out/renderer/index.html#/runs/run_1', packaged)).toBe(true);
    expect(isAppUrl('http://localhost:5173/#/runs', dev)).toBe(true);
    expect(isAppUrl('file:///home/me/steward/out/renderer/index.html', dev)).toBe(true);
  });

  it('trusts no other page: other files, other hosts, look-alike origins, garbage', () => {
    for (const url of [
      'https://evil.example/',
      'file:///home/me/Downloads/index.html',
      'file:///opt/Steward/resources/app.asar/out/renderer/other.html',
      'file:///opt/Steward/resources/app.asar/out/renderer/index.html/../../../../../tmp/x.html',
      'file://evil.example/opt/Steward/resources/app.asar/out/renderer/index.html',
      'http://localhost:5173/',
      'not a url',
      '',
    ]) {
      expect(isAppUrl(url, packaged), url).toBe(false);
    }
    expect(isAppUrl('http://localhost:5173.evil.example/', dev)).toBe(false);
    expect(isAppUrl('http://localhost:5174/', dev)).toBe(false);
    expect(isAppUrl('http://localhost:5173/', { ...packaged, devServerUrl: 'nonsense' })).toBe(false);
  });

  it('matches Windows paths whatever the case of the drive letter', () => {
    const windows = { rendererIndex: '/C:/Program Files/Steward/resources/app.asar/out/renderer/index.html' };
    expect(isAppUrl('file:///c:/Program%20Files/Steward/resources/app.asar/out/renderer/index.html', windows)).toBe(true);
  });

  it('grants no permission but writing the clipboard, and that only to the app', () => {
    const app = 'file:///opt/Steward/resources/app.asar/out/renderer/index.html#/webhooks';
    expect(allowPermission('clipboard-sanitized-write', app, packaged)).toBe(true);
    expect(allowPermission('clipboard-sanitized-write', 'https://evil.example/', packaged)).toBe(false);
    expect(allowPermission('clipboard-sanitized-write', undefined, packaged)).toBe(false);
    for (const permission of ['media', 'notifications', 'geolocation', 'clipboard-read', 'openExternal', 'fileSystem', 'unknown']) {
      expect(allowPermission(permission, app, packaged), permission).toBe(false);
    }
  });
});

describe('the error box at start', () => {
  const context = { port: 7321, dataDir: '/home/me/.local/share/steward' };

  it('names the folder and the other Steward when the data folder is taken', () => {
    expect(startupErrorMessage(new DataDirInUseError(context.dataDir, 4242), context)).toEqual({
      title: 'Steward could not start',
      content: 'The data folder /home/me/.local/share/steward is in use by another Steward (pid 4242). Stop it, or use --data-dir.',
    });
  });

  it('names the port when it is taken, and says what else went wrong otherwise', () => {
    const taken = Object.assign(new Error('listen EADDRINUSE: address already in use 127.0.0.1:7321'), { code: 'EADDRINUSE' });
    expect(startupErrorMessage(taken, context).content).toMatch(/^Port 7321 is already in use .* STEWARD_PORT/);
    expect(startupErrorMessage(new Error('database disk image is malformed'), context).content).toBe('database disk image is malformed\n\nData folder: /home/me/.local/share/steward');
  });
});

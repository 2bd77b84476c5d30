// The tray: its menu rebuilt from Steward's state (see tray-menu.ts) when runs change, after a menu
// action, and every minute for the "next fire" countdown; at most once a second, however fast a
// run streams. Its icon follows the tray's light or dark colours.
import { join } from 'node:path';
import { Menu, type MenuItemConstructorOptions, Tray, nativeImage, nativeTheme } from 'electron';
import type { Run } from '../../shared/contract';
import type { Core } from '../core';
import { systemClock } from '../core/scheduler/clock';
import { throttle } from './throttle';
import { type TrayAction, type TrayItem, type TrayRun, type TrayState, attentionCount, trayIconFile, trayMenu, trayTitle, trayTooltip } from './tray-menu';

/** The tray counts the runs of the last day that need attention among the newest this many. */
const attentionScanned = 200;

function titleOf(core: Core, run: Run): string {
  const source = run.sourceId ? (core.store.automations.get(run.sourceId) ?? core.store.webhooks.get(run.sourceId)) : undefined;
  return source?.name ?? core.store.instances.get(run.instanceId)?.name ?? 'A prompt';
}

function state(core: Core): TrayState {
  const scheduler = core.services.scheduler.state();
  const at = scheduler.nextFireAt;
  const due = at === null ? undefined : core.services.automations.list().find((automation) => automation.nextRuns[0] === at);
  const runs = core.store.runs.list({ limit: attentionScanned });
  const recent: TrayRun[] = runs.slice(0, 5).map((run) => ({ id: run.id, title: titleOf(core, run), status: run.status, finishedAt: run.finishedAt, outcome: run.outcome }));
  const attention = attentionCount(runs, new Date());
  return {
    running: core.store.runs.count('running', 100),
    queued: core.store.runs.count('queued', 1000),
    paused: scheduler.paused,
    nextFire: at === null ? null : { at, name: due?.name ?? 'an automation' },
    recent,
    attention,
    storageProblem: core.services.storage.current()?.message,
  };
}

export function createTray(core: Core, iconDir: string, act: (action: TrayAction) => void): () => void {
  const icon = () => nativeImage.createFromPath(join(iconDir, trayIconFile(process.platform, nativeTheme.shouldUseDarkColors)));
  const tray = new Tray(icon());

  const toElectron = (item: TrayItem): MenuItemConstructorOptions =>
    'type' in item
      ? { type: 'separator' }
      : {
          label: item.label,
          enabled: item.enabled,
          click: item.action
            ? () => {
                act(item.action!);
                refresh();
              }
            : undefined,
        };

  const refresh = throttle(
    () => {
      const current = state(core);
      tray.setToolTip(trayTooltip(current));
      tray.setTitle(trayTitle(current));
      tray.setContextMenu(Menu.buildFromTemplate(trayMenu(current, new Date()).map(toElectron)));
    },
    1_000,
    systemClock,
  );

  // Activity lines stream in by the dozen while a run runs; only run changes alter the menu.
  const unsubscribe = core.services.live.subscribe((event) => {
    if (event.type === 'run') refresh();
  });
  const unwatchStorage = core.services.storage.onChange(() => refresh());
  const onTheme = () => tray.setImage(icon());
  nativeTheme.on('updated', onTheme);
  const timer = setInterval(refresh, 60_000);
  tray.on('click', () => act({ kind: 'open' }));
  refresh();
  return () => {
    clearInterval(timer);
    refresh.cancel();
    unsubscribe();
    unwatchStorage();
    nativeTheme.off('updated', onTheme);
    tray.destroy();
  };
}

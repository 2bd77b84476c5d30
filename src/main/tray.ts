// The tray: its menu rebuilt from Steward's state (see tray-menu.ts) whenever runs or activity
// change, and at least every minute for the "next fire" countdown.
import { Menu, type MenuItemConstructorOptions, Tray, nativeImage } from 'electron';
import type { ActivityEvent } from '../shared/contract';
import type { Core } from './core';
import { type TrayAction, type TrayItem, type TrayState, trayMenu, trayTooltip } from './tray-menu';

export function createTray(core: Core, iconPath: string, act: (action: TrayAction) => void): () => void {
  const tray = new Tray(nativeImage.createFromPath(iconPath));
  const recent: ActivityEvent[] = [];

  function state(): TrayState {
    const scheduler = core.services.scheduler.state();
    const at = scheduler.nextFireAt;
    const due = at === null ? undefined : core.services.automations.list().find((automation) => automation.nextRuns[0] === at);
    return {
      running: core.store.runs.count('running', 100),
      queued: core.store.runs.count('queued', 1000),
      paused: scheduler.paused,
      nextFire: at === null ? null : { at, name: due?.name ?? 'an automation' },
      recent,
    };
  }

  const toElectron = (item: TrayItem): MenuItemConstructorOptions =>
    'type' in item ? { type: 'separator' } : { label: item.label, enabled: item.enabled, click: item.action ? () => act(item.action!) : undefined };

  function refresh(): void {
    const current = state();
    tray.setToolTip(trayTooltip(current));
    tray.setContextMenu(Menu.buildFromTemplate(trayMenu(current, new Date()).map(toElectron)));
  }

  const unsubscribe = core.services.live.subscribe((event) => {
    if (event.type === 'activity') {
      recent.push(event.event);
      if (recent.length > 5) recent.shift();
    }
    refresh();
  });
  const timer = setInterval(refresh, 60_000);
  tray.on('click', () => act({ kind: 'open' }));
  refresh();
  return () => {
    clearInterval(timer);
    unsubscribe();
    tray.destroy();
  };
}

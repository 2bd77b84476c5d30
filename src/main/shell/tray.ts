// The tray: its menu rebuilt from Steward's state (tray-state.ts, tray-menu.ts) when runs change, after a menu
// action, and every minute for the "next fire" countdown; at most once a second, however fast a
// run streams. Its icon follows the tray's light or dark colours.
import { join } from 'node:path';
import { Menu, type MenuItemConstructorOptions, Tray, nativeImage, nativeTheme } from 'electron';
import type { Core } from '../core';
import { systemClock } from '../core/scheduler/clock';
import { throttle } from './throttle';
import { type TrayAction, type TrayItem, trayIconFile, trayMenu, trayTitle, trayTooltip } from './tray-menu';
import { trayState } from './tray-state';

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
      const current = trayState(core);
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

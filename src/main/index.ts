// Electron entry: one instance; the core on the user's data folder starts with the app and closes
// cleanly on quit; the window (closing it keeps Steward in the tray), the tray, notifications,
// launch at login, and the IPC router.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { app, BrowserWindow, ipcMain } from 'electron';
import { ipcChannels } from '../shared/bridge';
import { type Core, createCore } from './core';
import { registerIpc } from './ipc';
import { notifyFinishedRuns } from './notifications';
import { createTray } from './tray';
import type { TrayAction } from './tray-menu';
import { isAppUrl } from './app-url';
import { createMainWindow } from './window';

let core: Core | undefined;
let window: BrowserWindow | undefined;
let quitting = false;
const cleanups: (() => void)[] = [];

/** better-sqlite3 built for this Electron's ABI by scripts/electron-sqlite.mjs (`npm start`). */
function electronSqliteBinding(): string | undefined {
  const file = join(app.getAppPath(), 'out', 'native', `better_sqlite3-electron-${process.versions.modules}.node`);
  return existsSync(file) ? file : undefined;
}

function showWindow(path?: string): void {
  if (!window || window.isDestroyed()) {
    window = createMainWindow();
    // Closing the window hides it: Steward keeps running in the tray until Quit.
    window.on('close', (event) => {
      if (quitting) return;
      event.preventDefault();
      window?.hide();
    });
  }
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
  if (path) {
    const target = window;
    const send = () => target.webContents.send(ipcChannels.navigate, path);
    if (target.webContents.isLoading()) target.webContents.once('did-finish-load', send);
    else send();
  }
}

function act(action: TrayAction): void {
  if (action.kind === 'open') showWindow();
  else if (action.kind === 'openRun') showWindow(`/runs/${action.runId}`);
  else if (action.kind === 'pause' || action.kind === 'resume') core?.services.scheduler.setPaused(action.kind === 'pause');
  else app.quit();
}

function followLaunchAtLogin(running: Core): void {
  let wanted: boolean | undefined;
  const apply = () => {
    const next = running.services.settings.get().desktop.launchAtLogin;
    if (next === wanted) return;
    wanted = next;
    app.setLoginItemSettings({ openAtLogin: next });
  };
  apply();
  const timer = setInterval(apply, 5_000);
  cleanups.push(() => clearInterval(timer));
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => showWindow());

  app
    .whenReady()
    .then(async () => {
      core = await createCore({
        dataDir: process.env.STEWARD_DATA_DIR ?? join(app.getPath('userData'), 'data'),
        port: Number(process.env.STEWARD_PORT ?? 7321),
        nativeBinding: electronSqliteBinding(),
      });
      const running = core;
      cleanups.push(registerIpc(ipcMain, { dispatch: running.dispatch, isAppUrl: (url) => isAppUrl(url, process.env.ELECTRON_RENDERER_URL), onError: (error) => console.error(error) }));
      cleanups.push(
        running.services.live.subscribe((event) => {
          if (window && !window.isDestroyed()) window.webContents.send(ipcChannels.event, event);
        }),
      );
      cleanups.push(createTray(running, join(app.getAppPath(), 'resources', 'trayTemplate.png'), act));
      cleanups.push(notifyFinishedRuns(running, (runId) => showWindow(`/runs/${runId}`)));
      followLaunchAtLogin(running);
      showWindow();
      app.on('activate', () => showWindow());
    })
    .catch((error: unknown) => {
      console.error('Steward could not start:', error);
      app.exit(1);
    });

  // The tray keeps Steward alive without windows.
  app.on('window-all-closed', () => undefined);
  app.on('before-quit', () => {
    quitting = true;
  });

  app.on('will-quit', (event) => {
    if (!core) return;
    event.preventDefault();
    const closing = core;
    core = undefined;
    for (const cleanup of cleanups.splice(0)) cleanup();
    void closing.close().finally(() => app.quit());
  });
}

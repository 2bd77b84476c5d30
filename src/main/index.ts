// Electron entry: one instance; the core on the user's data folder (the same one `steward serve`
// and the CLI use) starts with the app and closes cleanly on quit, or an error box says why it could
// not start; the window (closing it keeps Steward in the tray), the tray, notifications, launch at
// login, web permissions refused, and the IPC router.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, Notification, session } from 'electron';
import { ipcChannels } from '../shared/bridge';
import { type AppLayout, electronSqliteBinding, trayIconDir } from './shell/app-paths';
import { type AppPages, isAppUrl } from './shell/app-url';
import { type Core, createCore, defaultPort } from './core';
import { resolveDataDir } from './core/data-dir';
import { registerIpc } from './ipc';
import { applyLaunchAtLogin, startedAtLogin } from './shell/launch-at-login';
import { showNotifications } from './shell/notifications';
import { allowPermission } from './shell/permissions';
import { startupErrorMessage } from './shell/startup-error';
import { createTray } from './shell/tray';
import type { TrayAction } from './shell/tray-menu';
import { createMainWindow } from './shell/window';

/** electron-builder.yml's appId: Windows ties notifications and the taskbar to it. */
const appId = 'dev.steward.app';

let core: Core | undefined;
let window: BrowserWindow | undefined;
let quitting = false;
const cleanups: (() => void)[] = [];

const pages: AppPages = { rendererIndex: join(__dirname, '../renderer/index.html'), devServerUrl: process.env.ELECTRON_RENDERER_URL };
const layout = (): AppLayout => ({ appPath: app.getAppPath(), resourcesPath: process.resourcesPath, isPackaged: app.isPackaged, abi: process.versions.modules });

function showWindow(path?: string): void {
  if (!window || window.isDestroyed()) {
    window = createMainWindow(pages);
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
  const target = { execPath: process.execPath, isPackaged: app.isPackaged, appPath: app.getAppPath(), appImage: process.env.APPIMAGE };
  const apply = () => {
    const next = running.services.settings.get().desktop.launchAtLogin;
    if (next === wanted) return;
    wanted = next;
    try {
      applyLaunchAtLogin(next, process.platform, target, app);
    } catch (error) {
      console.error('Could not change launch at login:', error);
    }
  };
  apply();
  const timer = setInterval(apply, 5_000);
  cleanups.push(() => clearInterval(timer));
}

function refusePermissions(): void {
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback, details) => callback(allowPermission(permission, details.requestingUrl, pages)));
  session.defaultSession.setPermissionCheckHandler((_contents, permission, _origin, details) => allowPermission(permission, details.requestingUrl, pages));
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  if (process.platform === 'win32') app.setAppUserModelId(appId);
  app.on('second-instance', () => showWindow());
  const dataDir = resolveDataDir(undefined);
  const port = Number(process.env.STEWARD_PORT || defaultPort);

  app
    .whenReady()
    .then(async () => {
      refusePermissions();
      core = await createCore({ dataDir, port, nativeBinding: electronSqliteBinding(layout(), existsSync) });
      const running = core;
      cleanups.push(registerIpc(ipcMain, { dispatch: running.dispatch, isAppUrl: (url) => isAppUrl(url, pages), onError: (error) => console.error(error) }));
      cleanups.push(
        running.services.live.subscribe((event) => {
          if (window && !window.isDestroyed()) window.webContents.send(ipcChannels.event, event);
        }),
      );
      cleanups.push(createTray(running, trayIconDir(layout()), act));
      cleanups.push(showNotifications(running, { Notification, platform: process.platform, open: showWindow }));
      followLaunchAtLogin(running);
      if (!startedAtLogin(process.argv, () => app.getLoginItemSettings().wasOpenedAtLogin, process.platform)) showWindow();
      app.on('activate', () => showWindow());
    })
    .catch((error: unknown) => {
      console.error('Steward could not start:', error);
      const { title, content } = startupErrorMessage(error, { port, dataDir });
      dialog.showErrorBox(title, content);
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

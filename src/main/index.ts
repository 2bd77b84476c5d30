// Electron entry: one instance, the core on the user's data folder, the window. The tray,
// notifications and the IPC bridge arrive with the desktop issue.
import { join } from 'node:path';
import { app, BrowserWindow } from 'electron';
import { type Core, createCore } from './core';
import { createMainWindow } from './window';

let core: Core | undefined;

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    const [window] = BrowserWindow.getAllWindows();
    if (window) {
      if (window.isMinimized()) window.restore();
      window.focus();
    }
  });

  app.whenReady().then(async () => {
    core = await createCore({
      dataDir: process.env.STEWARD_DATA_DIR ?? join(app.getPath('userData'), 'data'),
      port: Number(process.env.STEWARD_PORT ?? 7321),
      // A better-sqlite3 built for Electron's ABI, when one was produced next to the app.
      nativeBinding: process.env.STEWARD_SQLITE_BINDING,
    });
    createMainWindow();
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) createMainWindow();
    });
  }).catch((error: unknown) => {
    console.error('Steward could not start:', error);
    app.exit(1);
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  app.on('will-quit', (event) => {
    if (!core) return;
    event.preventDefault();
    const closing = core;
    core = undefined;
    void closing.close().finally(() => app.quit());
  });
}

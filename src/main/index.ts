// Electron entry: one instance, the core on the user's data folder, the window. The tray,
// notifications and the IPC bridge arrive with the desktop issue.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { app, BrowserWindow } from 'electron';
import { type Core, createCore } from './core';
import { createMainWindow } from './window';

let core: Core | undefined;

/** better-sqlite3 built for this Electron's ABI by scripts/electron-sqlite.mjs (`npm start`). */
function electronSqliteBinding(): string | undefined {
  const file = join(app.getAppPath(), 'out', 'native', `better_sqlite3-electron-${process.versions.modules}.node`);
  return existsSync(file) ? file : undefined;
}

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
      nativeBinding: electronSqliteBinding(),
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

// Where the desktop app finds better-sqlite3's Electron build and its tray icons, developing and
// packaged, on Linux and Windows paths.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { electronSqliteBinding, trayIconDir } from '../../src/main/shell/app-paths';

const abi = '140';

describe('the Electron build of better-sqlite3', () => {
  it('is the app.asar.unpacked copy when packaged, named even when missing so the error says where', () => {
    const layout = { appPath: '/opt/Steward/resources/app.asar', resourcesPath: '/opt/Steward/resources', isPackaged: true, abi };
    expect(electronSqliteBinding(layout, () => false)).toBe('/opt/Steward/resources/app.asar.unpacked/out/native/electron-140/better_sqlite3.node');
    const windows = { appPath: 'C:\\Program Files\\Steward\\resources\\app.asar', resourcesPath: 'C:\\Program Files\\Steward\\resources', isPackaged: true, abi };
    expect(electronSqliteBinding(windows, () => false, path.win32)).toBe('C:\\Program Files\\Steward\\resources\\app.asar.unpacked\\out\\native\\electron-140\\better_sqlite3.node');
    // Packaged without asar (asar: false): the files are where the app is.
    expect(electronSqliteBinding({ ...layout, appPath: '/opt/Steward/resources/app' }, () => false)).toBe('/opt/Steward/resources/app/out/native/electron-140/better_sqlite3.node');
  });

  it('is the project’s out/native build while developing, when it was built', () => {
    const layout = { appPath: '/home/me/steward', resourcesPath: '/home/me/steward/node_modules/electron/dist/resources', isPackaged: false, abi };
    const built = '/home/me/steward/out/native/electron-140/better_sqlite3.node';
    expect(electronSqliteBinding(layout, (file) => file === built)).toBe(built);
    expect(electronSqliteBinding(layout, () => false)).toBeUndefined();
  });
});

describe('the tray icons', () => {
  it('are plain files in resources/tray, beside app.asar or in the project', () => {
    expect(trayIconDir({ appPath: '/opt/Steward/resources/app.asar', resourcesPath: '/opt/Steward/resources', isPackaged: true, abi })).toBe('/opt/Steward/resources/tray');
    expect(trayIconDir({ appPath: '/home/me/steward', resourcesPath: '/x', isPackaged: false, abi })).toBe('/home/me/steward/resources/tray');
  });
});

// The Electron main process (src/main/index.ts) on a fake Electron (test/support/fake-electron.ts)
// with a real core: it opens the data folder Steward's other faces use, refuses web permissions,
// keeps the window on the app's page, builds the tray from runs, releases the folder on quit, and
// shows an error box (not a silent exit) when the folder is taken.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCore } from '../../src/main/core';
import { lockFileName } from '../../src/main/core/data-lock';
import { silentLogger } from '../../src/main/core/logger';
import { tempDir } from '../support/core';
import { fakeElectronMain } from '../support/fake-electron';
import { root } from '../support/processes';
import { createBridge } from '../../src/preload/bridge';
import { waitFor } from '../support/wait';

async function launch(dataDir: string, platform?: NodeJS.Platform) {
  vi.stubEnv('STEWARD_DATA_DIR', dataDir);
  vi.stubEnv('STEWARD_PORT', '0');
  vi.stubEnv('STEWARD_LOG_LEVEL', 'silent');
  vi.stubEnv('XDG_CONFIG_HOME', tempDir());
  vi.stubEnv('ELECTRON_RENDERER_URL', undefined);
  const electron = fakeElectronMain({ appPath: root });
  vi.doMock('electron', () => electron.module);
  vi.resetModules();
  const real = Object.getOwnPropertyDescriptor(process, 'platform')!;
  // Only for the module's own first lines (the Windows app id is set before anything else).
  if (platform) Object.defineProperty(process, 'platform', { value: platform });
  try {
    await import('../../src/main/index');
  } finally {
    Object.defineProperty(process, 'platform', real);
  }
  electron.ready();
  return electron;
}

afterEach(() => {
  vi.doUnmock('electron');
  vi.unstubAllEnvs();
});

describe('the desktop main process', () => {
  it('serves the data folder, guards the window, builds the tray from runs, and lets the folder go on quit', async () => {
    const dataDir = tempDir();
    const electron = await launch(dataDir);
    await waitFor(() => electron.windows.length === 1 && electron.trays.length === 1 && electron.trays[0].menu.length > 0, { what: 'the window, and the tray with its menu', timeoutMs: 10_000 });
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, lockFileName), 'utf8'))).toMatchObject({ pid: process.pid });

    const [window] = electron.windows;
    expect(window.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webviewTag: false });
    const page = path.join(root, 'src/renderer/index.html');
    expect(window.loaded).toBe(`file:${page}`);
    const appUrl = `file://${page}#/activity`;

    // Navigation away from the app's page is stopped; within it, allowed.
    const navigate = (url: string) => {
      let prevented = false;
      window.webContents.emit('will-navigate', { preventDefault: () => (prevented = true) }, url);
      return prevented;
    };
    expect(navigate('https://evil.example/')).toBe(true);
    expect(navigate('file:///etc/passwd')).toBe(true);
    expect(navigate(`file://${page}#/runs`)).toBe(false);
    expect(window.webContents.openHandler!({ url: 'https://docs.example/' })).toEqual({ action: 'deny' });

    // Web permissions: none, but the clipboard write of the app's own page.
    const requested = (permission: string, requestingUrl: string) => {
      let granted: boolean | undefined;
      electron.permissions.request!({}, permission, (answer: boolean) => (granted = answer), { requestingUrl, isMainFrame: true });
      return granted;
    };
    expect(requested('media', appUrl)).toBe(false);
    expect(requested('notifications', appUrl)).toBe(false);
    expect(requested('clipboard-sanitized-write', appUrl)).toBe(true);
    expect(requested('clipboard-sanitized-write', 'https://evil.example/')).toBe(false);
    expect(electron.permissions.check!(null, 'geolocation', 'file://', { requestingUrl: appUrl, isMainFrame: true })).toBe(false);

    const labels = () => electron.trays[0].menu.map((item: any) => item.label ?? '—');
    expect(labels()).toEqual(['No runs running', 'No automation scheduled', '—', 'Pause all automations', 'Open Steward', '—', 'Quit Steward']);

    // A run through the window's IPC: the tray lists it by what ran, and opens it on a click.
    electron.ipc.frame.url = appUrl;
    const bridge = createBridge(electron.ipc.ipcRenderer, 'linux');
    const created = await bridge.call('instances.create', { body: { name: 'Echo', agent: { provider: 'command', preset: 'custom', command: 'cat' } } });
    expect(created.ok).toBe(true);
    const instance = (created as { value: { instance: { id: string } } }).value.instance;
    const run = await bridge.call('runs.create', { body: { instanceId: instance.id, prompt: 'hello' } });
    const runId = (run as { value: { run: { id: string } } }).value.run.id;
    await waitFor(() => labels()[3]?.startsWith('Echo — ') && !/queued|running/.test(labels()[3]), { what: "the tray's menu to show Echo's run ended", timeoutMs: 15_000 });
    const entry = electron.trays[0].menu[3] as { label: string; click: () => void };
    expect(entry.label).toMatch(/^Echo — (finished|failed) just now$/);
    entry.click();
    await waitFor(() => window.webContents.sent.length > 0, { what: 'a message sent to the window', timeoutMs: 10_000 });
    expect(window.webContents.sent).toContainEqual(['steward:navigate', `/runs/${runId}`]);
    expect(electron.trays[0].image).toEqual({ file: path.join(root, 'resources/tray/tray-light.png') });
    expect(electron.calls.map((call) => call.name)).not.toContain('app.setAppUserModelId');

    electron.module.app.quit();
    expect(await electron.end).toEqual({ quit: true });
    expect(electron.trays[0].destroyed).toBe(true);
    expect(fs.existsSync(path.join(dataDir, lockFileName))).toBe(false);
  });

  it('says in an error box that the data folder is taken, and exits', async () => {
    const dataDir = tempDir();
    const holder = await createCore({ dataDir, port: 0, logger: silentLogger() });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const electron = await launch(dataDir, 'win32');
      expect(await electron.end).toEqual({ exitCode: 1 });
      expect(electron.calls).toEqual([
        { name: 'app.setAppUserModelId', args: ['dev.steward.app'] },
        { name: 'dialog.showErrorBox', args: ['Steward could not start', `The data folder ${dataDir} is in use by another Steward (pid ${process.pid}). Stop it, or use --data-dir.`] },
        { name: 'app.exit', args: [1] },
      ]);
      expect(electron.windows).toEqual([]);
      expect(logged).toHaveBeenCalledWith('Steward could not start:', expect.objectContaining({ code: 'data_dir_in_use' }));
    } finally {
      logged.mockRestore();
      await holder.close();
    }
  });
});

// The desktop bridge end to end without Electron: the preload's bridge on a fake ipcRenderer, the
// main process's router on a fake ipcMain, and a real core behind them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerIpc } from '../../src/main/ipc';
import { isAppUrl } from '../../src/main/shell/app-url';
import { createBridge } from '../../src/preload/bridge';
import { ipcChannels } from '../../src/shared/bridge';
import { type TestCore, startTestCore } from '../support/core';
import { fakeElectron } from '../support/fake-electron';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(() => t.close());

function wired() {
  const electron = fakeElectron('file:///opt/Steward/resources/app.asar/out/renderer/index.html#/activity');
  const errors: unknown[] = [];
  const pages = { rendererIndex: '/opt/Steward/resources/app.asar/out/renderer/index.html' };
  const unregister = registerIpc(electron.ipcMain, { dispatch: t.core.dispatch, isAppUrl: (url) => isAppUrl(url, pages), onError: (error) => errors.push(error) });
  electron.contextBridge.exposeInMainWorld('steward', createBridge(electron.ipcRenderer, 'linux'));
  const bridge = electron.world.steward as ReturnType<typeof createBridge>;
  return { electron, bridge, unregister, errors };
}

describe('the IPC bridge', () => {
  it('runs contract operations through the core, with results as values', async () => {
    const { bridge, unregister } = wired();
    expect(bridge.platform).toBe('linux');
    const created = await bridge.call('automations.create', { body: { name: 'From the desktop', prompt: 'p', cronExpression: '0 9 * * *' } });
    expect(created).toMatchObject({ ok: true, value: { automation: { name: 'From the desktop', enabled: true } } });
    const listed = await bridge.call('automations.list', {});
    expect(listed.ok && (listed.value as { automations: { name: string }[] }).automations.map((a) => a.name)).toContain('From the desktop');
    // The same validation as HTTP, the same error shape.
    expect(await bridge.call('automations.create', { body: { name: 'x', prompt: 'p', cronExpression: 'every day' } })).toEqual({
      ok: false,
      error: { code: 'invalid_cron', message: expect.stringContaining('Invalid cron expression'), field: 'cronExpression' },
    });
    expect(await bridge.call('automations.get', { params: { id: 'aut_nope' } })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    unregister();
  });

  it('refuses names outside the contract in the preload, and callers other than the app page in main', async () => {
    const { electron, bridge, unregister } = wired();
    expect(await bridge.call('__proto__', {})).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await bridge.call('constructor', {})).toMatchObject({ ok: false, error: { code: 'not_found' } });
    // Straight at the channel, past the preload: main still checks the name and the shape.
    expect(await electron.ipcRenderer.invoke(ipcChannels.call, { name: 'events.stream', input: {} })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await electron.ipcRenderer.invoke(ipcChannels.call, 'automations.list')).toMatchObject({ ok: false, error: { code: 'invalid_body' } });
    // A page that is not the app's (a navigation that slipped through, an iframe, another local
    // file) is refused.
    for (const url of ['https://evil.example/', 'file:///home/me/Downloads/page.html', 'file:///opt/Steward/resources/app.asar/out/renderer/other.html']) {
      electron.frame.url = url;
      expect(await bridge.call('keys.list', {})).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    }
    unregister();
    await expect(electron.ipcRenderer.invoke(ipcChannels.call, { name: 'health.get', input: {} })).rejects.toThrow('No handler registered');
  });

  it('delivers live events to the page and stops when it unsubscribes', async () => {
    const { electron, bridge, unregister } = wired();
    const seen: unknown[] = [];
    const stop = bridge.onEvent((event) => seen.push(event));
    const unsubscribe = t.core.services.live.subscribe((event) => electron.send(ipcChannels.event, event));
    const instance = (await bridge.call('instances.create', { body: { name: 'Bridge echo', agent: { provider: 'command', preset: 'custom', command: 'cat' } } })) as { ok: true; value: { instance: { id: string } } };
    await t.core.services.instances.idle();
    expect(seen).toContainEqual({ type: 'instance', instance: expect.objectContaining({ id: instance.value.instance.id, status: 'running' }) });
    expect(seen).toContainEqual({ type: 'activity', seq: expect.any(Number), event: expect.objectContaining({ displayText: expect.stringMatching(/^Ready: custom:cat · sandbox/), instanceName: 'Bridge echo' }) });
    stop();
    expect(electron.listenerCount(ipcChannels.event)).toBe(0);
    unsubscribe();
    unregister();
  });
});

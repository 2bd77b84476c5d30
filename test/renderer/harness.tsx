// The renderer on a real core without Electron or a browser: the store's client is the IPC
// client on the preload bridge, over the fake IPC, to a real core's dispatch; live events flow
// from the core's bus the way the main process forwards them.
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { registerIpc } from '../../src/main/ipc';
import { createBridge } from '../../src/preload/bridge';
import { AppProvider } from '../../src/renderer/src/lib/app-context';
import { type StewardClient, ipcClient } from '../../src/renderer/src/lib/api';
import { type AppStore, createAppStore } from '../../src/renderer/src/store';
import { followLiveEvents } from '../../src/renderer/src/store/events';
import { ipcChannels } from '../../src/shared/bridge';
import type { TestCore } from '../support/core';
import { fakeElectron } from '../support/fake-electron';

/** The IPC client of the desktop app, on the fake IPC to the core's dispatch. */
export function ipcClientOf(t: TestCore): { client: StewardClient; unregister: () => void; electron: ReturnType<typeof fakeElectron> } {
  const electron = fakeElectron('file:///app/index.html');
  const unregister = registerIpc(electron.ipcMain, { dispatch: t.core.dispatch, isAppUrl: (url) => url.startsWith('file://') });
  return { client: ipcClient(createBridge(electron.ipcRenderer, 'linux')), unregister, electron };
}

export function connectStore(t: TestCore): { store: AppStore; disconnect: () => void } {
  const { client, unregister, electron } = ipcClientOf(t);
  const forward = t.core.services.live.subscribe((event) => electron.send(ipcChannels.event, event));
  const store = createAppStore(client);
  const unfollow = followLiveEvents(store);
  return {
    store,
    disconnect: () => {
      unfollow();
      forward();
      unregister();
    },
  };
}

export function renderWith(store: AppStore, element: ReactElement) {
  return render(<AppProvider store={store}>{element}</AppProvider>);
}

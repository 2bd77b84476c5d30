// A faithful fake of the few Electron IPC pieces Steward uses: ipcMain.handle / removeHandler,
// ipcRenderer.invoke / on / removeListener (invoke reaches the handler with the sender frame's
// URL, as Electron's IpcMainInvokeEvent carries it; a missing handler rejects like Electron's),
// webContents.send to renderer listeners, and contextBridge.exposeInMainWorld (which, like the
// real one, hands the page a frozen copy, not the object itself).
import type { IpcEventLike, IpcMainLike } from '../../src/main/ipc';
import type { IpcRendererLike } from '../../src/preload/bridge';

type Handler = (event: IpcEventLike, ...args: unknown[]) => unknown;
type Listener = (event: unknown, ...args: unknown[]) => void;

export function fakeElectron(pageUrl: string) {
  const handlers = new Map<string, Handler>();
  const listeners = new Map<string, Set<Listener>>();
  const frame = { url: pageUrl };

  const ipcMain: IpcMainLike = {
    handle(channel, handler) {
      if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
      handlers.set(channel, handler);
    },
    removeHandler(channel) {
      handlers.delete(channel);
    },
  };

  const ipcRenderer: IpcRendererLike = {
    async invoke(channel, ...args) {
      const handler = handlers.get(channel);
      if (!handler) throw new Error(`Error invoking remote method '${channel}': Error: No handler registered for '${channel}'`);
      // Arguments cross the process boundary by structured clone.
      return structuredClone(await handler({ senderFrame: frame }, ...args.map((arg) => structuredClone(arg))));
    },
    on(channel, listener) {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)!.add(listener);
    },
    removeListener(channel, listener) {
      listeners.get(channel)?.delete(listener);
    },
  };

  const world: Record<string, unknown> = {};
  const contextBridge = {
    exposeInMainWorld(key: string, api: object) {
      world[key] = Object.freeze({ ...api });
    },
  };

  return {
    ipcMain,
    ipcRenderer,
    contextBridge,
    world,
    /** The page the IPC seems to come from (navigate it to test the sender check). */
    frame,
    /** webContents.send: to every listener of the channel, the event object first. */
    send(channel: string, ...args: unknown[]) {
      for (const listener of listeners.get(channel) ?? []) listener({ sender: 'main' }, ...args.map((arg) => structuredClone(arg)));
    },
    listenerCount: (channel: string) => listeners.get(channel)?.size ?? 0,
  };
}

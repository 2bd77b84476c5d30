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

type Listener0 = (...args: any[]) => void;

/** Node's EventEmitter, as far as the fakes need it. */
const emitter = () => {
  const listeners = new Map<string, Listener0[]>();
  return {
    on(event: string, listener: Listener0) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
      return this;
    },
    once(event: string, listener: Listener0) {
      const once = (...args: unknown[]) => {
        this.off(event, once);
        listener(...args);
      };
      return this.on(event, once);
    },
    off(event: string, listener: Listener0) {
      listeners.set(event, (listeners.get(event) ?? []).filter((l) => l !== listener));
      return this;
    },
    emit(event: string, ...args: unknown[]) {
      for (const listener of listeners.get(event) ?? []) listener(...args);
    },
    listenerCount: (event: string) => listeners.get(event)?.length ?? 0,
  };
};

/** Platforms where Electron shows a notification's `button` actions (its NotificationAction docs). */
const actionPlatforms = new Set<NodeJS.Platform>(['darwin', 'win32']);

/**
 * A fake of Electron's Notification: built with its options (title, body, actions), shown, closed,
 * and answered the way a person answers: `click()` emits 'click'; `act(index)` emits 'action' as
 * Electron 45 does (details `{actionIndex, selectionIndex: -1}`, then the deprecated index
 * arguments), and refuses where the platform shows no actions or the notification has no such one.
 */
export function fakeNotifications(options: { platform: NodeJS.Platform; supported?: boolean }) {
  const shown: FakeNotification[] = [];
  class FakeNotification {
    static isSupported = () => options.supported ?? true;
    readonly events = emitter();
    visible = false;
    constructor(readonly options: { title?: string; body?: string; actions?: { type: string; text?: string }[] }) {}
    on(event: string, listener: Listener0) {
      this.events.on(event, listener);
      return this;
    }
    show() {
      this.visible = true;
      shown.push(this);
      this.events.emit('show', { preventDefault() {} });
    }
    close() {
      if (!this.visible) return;
      this.visible = false;
      this.events.emit('close', { preventDefault() {} });
    }
    click() {
      if (!this.visible) throw new Error('the notification is not shown');
      this.events.emit('click', { preventDefault() {} });
    }
    /** The person presses the action at `index`. */
    act(index: number) {
      if (!this.visible) throw new Error('the notification is not shown');
      if (!actionPlatforms.has(options.platform)) throw new Error(`notifications show no actions on ${options.platform}`);
      const action = this.options.actions?.[index];
      if (action?.type !== 'button') throw new Error(`the notification has no button at ${index}`);
      this.events.emit('action', { actionIndex: index, selectionIndex: -1, preventDefault() {} }, index, -1);
    }
  }
  return { Notification: FakeNotification, shown };
}

/** Calls in order, as `name arg…` records, for the main-process fake below. */
export type CallLog = { name: string; args: unknown[] }[];

/**
 * A fake of the Electron main-process modules src/main/index.ts uses (app, BrowserWindow, Tray,
 * Menu, nativeImage, nativeTheme, Notification, dialog, session, shell, ipcMain), faithful where
 * Steward depends on the behaviour: whenReady resolves when the test says the app is ready;
 * app.quit emits before-quit then will-quit, which a listener may prevent; app.exit ends
 * without events; Menu.buildFromTemplate keeps the template; session handlers are kept for the
 * test to call, as Chromium would.
 */
export function fakeElectronMain(options: { appPath: string; platform?: NodeJS.Platform }) {
  const calls: CallLog = [];
  const record = (name: string, ...args: unknown[]) => calls.push({ name, args });
  const ipc = fakeElectron('file:///');
  const { ipcMain } = ipc;

  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  let ended: ((how: { quit: true } | { exitCode: number }) => void) | undefined;
  const end = new Promise<{ quit: true } | { exitCode: number }>((resolve) => (ended = resolve));

  const appEvents = emitter();
  const app = Object.assign(appEvents, {
    isPackaged: false,
    requestSingleInstanceLock: () => true,
    whenReady: () => ready,
    getAppPath: () => options.appPath,
    setAppUserModelId: (id: string) => record('app.setAppUserModelId', id),
    setLoginItemSettings: (settings: unknown) => record('app.setLoginItemSettings', settings),
    getLoginItemSettings: () => ({ openAtLogin: false, wasOpenedAtLogin: false }),
    quit() {
      record('app.quit');
      let prevented = false;
      const event = { preventDefault: () => (prevented = true) };
      appEvents.emit('before-quit', event);
      if (prevented) return;
      appEvents.emit('will-quit', event);
      if (!prevented) ended?.({ quit: true });
    },
    exit(code = 0) {
      record('app.exit', code);
      ended?.({ exitCode: code });
    },
  });

  const windows: FakeWindow[] = [];
  class FakeWindow {
    readonly events = emitter();
    readonly webContents = Object.assign(emitter(), {
      sent: [] as unknown[][],
      openHandler: undefined as ((details: { url: string }) => { action: string }) | undefined,
      send: (...args: unknown[]) => this.webContents.sent.push(args),
      isLoading: () => false,
      setWindowOpenHandler: (handler: (details: { url: string }) => { action: string }) => (this.webContents.openHandler = handler),
    });
    loaded: string | undefined;
    visible = false;
    destroyed = false;
    constructor(readonly options: Record<string, any>) {
      windows.push(this);
    }
    on(event: string, listener: Listener0) {
      this.events.on(event, listener);
      return this;
    }
    once(event: string, listener: Listener0) {
      this.events.once(event, listener);
      return this;
    }
    loadFile(file: string) {
      this.loaded = `file:${file}`;
      return Promise.resolve();
    }
    loadURL(url: string) {
      this.loaded = url;
      return Promise.resolve();
    }
    show() {
      this.visible = true;
    }
    hide() {
      this.visible = false;
    }
    focus() {}
    restore() {}
    isMinimized = () => false;
    isDestroyed = () => this.destroyed;
  }

  const trays: FakeTray[] = [];
  class FakeTray {
    readonly events = emitter();
    tooltip = '';
    /** setTitle: shown beside the icon on macOS; Electron takes the call everywhere. */
    title = '';
    menu: unknown[] = [];
    destroyed = false;
    constructor(public image: unknown) {
      trays.push(this);
    }
    setToolTip(text: string) {
      this.tooltip = text;
    }
    setTitle(text: string) {
      this.title = text;
    }
    setContextMenu(menu: unknown[]) {
      this.menu = menu;
    }
    setImage(image: unknown) {
      this.image = image;
    }
    on(event: string, listener: Listener0) {
      this.events.on(event, listener);
    }
    destroy() {
      this.destroyed = true;
    }
  }

  const permissions: { request?: (...args: any[]) => void; check?: (...args: any[]) => boolean } = {};

  const module = {
    app,
    ipcMain,
    BrowserWindow: FakeWindow,
    Tray: FakeTray,
    Menu: { buildFromTemplate: (template: unknown[]) => template },
    nativeImage: { createFromPath: (file: string) => ({ file }) },
    nativeTheme: Object.assign(emitter(), { shouldUseDarkColors: false }),
    Notification: fakeNotifications({ platform: options.platform ?? process.platform, supported: false }).Notification,
    dialog: { showErrorBox: (title: string, content: string) => record('dialog.showErrorBox', title, content) },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (handler: (...args: any[]) => void) => (permissions.request = handler),
        setPermissionCheckHandler: (handler: (...args: any[]) => boolean) => (permissions.check = handler),
      },
    },
    shell: { openExternal: (url: string) => record('shell.openExternal', url) },
  };

  return {
    module,
    /** The renderer's side of ipcMain: set `ipc.frame.url` to the page calling. */
    ipc,
    calls,
    windows,
    trays,
    permissions,
    ready: () => markReady(),
    /** Resolves when the app quit (every will-quit let through) or exited. */
    end,
  };
}

// The bridge the preload exposes, built from an ipcRenderer so that tests can hand it a fake:
// only the contract's operation names go through, and only the app's channels are listened to.
import { type CallAnswer, type StewardBridge, ipcChannels } from '../shared/bridge';
import { operations } from '../shared/contract';

export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

const known = new Set(Object.keys(operations));

export function createBridge(ipc: IpcRendererLike, platform: string): StewardBridge {
  const listen = <T>(channel: string, listener: (value: T) => void) => {
    const handler = (_event: unknown, value: unknown) => listener(value as T);
    ipc.on(channel, handler);
    return () => void ipc.removeListener(channel, handler);
  };
  return Object.freeze({
    platform,
    async call(name: string, input: { params?: unknown; query?: unknown; body?: unknown }): Promise<CallAnswer> {
      if (typeof name !== 'string' || !known.has(name)) return { ok: false, error: { code: 'not_found', message: `No operation ${String(name)}.` } };
      return (await ipc.invoke(ipcChannels.call, { name, input: { params: input?.params, query: input?.query, body: input?.body } })) as CallAnswer;
    },
    onEvent: (listener: (event: unknown) => void) => listen(ipcChannels.event, listener),
    onNavigate: (listener: (path: string) => void) => listen(ipcChannels.navigate, listener),
  });
}

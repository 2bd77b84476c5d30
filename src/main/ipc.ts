// The IPC router: the renderer's calls come in on one channel, are checked to come from the app's
// own page, and go through the core's dispatch (the contract's schemas, then the handler), the
// same door as HTTP. Errors come back as values with their code, never as thrown exceptions.
import { type CallAnswer, ipcChannels } from '../shared/bridge';
import { type Operation, operations } from '../shared/contract';
import { AppError } from '../shared/errors';
import type { Dispatch } from './core/dispatch';
import type { MappedName } from './core/handlers';

export interface IpcEventLike {
  senderFrame: { url: string } | null;
}

/** The part of Electron's ipcMain the router uses; tests hand it a fake. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

function refuse(code: 'unauthorized' | 'not_found' | 'invalid_body', message: string): CallAnswer {
  return { ok: false, error: { code, message } };
}

export function registerIpc(ipc: IpcMainLike, deps: { dispatch: Dispatch; isAppUrl: (url: string) => boolean; onError?: (error: unknown) => void }): () => void {
  ipc.handle(ipcChannels.call, async (event, request): Promise<CallAnswer> => {
    if (!event.senderFrame || !deps.isAppUrl(event.senderFrame.url)) return refuse('unauthorized', 'Only Steward’s own window may call it.');
    if (request === null || typeof request !== 'object') return refuse('invalid_body', 'A call is { name, input }.');
    const { name, input } = request as { name?: unknown; input?: unknown };
    const operation = typeof name === 'string' ? (operations as Record<string, Operation>)[name] : undefined;
    if (!operation || operation.customRoute) return refuse('not_found', `No operation ${String(name)}.`);
    const raw = (input ?? {}) as { params?: unknown; query?: unknown; body?: unknown };
    try {
      const value = await deps.dispatch(name as MappedName, { params: raw.params ?? {}, query: raw.query ?? {}, body: raw.body });
      return { ok: true, value };
    } catch (error) {
      if (error instanceof AppError) return { ok: false, error: error.toBody().error };
      deps.onError?.(error);
      return { ok: false, error: { code: 'internal_error', message: 'Steward could not do that; its log says why.' } };
    }
  });
  return () => ipc.removeHandler(ipcChannels.call);
}

// The one interface the UI talks through. In Electron it is the preload's IPC bridge; in a browser
// it is the HTTP API with the session cookie, and Server-Sent Events for what happens live.
import type { StewardBridge } from '../../../shared/bridge';
import type { z } from 'zod';
import { type ActivityEvent, type ChangedResource, type Instance, type LiveEvent, type OperationName, type Operations, type Run, operations } from '../../../shared/contract';
import type { ErrorCode } from '../../../shared/errors';

export interface CallInput {
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
}

/** An API error, with the field it concerns when there is one. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode | 'network_error',
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** What an operation answers, as the client sees it (defaults applied). */
export type Output<N extends OperationName> = z.output<NonNullable<Operations[N]['output']>>;

export interface StewardClient {
  call<N extends OperationName>(name: N, input?: CallInput): Promise<Output<N>>;
  /** Live events; returns the unsubscribe. */
  subscribe(listener: (event: LiveEvent) => void): () => void;
}

function toError(error: unknown): ApiError {
  const body = (error ?? {}) as { code?: ErrorCode; message?: string; field?: string };
  return new ApiError(body.code ?? 'internal_error', body.message ?? 'Something went wrong.', body.field);
}

/** `/api/automations/{id}` with params, plus a query string. */
export function urlFor(name: OperationName, input: CallInput = {}): string {
  const path = operations[name].path.replace(/\{(\w+)\}/g, (_, key: string) => encodeURIComponent(input.params?.[key] ?? ''));
  const query = Object.entries(input.query ?? {}).filter((entry): entry is [string, string | number] => entry[1] !== undefined && entry[1] !== '');
  return query.length > 0 ? `${path}?${new URLSearchParams(query.map(([key, value]) => [key, String(value)])).toString()}` : path;
}

export function httpClient(base = ''): StewardClient {
  return {
    async call(name, input = {}) {
      const operation = operations[name];
      let response: Response;
      try {
        response = await fetch(base + urlFor(name, input), {
          method: operation.method,
          credentials: 'same-origin',
          headers: input.body === undefined ? {} : { 'content-type': 'application/json' },
          body: input.body === undefined ? undefined : JSON.stringify(input.body),
        });
      } catch {
        throw new ApiError('network_error', 'Steward cannot be reached. Is it still running?');
      }
      if (response.status === 204) return undefined as never;
      const body = (await response.json().catch(() => ({}))) as { error?: unknown };
      if (!response.ok) throw toError(body.error);
      return body as never;
    },
    subscribe(listener) {
      const source = new EventSource(`${base}/api/events`, { withCredentials: true });
      const onActivity = (message: MessageEvent<string>) => {
        const { seq, ...event } = JSON.parse(message.data) as ActivityEvent & { seq: number };
        listener({ type: 'activity', seq, event });
      };
      const onRun = (message: MessageEvent<string>) => listener({ type: 'run', run: JSON.parse(message.data) as Run });
      const onInstance = (message: MessageEvent<string>) => listener({ type: 'instance', instance: JSON.parse(message.data) as Instance });
      source.addEventListener('activity', onActivity);
      source.addEventListener('run', onRun);
      source.addEventListener('instance', onInstance);
      source.addEventListener('changed', (message: MessageEvent<string>) => listener({ type: 'changed', ...(JSON.parse(message.data) as { resource: ChangedResource; id: string }) }));
      return () => source.close();
    },
  };
}

export function ipcClient(bridge: StewardBridge): StewardClient {
  return {
    async call(name, input = {}) {
      const answer = await bridge.call(name, input);
      if (!answer.ok) throw toError(answer.error);
      return answer.value as never;
    },
    subscribe: (listener) => bridge.onEvent((event) => listener(event as LiveEvent)),
  };
}

/** True in the desktop app (the preload's bridge is there), false in a browser. */
export const inDesktopApp = (): boolean => typeof window !== 'undefined' && window.steward !== undefined;

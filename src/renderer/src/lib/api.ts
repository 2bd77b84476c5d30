// The one interface the UI talks through. In Electron it is the preload's IPC bridge; in a browser
// it is the HTTP API with the session cookie, and Server-Sent Events for what happens live.
import type { StewardBridge } from '../../../shared/bridge';
import type { z } from 'zod';
import { type ActivityEvent, type ChangedResource, type Instance, type LiveEvent, type OperationName, type Operations, type Run, operations } from '../../../shared/contract';
import type { ErrorCode } from '../../../shared/errors';
import { fillPath } from '../../../shared/operation-path';

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

/**
 * What a subscription hears: the core's live events, and `resync` when some may have been missed
 * (the stream was closed, fell behind, or resumed past what can be replayed): reload what is shown.
 */
export type StreamEvent = LiveEvent | { type: 'resync' };

export interface StewardClient {
  call<N extends OperationName>(name: N, input?: CallInput): Promise<Output<N>>;
  /** Live events; returns the unsubscribe. */
  subscribe(listener: (event: StreamEvent) => void): () => void;
}

/** The part of the browser's EventSource the client uses (tests bring their own). */
export interface EventSourceLike {
  readonly readyState: number;
  addEventListener(type: string, listener: (message: MessageEvent<string>) => void): void;
  close(): void;
}
export type EventSourceFactory = (url: string) => EventSourceLike;

const eventSourceClosed = 2;
const firstRetryMs = 1_000;
const lastRetryMs = 30_000;

function toError(error: unknown): ApiError {
  const body = (error ?? {}) as { code?: ErrorCode; message?: string; field?: string };
  return new ApiError(body.code ?? 'internal_error', body.message ?? 'Something went wrong.', body.field);
}

/** `/api/automations/{id}` with params, plus a query string. */
export function urlFor(name: OperationName, input: CallInput = {}): string {
  const path = fillPath(operations[name], input.params);
  const query = Object.entries(input.query ?? {}).filter((entry): entry is [string, string | number] => entry[1] !== undefined && entry[1] !== '');
  return query.length > 0 ? `${path}?${new URLSearchParams(query.map(([key, value]) => [key, String(value)])).toString()}` : path;
}

/**
 * Live events over Server-Sent Events. Every connection may have missed run, instance and change
 * events (only activity lines are replayed): the first one, those since the app's first loads
 * answered; a reconnection, those while it was away. Each is announced as `resync`, as is a
 * `reset`. A stream that ends for good (the server refused it, e.g. 429 too many streams, or sent
 * `overflow` and closed it) is opened anew after a growing wait.
 */
function subscribeToStream(url: string, open: EventSourceFactory, listener: (event: StreamEvent) => void): () => void {
  let source: EventSourceLike | undefined;
  let retryMs = firstRetryMs;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const connect = () => {
    const current = open(url);
    source = current;
    current.addEventListener('open', () => {
      retryMs = firstRetryMs;
      listener({ type: 'resync' });
    });
    current.addEventListener('activity', (message) => {
      const { seq, ...event } = JSON.parse(message.data) as ActivityEvent & { seq: number };
      listener({ type: 'activity', seq, event });
    });
    current.addEventListener('run', (message) => listener({ type: 'run', run: JSON.parse(message.data) as Run }));
    current.addEventListener('instance', (message) => listener({ type: 'instance', instance: JSON.parse(message.data) as Instance }));
    current.addEventListener('changed', (message) => listener({ type: 'changed', ...(JSON.parse(message.data) as { resource: ChangedResource; id: string }) }));
    current.addEventListener('reset', () => listener({ type: 'resync' }));
    const reopen = () => {
      current.close();
      if (stopped || source !== current || retry !== undefined) return;
      retry = setTimeout(() => {
        retry = undefined;
        if (!stopped) connect();
      }, retryMs);
      retryMs = Math.min(retryMs * 2, lastRetryMs);
    };
    // The server closes the stream after `overflow`: open a fresh one rather than resume a backlog.
    current.addEventListener('overflow', reopen);
    // EventSource retries by itself after a dropped connection, but not after a refusal.
    current.addEventListener('error', () => {
      if (current.readyState === eventSourceClosed) reopen();
    });
  };
  connect();
  return () => {
    stopped = true;
    if (retry !== undefined) clearTimeout(retry);
    source?.close();
  };
}

const browserEventSource: EventSourceFactory = (url) => new EventSource(url, { withCredentials: true });

export function httpClient(base = '', openEventSource: EventSourceFactory = browserEventSource): StewardClient {
  return {
    async call(name, input = {}) {
      const operation = operations[name];
      // A missing path parameter is refused here, as the API would refuse it, before anything is sent.
      let url: string;
      try {
        url = base + urlFor(name, input);
      } catch (error) {
        throw toError(error);
      }
      let response: Response;
      try {
        response = await fetch(url, {
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
    subscribe: (listener) => subscribeToStream(`${base}/api/events`, openEventSource, listener),
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

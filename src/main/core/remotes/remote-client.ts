// Calls to another Steward's API with its key: JSON in and out, its errors turned into Steward's
// own error shape naming the remote, and the key never in a message (it is only ever a header).
import { contractVersion } from '../../../shared/contract';
import { type ErrorCode, AppError, errorStatus } from '../../../shared/errors';
import { hostOf } from './host';
import { printable } from '../../../shared/printable';

export interface RemoteTarget {
  name: string;
  url: string;
  key: string;
}

export interface RemoteRequest {
  query?: Record<string, unknown> | undefined;
  body?: unknown;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export const defaultRequestTimeoutMs = 15_000;

/** What a failure says about the connection: the remote's state it leads to. */
export type FailureKind = 'unreachable' | 'unauthorized' | 'incompatible';

export function failureKind(error: unknown): FailureKind {
  if (!(error instanceof AppError)) return 'unreachable';
  if (error.code === 'remote_unauthorized') return 'unauthorized';
  // The remote refused what this Steward asked as malformed: they do not speak the same API.
  if (error.code === 'remote_incompatible' || (error.status >= 400 && error.status < 500)) return 'incompatible';
  // Unreachable, or busy (429, a full disk there): trying again later may pass.
  return 'unreachable';
}

export { hostOf };

export function searchOf(query: Record<string, unknown> | undefined): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    search.set(key, Array.isArray(value) ? value.join(',') : typeof value === 'string' ? value : JSON.stringify(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** Why fetch failed, in words: the system's code (ECONNREFUSED) or the cause's message. */
function networkCause(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'no answer in time';
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  // fetch refuses to dial ports on the browsers' blocked list (1, 22, 25, 6000 …) before any network.
  if (cause?.message === 'bad port') return 'fetch will not dial this port (one browsers block, such as 1, 22, 25 or 6000): serve the remote Steward on another port';
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

export function createRemoteClient(target: RemoteTarget) {
  const host = hostOf(target.url);
  const label = target.name === host ? `The Steward at ${host}` : `Remote “${target.name}” (${host})`;
  // Belt and braces: no message built here holds the key, and none from elsewhere may either.
  const redact = (text: string) => (target.key ? text.split(target.key).join('[redacted]') : text);

  function unreachable(error: unknown): AppError {
    return new AppError('remote_unreachable', redact(`${label} is unreachable: ${networkCause(error)}.`));
  }

  async function refusal(response: Response): Promise<AppError> {
    const text = await response.text().catch(() => '');
    let error: { code?: string; message?: string; field?: string } | undefined;
    try {
      error = (JSON.parse(text) as { error?: typeof error }).error;
    } catch {
      // not Steward's error shape: said below
    }
    if (response.status === 401 || error?.code === 'forbidden') {
      return new AppError('remote_unauthorized', redact(`${label} refused this Steward's key: ${error?.message ?? `HTTP ${response.status}`} Store an admin API key of that Steward in the remote's secret.`));
    }
    if (!error?.code || !error.message) {
      return new AppError('remote_incompatible', `${label} answered HTTP ${response.status} with ${response.headers.get('content-type') ?? 'no content type'}, not Steward's API.`);
    }
    const retryAfter = response.headers.get('retry-after');
    const known = error.code in errorStatus;
    // The remote's words, escaped but for their line breaks: they reach a terminal and the app.
    return new AppError(known ? (error.code as ErrorCode) : 'remote_error', redact(`${label}: ${printable(error.message, true)}`), {
      ...(error.field ? { field: printable(error.field) } : {}),
      ...(retryAfter ? { headers: { 'retry-after': retryAfter } } : {}),
    });
  }

  async function send(method: string, path: string, request: RemoteRequest, accept = 'application/json'): Promise<Response> {
    const timeout = AbortSignal.timeout(request.timeoutMs ?? defaultRequestTimeoutMs);
    const signal = request.signal ? AbortSignal.any([timeout, request.signal]) : timeout;
    const hasBody = request.body !== undefined && method !== 'GET';
    try {
      return await fetch(`${target.url}${path}${searchOf(request.query)}`, {
        method,
        headers: { authorization: `Bearer ${target.key}`, accept, ...(hasBody ? { 'content-type': 'application/json' } : {}) },
        body: hasBody ? JSON.stringify(request.body) : undefined,
        signal,
        redirect: 'error',
      });
    } catch (error) {
      throw unreachable(error);
    }
  }

  return {
    label,

    /** One API call; the answer's JSON (undefined for 204), or an AppError naming the remote. */
    async call<T = unknown>(method: string, path: string, request: RemoteRequest = {}): Promise<T> {
      const response = await send(method, path, request);
      if (!response.ok) throw await refusal(response);
      if (response.status === 204) return undefined as T;
      try {
        return (await response.json()) as T;
      } catch (error) {
        if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) throw unreachable(error);
        throw new AppError('remote_incompatible', `${label} answered ${method} ${path} with something that is not JSON.`);
      }
    },

    /** Opens its event stream; the caller reads the body (readEventStream). */
    async stream(path: string, signal: AbortSignal, timeoutMs: number): Promise<ReadableStream<Uint8Array>> {
      const opened = new AbortController();
      const timer = setTimeout(() => opened.abort(new DOMException('no answer in time', 'TimeoutError')), timeoutMs);
      try {
        const response = await send('GET', path, { signal: AbortSignal.any([signal, opened.signal]), timeoutMs: 2 ** 31 - 1 }, 'text/event-stream');
        if (!response.ok) throw await refusal(response);
        if (!response.headers.get('content-type')?.startsWith('text/event-stream') || !response.body) {
          // Refused unread: its socket is let go now, not when the other end gives up.
          await response.body?.cancel().catch(() => {});
          throw new AppError('remote_incompatible', `${label} answered GET ${path} without an event stream.`);
        }
        return response.body;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

export type RemoteClient = ReturnType<typeof createRemoteClient>;

/**
 * The remote's version, once its health says it speaks this Steward's contract; a remote that
 * speaks another (or none: an older Steward) is refused as incompatible. The one such check: the
 * follower makes it at each connection, a connection test before a remote is added.
 */
export async function checkContract(client: RemoteClient, request: RemoteRequest = {}): Promise<string> {
  const health = await client.call<{ version?: string; contract?: number }>('GET', '/api/health', request);
  if (health.contract !== contractVersion) {
    const spoken = health.contract === undefined ? 'no contract version (an older Steward)' : `contract ${health.contract}`;
    throw new AppError('remote_incompatible', `${client.label} speaks ${spoken}; this Steward speaks contract ${contractVersion}. Update the older of the two.`);
  }
  return health.version ?? 'unknown';
}

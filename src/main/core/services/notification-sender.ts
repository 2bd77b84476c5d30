// One attempt at one notification: a POST with a time limit, the Standard Webhooks signature
// computed for this attempt, and what the receiver answered (its status and the start of its
// body). It never throws: a failure is an outcome with a reason in words.
import { createHmac } from 'node:crypto';

export const maxResponseBytes = 4096;

export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
  /** Steward was closing: the attempt does not count. */
  aborted: boolean;
}

export interface OutgoingRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed by the base64 part of a whsec_ secret. */
export function standardSignature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** The Standard Webhooks headers of one attempt: the id stays, the timestamp is the attempt's. */
export function standardHeaders(secret: string, id: string, nowMs: number, body: string): Record<string, string> {
  const timestamp = Math.floor(nowMs / 1000);
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': standardSignature(secret, id, timestamp, body) };
}

async function readCapped(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < maxResponseBytes) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    // A receiver that streams forever is not read to its end.
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, maxResponseBytes).toString('utf8');
}

function reasonOf(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `No answer within ${timeoutMs / 1000} s.`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `The request failed: ${cause.code}${cause.message ? ` (${cause.message})` : ''}.`;
  return `The request failed: ${error instanceof Error ? (cause?.message ?? error.message) : String(error)}.`;
}

export async function sendAttempt(request: OutgoingRequest, options: { timeoutMs: number; closing: AbortSignal }): Promise<AttemptOutcome> {
  const signal = AbortSignal.any([AbortSignal.timeout(options.timeoutMs), options.closing]);
  try {
    const response = await fetch(request.url, { method: 'POST', headers: { 'user-agent': 'Steward', ...request.headers }, body: request.body, redirect: 'manual', signal });
    const responseBody = await readCapped(response).catch(() => '');
    const ok = response.status >= 200 && response.status < 300;
    return { ok, statusCode: response.status, error: ok ? null : `The receiver answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}.`, responseBody, aborted: false };
  } catch (error) {
    if (options.closing.aborted) return { ok: false, statusCode: null, error: 'Steward stopped during the attempt.', responseBody: null, aborted: true };
    return { ok: false, statusCode: null, error: reasonOf(error, options.timeoutMs), responseBody: null, aborted: false };
  }
}

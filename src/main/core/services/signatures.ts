// Webhook signature checks for the senders people use most (DESIGN §4): GitHub
// (X-Hub-Signature-256), Stripe (Stripe-Signature), Standard Webhooks (webhook-id,
// webhook-timestamp, webhook-signature) and Slack (X-Slack-Signature v0 with
// X-Slack-Request-Timestamp). Computed over the body bytes exactly as received,
// compared in constant time; the timestamped schemes refuse deliveries over 5 minutes old.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SignatureScheme } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';

const toleranceSeconds = 5 * 60;

type Headers = Record<string, string | string[] | undefined>;

const header = (headers: Headers, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

const refuse = (message: string) => new AppError('invalid_signature', message);

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function checkAge(timestamp: string | undefined, now: Date, what: string): number {
  const seconds = Number(timestamp);
  if (!timestamp || !Number.isInteger(seconds)) throw refuse(`${what} has no valid timestamp.`);
  if (Math.abs(now.getTime() / 1000 - seconds) > toleranceSeconds) throw refuse(`${what} is more than 5 minutes away from now: a replay, or a clock that is off.`);
  return seconds;
}

function github(secret: string, headers: Headers, body: Buffer): void {
  const signature = header(headers, 'x-hub-signature-256');
  if (!signature) throw refuse('The X-Hub-Signature-256 header is missing.');
  const expected = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  if (!sameText(signature, expected)) throw refuse('X-Hub-Signature-256 does not match the body.');
}

function stripe(secret: string, headers: Headers, body: Buffer, now: Date): void {
  const signature = header(headers, 'stripe-signature');
  if (!signature) throw refuse('The Stripe-Signature header is missing.');
  const parts = signature.split(',').map((part) => part.trim().split('=') as [string, string | undefined]);
  const timestamp = parts.find(([key]) => key === 't')?.[1];
  checkAge(timestamp, now, 'Stripe-Signature');
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
  if (!parts.some(([key, value]) => key === 'v1' && value !== undefined && sameText(value, expected))) {
    throw refuse('Stripe-Signature does not match the body.');
  }
}

function standardKey(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice('whsec_'.length), 'base64') : Buffer.from(secret);
}

function standard(secret: string, headers: Headers, body: Buffer, now: Date): void {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !signatures) throw refuse('The webhook-id and webhook-signature headers are required.');
  checkAge(timestamp, now, 'webhook-timestamp');
  const expected = createHmac('sha256', standardKey(secret)).update(`${id}.${timestamp}.`).update(body).digest('base64');
  const offered = signatures.split(' ').filter((entry) => entry.startsWith('v1,')).map((entry) => entry.slice(3));
  if (!offered.some((value) => sameText(value, expected))) throw refuse('webhook-signature does not match the body.');
}

function slack(secret: string, headers: Headers, body: Buffer, now: Date): void {
  const signature = header(headers, 'x-slack-signature');
  if (!signature) throw refuse('The X-Slack-Signature header is missing.');
  const timestamp = header(headers, 'x-slack-request-timestamp');
  checkAge(timestamp, now, 'X-Slack-Request-Timestamp');
  const expected = `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:`).update(body).digest('hex')}`;
  if (!sameText(signature, expected)) throw refuse('X-Slack-Signature does not match the body.');
}

const schemes: Record<SignatureScheme, (secret: string, headers: Headers, body: Buffer, now: Date) => void> = { github, stripe, standard, slack };

/** Throws 401 invalid_signature unless the request carries a valid signature for `scheme`. */
export function verifySignature(scheme: SignatureScheme, secret: string, headers: Headers, body: Buffer, now: Date): void {
  schemes[scheme](secret, headers, body, now);
}

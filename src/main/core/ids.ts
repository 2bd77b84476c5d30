// Prefixed, sortable identifiers (DESIGN §3) and random secrets.
import { createHash, randomBytes } from 'node:crypto';
import { monotonicFactory } from 'ulid';

const nextUlid = monotonicFactory();

export type IdPrefix = 'ins' | 'aut' | 'whk' | 'thr' | 'run' | 'key' | 'dlv';

export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  return `${prefix}_${nextUlid(now)}`;
}

/** URL-safe random text carrying `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

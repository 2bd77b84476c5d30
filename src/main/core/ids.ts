// Prefixed, sortable identifiers (DESIGN §3): prefix + ULID (48-bit millisecond time, 80 random
// bits, Crockford base32). Within one millisecond the random part counts up, so ids made by this
// process sort in the order they were made.
import { createHash, randomBytes } from 'node:crypto';

export type IdPrefix = 'ins' | 'aut' | 'whk' | 'thr' | 'run' | 'key' | 'dlv' | 'chn' | 'ntf' | 'apr' | 'rem';

const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
let lastTime = -1;
const lastRandom = new Uint8Array(16); // 16 base32 digits = 80 bits

function encodeTime(time: number): string {
  let text = '';
  for (let i = 0; i < 10; i++) {
    text = alphabet[time % 32] + text;
    time = Math.floor(time / 32);
  }
  return text;
}

function incrementRandom(): void {
  for (let i = lastRandom.length - 1; i >= 0; i--) {
    if (lastRandom[i] < 31) {
      lastRandom[i]++;
      return;
    }
    lastRandom[i] = 0;
  }
}

export function ulid(now: number = Date.now()): string {
  if (now > lastTime) {
    lastTime = now;
    const bytes = randomBytes(16);
    for (let i = 0; i < 16; i++) lastRandom[i] = bytes[i] & 31;
  } else {
    incrementRandom();
  }
  let random = '';
  for (const digit of lastRandom) random += alphabet[digit];
  return encodeTime(lastTime) + random;
}

export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  return `${prefix}_${ulid(now)}`;
}

/** URL-safe random text carrying `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

// JSON bodies as text: the bytes must be UTF-8 and the strings in them must not hold lone
// surrogates (`"\ud800"`), wherever the body comes in (the API, /mcp, triggers). A decoder that
// replaces bad bytes with U+FFFD would store something other than what was sent; refused instead,
// naming the byte offset of the first problem.
import { AppError } from '../../shared/errors';

const fatalDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The byte offset of the first byte that does not belong to a valid UTF-8 sequence. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const lead = bytes[i];
    if (lead < 0x80) {
      i++;
      continue;
    }
    // Overlong forms, UTF-16 surrogates (ED A0..BF) and code points past U+10FFFF are not UTF-8.
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) length = 2;
    else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      if (lead === 0xe0) low = 0xa0;
      if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      if (lead === 0xf0) low = 0x90;
      if (lead === 0xf4) high = 0x8f;
    } else return i;
    for (let k = 1; k < length; k++) {
      const next = bytes[i + k];
      if (next === undefined || next < (k === 1 ? low : 0x80) || next > (k === 1 ? high : 0xbf)) return i;
    }
    i += length;
  }
  return -1;
}

const hexValue = (bytes: Uint8Array, at: number): number => {
  let value = 0;
  for (let k = 0; k < 4; k++) {
    const digit = Number.parseInt(String.fromCharCode(bytes[at + k] ?? 0x20), 16);
    if (Number.isNaN(digit)) return -1;
    value = value * 16 + digit;
  }
  return value;
};

/**
 * The byte offset of the first `\uXXXX` escape that is half of a surrogate pair without its other
 * half. Scans bytes: the characters that matter (`"`, `\`, `u`) are single bytes in UTF-8, and no
 * byte of a multi-byte sequence looks like them.
 */
function firstLoneSurrogate(bytes: Uint8Array): number {
  let inString = false;
  let pendingHigh = -1;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (!inString) {
      if (byte === 0x22) inString = true;
      continue;
    }
    if (byte === 0x5c && bytes[i + 1] === 0x75) {
      const unit = hexValue(bytes, i + 2);
      const isHigh = unit >= 0xd800 && unit <= 0xdbff;
      const isLow = unit >= 0xdc00 && unit <= 0xdfff;
      if (pendingHigh >= 0 && !isLow) return pendingHigh;
      if (isLow && pendingHigh < 0) return i;
      pendingHigh = isHigh ? i : -1;
      i += 5;
      continue;
    }
    if (pendingHigh >= 0) return pendingHigh;
    if (byte === 0x5c) i++;
    else if (byte === 0x22) inString = false;
  }
  return pendingHigh;
}

/** The body as text, or invalid_json naming the byte offset of invalid UTF-8 or a lone surrogate. */
export function jsonBodyText(body: Uint8Array): string {
  let text: string;
  try {
    text = fatalDecoder.decode(body);
  } catch {
    const offset = firstInvalidUtf8(body);
    throw new AppError('invalid_json', `The body is not valid UTF-8: the byte at offset ${offset} (0x${(body[offset] ?? 0).toString(16).toUpperCase().padStart(2, '0')}) does not belong to a UTF-8 character.`);
  }
  // Only an escape can make a lone surrogate: skip the scan for bodies without one.
  if (text.includes('\\u')) {
    const offset = firstLoneSurrogate(body);
    if (offset >= 0) throw new AppError('invalid_json', `The body holds a lone UTF-16 surrogate (a \\u escape without its pair) at byte offset ${offset}: it is not text.`);
  }
  return text;
}

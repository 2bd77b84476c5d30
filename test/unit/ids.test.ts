// Identifiers: prefix + ULID, sortable in the order they were made.
import { describe, expect, it } from 'vitest';
import { newId, randomToken, ulid } from '../../src/main/core/ids';

describe('ids', () => {
  it('are prefixed ULIDs', () => {
    expect(newId('run')).toMatch(/^run_[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('encode the time in their first ten characters', () => {
    const decode = (id: string) => [...id.slice(0, 10)].reduce((time, digit) => time * 32 + '0123456789ABCDEFGHJKMNPQRSTVWXYZ'.indexOf(digit), 0);
    const later = Date.UTC(2100, 0, 1);
    expect(decode(ulid(later))).toBe(later);
  });

  it('sort in creation order, also within one millisecond and when the clock steps back', () => {
    const made: string[] = [];
    const now = Date.now() + 10_000;
    for (let i = 0; i < 1000; i++) made.push(newId('run', now));
    made.push(newId('run', now - 5000));
    made.push(newId('run', now + 1));
    expect([...made].sort()).toEqual(made);
    expect(new Set(made).size).toBe(made.length);
  });

  it('tokens carry 32 random bytes, URL-safe', () => {
    const token = randomToken(32);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
  });
});

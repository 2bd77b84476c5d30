// The update rule (services/patch-merge.ts): left out keeps, given replaces (null and false
// included), an object given replaces the stored object whole.
import { describe, expect, it } from 'vitest';
import { given, mergePatch } from '../../src/main/core/services/patch-merge';

interface Stored {
  name: string;
  enabled: boolean;
  attempts: number;
  key: string | null;
  budget: { usdPerDay?: number; usdPerMonth?: number };
}

const stored: Stored = { name: 'Nightly', enabled: true, attempts: 3, key: '{{headers.x-id}}', budget: { usdPerDay: 2, usdPerMonth: 20 } };

describe('mergePatch', () => {
  it('keeps every field an empty body leaves out, and returns a copy', () => {
    const merged = mergePatch(stored, {});
    expect(merged).toEqual(stored);
    expect(merged).not.toBe(stored);
  });

  it('treats a field present as undefined as left out', () => {
    expect(mergePatch(stored, { name: undefined, key: undefined })).toEqual(stored);
  });

  it('replaces the fields given, falsy ones included, and keeps the rest', () => {
    expect(mergePatch(stored, { enabled: false, attempts: 0, name: '' })).toEqual({ ...stored, enabled: false, attempts: 0, name: '' });
  });

  it('clears a nullable field given null', () => {
    expect(mergePatch(stored, { key: null })).toEqual({ ...stored, key: null });
  });

  it('replaces an object given whole, without merging its fields', () => {
    expect(mergePatch(stored, { budget: { usdPerMonth: 5 } }).budget).toEqual({ usdPerMonth: 5 });
    expect(mergePatch(stored, { budget: {} }).budget).toEqual({});
  });

  it('leaves the stored resource as it was', () => {
    const before = structuredClone(stored);
    mergePatch(stored, { name: 'Other', key: null, budget: {} });
    expect(stored).toEqual(before);
  });
});

describe('given', () => {
  it('converts a value given, null included, and leaves a left-out one out', () => {
    const calls: unknown[] = [];
    const convert = (value: string | null) => (calls.push(value), value === null ? 'cleared' : value.toUpperCase());
    expect(given(undefined, convert)).toBeUndefined();
    expect(calls).toEqual([]);
    expect(given('abc', convert)).toBe('ABC');
    expect(given(null, convert)).toBe('cleared');
  });
});

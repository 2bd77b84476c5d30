// Whether an update changes anything: an empty or identical PATCH/PUT must leave the resource as it
// was (`updatedAt` kept, nothing announced), so every update compares what it would write with what
// is stored before writing.
import type { SecretBox } from './secrets';

/** Plain JSON values with object keys sorted: equal data, whatever the order it was written in. */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, each]) => each !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, each]) => [key, canonical(each)]),
  );
}

/** Whether two plain JSON values hold the same data, whatever the order of their keys. */
export const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/** True when `next` holds what `current` holds, apart from the fields named in `ignoring`. */
export function unchanged<T extends object>(next: T, current: T, ignoring: readonly (keyof T)[] = []): boolean {
  const strip = (record: T) => Object.fromEntries(Object.entries(record).filter(([key]) => !ignoring.includes(key as keyof T)));
  return sameValue(strip(next), strip(current));
}

/**
 * The sealed form of `plaintext`: the stored one when it already seals that text (sealing again
 * would give other bytes for the same secret, and so a change where there is none).
 */
export function resealed(box: SecretBox, plaintext: string, stored: string | null | undefined): string {
  if (stored) {
    try {
      if (box.open(stored) === plaintext) return stored;
    } catch {
      // Not openable (another key): sealed anew below.
    }
  }
  return box.seal(plaintext);
}

// The update rule of every resource, in one place (DESIGN.md, "Update semantics"): a field the
// body leaves out keeps its stored value; a field it gives replaces it, `null` included where the
// contract lets the field be null (a webhook's signature or idempotency key); an object it gives
// (a retry policy, a budget) replaces the stored object whole, as the contract describes it.

/** A body of fields of `T`, each either left out (undefined) or given. */
export type PatchOf<T> = { [Key in keyof T]?: T[Key] | undefined };

/** The stored resource with the fields the body gives laid over it. */
export function mergePatch<T extends object>(current: T, patch: PatchOf<T>): T {
  const next = { ...current };
  for (const key of Object.keys(patch) as (keyof T)[]) {
    const value = patch[key];
    if (value !== undefined) next[key] = value;
  }
  return next;
}

/**
 * A field the stored resource keeps in another form than the body gives it (an instance's id for
 * its name, a sealed secret for a secret): left out stays left out, given is converted.
 */
export function given<Value, Stored>(value: Value | undefined, convert: (value: Value) => Stored): Stored | undefined {
  return value === undefined ? undefined : convert(value);
}

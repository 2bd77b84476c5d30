// The ratios `npm run bench:check` guards, as recorded in docs/benchmarks.md ("Guarded ratios"): a
// ratio more than 1.5× worse than its recorded figure fails. Only ratios are compared, each
// measured beside its baseline in the same run: absolute times say more about the machine.
export const tolerance = 1.5;

export interface Guard {
  benchmark: string;
  field: string;
  better: 'higher' | 'lower';
  recorded: number;
}

/** The table under "## Guarded ratios": | `benchmark` | `field` | higher or lower | recorded | … */
export function guardsOf(markdown: string): Guard[] {
  const section = markdown.split(/^## Guarded ratios$/m)[1]?.split(/^## /m)[0] ?? '';
  const guards: Guard[] = [];
  for (const line of section.split('\n')) {
    const match = /^\|\s*`([\w-]+)`\s*\|\s*`([\w.]+)`\s*\|\s*(higher|lower)\s*\|\s*([\d.]+)\s*\|/.exec(line);
    if (match) guards.push({ benchmark: match[1], field: match[2], better: match[3] as Guard['better'], recorded: Number(match[4]) });
  }
  return guards;
}

/** A field of a benchmark's result by dotted path: `steward.readyMs`. */
export function valueAt(result: Record<string, unknown>, field: string): number {
  const value = field.split('.').reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], result);
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`the result has no number at ${field}: ${JSON.stringify(result)}`);
  return value;
}

/** Whether `measured` is within the tolerance of `recorded`, in the direction that is better. */
export function withinTolerance(guard: Guard, measured: number): boolean {
  return guard.better === 'higher' ? measured >= guard.recorded / tolerance : measured <= guard.recorded * tolerance;
}

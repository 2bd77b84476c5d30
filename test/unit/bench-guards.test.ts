// `npm run bench:check` compares ratios with the figures recorded in docs/benchmarks.md: the table
// must be there, name benchmarks that exist, and fail a ratio more than 1.5× worse either way.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { guardsOf, valueAt, withinTolerance } from '../../bench/guards';
import { benchmarks } from '../../bench/list';
import { root } from '../support/processes';

const recorded = guardsOf(fs.readFileSync(path.join(root, 'docs/benchmarks.md'), 'utf8'));

describe('guarded benchmark ratios', () => {
  it('docs/benchmarks.md records the ingest, backlog, startup and health ratios, each of a benchmark that exists', () => {
    expect(new Set(recorded.map((guard) => guard.benchmark))).toEqual(new Set(['trigger-ingest', 'trigger-ingest-backlog', 'startup', 'health-under-output', 'automations-list']));
    for (const guard of recorded) {
      expect(benchmarks[guard.benchmark], guard.benchmark).toBeTypeOf('function');
      expect(guard.recorded).toBeGreaterThan(0);
    }
  });

  it('fails a ratio more than 1.5× worse than recorded, in the direction that is better', () => {
    const higher = { benchmark: 'b', field: 'ratio', better: 'higher' as const, recorded: 1.2 };
    expect(withinTolerance(higher, 0.81)).toBe(true);
    expect(withinTolerance(higher, 0.79)).toBe(false);
    expect(withinTolerance(higher, 5)).toBe(true);
    const lower = { benchmark: 'b', field: 'ratio', better: 'lower' as const, recorded: 2 };
    expect(withinTolerance(lower, 2.99)).toBe(true);
    expect(withinTolerance(lower, 3.01)).toBe(false);
  });

  it('reads a field by its dotted path and refuses a result without it', () => {
    expect(valueAt({ steward: { readyMs: 210 } }, 'steward.readyMs')).toBe(210);
    expect(() => valueAt({ steward: {} }, 'steward.readyMs')).toThrow(/no number at steward.readyMs/);
  });
});

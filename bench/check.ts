// `npm run bench:check`: the guarded benchmarks, run briefly, each beside its own baseline in the
// same run, and compared with the ratios recorded in docs/benchmarks.md (see guards.ts).
import fs from 'node:fs';
import path from 'node:path';
import { guardsOf, tolerance, valueAt, withinTolerance } from './guards';

const root = path.resolve(import.meta.dirname, '..');

const attempts = 2;
// Brief runs: enough to compare with the baseline beside them, not to publish.
const brief: Record<string, string> = { BENCH_SECONDS: '3', BENCH_STARTUP_RUNS: '3', BENCH_SHORT: '1' };

async function main(): Promise<void> {
  Object.assign(process.env, { ...brief, ...process.env });
  // After the environment is set: the benchmarks read their lengths when loaded.
  const { benchmarks } = await import('./list');
  const guards = guardsOf(fs.readFileSync(path.join(root, 'docs/benchmarks.md'), 'utf8'));
  if (guards.length === 0) throw new Error('docs/benchmarks.md has no "## Guarded ratios" table');
  let failed = 0;
  for (const name of [...new Set(guards.map((guard) => guard.benchmark))]) {
    const run = benchmarks[name];
    if (!run) throw new Error(`docs/benchmarks.md guards ${name}, which bench/list.ts does not have`);
    const own = guards.filter((each) => each.benchmark === name);
    // A brief run on a shared machine can be unlucky once; a regression is worse every time. So a
    // benchmark that fails is run once more, and only a second failure counts.
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const result = await run();
      const outcomes = own.map((guard) => ({ guard, measured: valueAt(result, guard.field) })).map((each) => ({ ...each, ok: withinTolerance(each.guard, each.measured) }));
      const last = attempt === attempts || outcomes.every((each) => each.ok);
      for (const { guard, measured, ok } of outcomes) {
        const bound = guard.better === 'higher' ? `at least ${(guard.recorded / tolerance).toFixed(3)}` : `at most ${(guard.recorded * tolerance).toFixed(3)}`;
        const verdict = ok ? 'ok  ' : last ? 'FAIL' : 'again';
        process.stdout.write(`${verdict} ${name} ${guard.field} = ${measured} (recorded ${guard.recorded}, ${guard.better} is better; ${bound})\n`);
        if (!ok && last) failed++;
      }
      if (last) break;
    }
  }
  if (failed > 0) {
    process.stdout.write(`${failed} ratio${failed === 1 ? '' : 's'} more than ${tolerance}× worse than recorded in docs/benchmarks.md\n`);
    process.exit(1);
  }
}

await main();

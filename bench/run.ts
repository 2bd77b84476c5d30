// `npm run bench [name]`: every benchmark (or one), one JSON object per line on stdout.
import { benchmarks } from './list';

const only = process.argv[2];
if (only && !benchmarks[only]) throw new Error(`No benchmark ${only}; there are: ${Object.keys(benchmarks).join(', ')}`);
for (const [name, run] of Object.entries(benchmarks)) {
  if (only && only !== name) continue;
  process.stdout.write(`${JSON.stringify(await run())}\n`);
}

// `npm run bench`: every benchmark, one JSON object per line on stdout.
import { activityBench } from './activity';
import { automationsListBench } from './automations-list';
import { dispatchBench } from './dispatch';
import { eventStreamBackpressureBench } from './event-stream-backpressure';
import { mcpBench } from './mcp';
import { remotesFeedBench } from './remotes-feed';
import { sandboxBench } from './sandbox';
import { schedulerBench, schedulerFiresBench } from './scheduler';
import { startupBench } from './startup';
import { triggerIngest } from './trigger-ingest';

const benchmarks: Record<string, () => Promise<Record<string, unknown>>> = {
  'trigger-ingest': triggerIngest,
  scheduler: () => schedulerBench(),
  'scheduler-fires': schedulerFiresBench,
  dispatch: dispatchBench,
  activity: activityBench,
  startup: startupBench,
  mcp: mcpBench,
  sandbox: sandboxBench,
  'event-stream-backpressure': eventStreamBackpressureBench,
  'remotes-feed': remotesFeedBench,
  'automations-list': automationsListBench,
};

const only = process.argv[2];
for (const [name, run] of Object.entries(benchmarks)) {
  if (only && only !== name) continue;
  process.stdout.write(`${JSON.stringify(await run())}\n`);
}

// Every benchmark by name, for `npm run bench` (run.ts) and `npm run bench:check` (check.ts).
import { activityBench } from './activity';
import { automationsListBench } from './automations-list';
import { dispatchBench } from './dispatch';
import { eventStreamBackpressureBench } from './event-stream-backpressure';
import { healthUnderOutputBench } from './health-under-output';
import { imapAccountsBench } from './imap-accounts';
import { mcpBench } from './mcp';
import { remotesFeedBench } from './remotes-feed';
import { sandboxBench } from './sandbox';
import { schedulerBench, schedulerFiresBench } from './scheduler';
import { startupBench } from './startup';
import { triggerIngest, triggerIngestBacklog } from './trigger-ingest';
import { watchFoldersBench } from './watch-folders';

export const benchmarks: Record<string, () => Promise<Record<string, unknown>>> = {
  'trigger-ingest': triggerIngest,
  'trigger-ingest-backlog': triggerIngestBacklog,
  scheduler: () => schedulerBench(),
  'scheduler-fires': schedulerFiresBench,
  dispatch: dispatchBench,
  activity: activityBench,
  'automations-list': automationsListBench,
  startup: startupBench,
  mcp: mcpBench,
  sandbox: sandboxBench,
  'event-stream-backpressure': eventStreamBackpressureBench,
  'health-under-output': healthUnderOutputBench,
  'remotes-feed': remotesFeedBench,
  'imap-accounts': imapAccountsBench,
  'watch-folders': watchFoldersBench,
};

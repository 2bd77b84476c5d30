// Waiting for runs to finish, through the API as a client would.
import type { Run } from '../../src/shared/contract';
import type { TestCore } from './core';
import { waitFor } from './wait';

export async function settled(t: TestCore, runId: string, timeoutMs = 15_000): Promise<Run> {
  const runOf = async () => ((await t.api('GET', `/api/runs/${runId}`)).body as { run: Run }).run;
  return waitFor(runOf, { what: `run ${runId} to end`, timeoutMs, until: (run) => !['queued', 'running'].includes(run.status) });
}

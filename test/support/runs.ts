// Waiting for runs to finish, through the API as a client would.
import type { Run } from '../../src/shared/contract';
import type { TestCore } from './core';

export async function settled(t: TestCore, runId: string, timeoutMs = 15_000): Promise<Run> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { run } = (await t.api('GET', `/api/runs/${runId}`)).body as { run: Run };
    if (!['queued', 'running'].includes(run.status)) return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} still ${run.status}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

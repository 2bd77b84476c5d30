// Steward stopping releases what its runs hold before it says it has stopped: a sandboxed run's
// processes and its cgroup are gone once close() returns, as are those of a run still opening its
// sandbox when the stop came. The run stays "running" in SQLite and the next start finds it
// interrupted.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { sandboxSupport } from '../../src/main/core/sandbox/host-support';
import type { Run } from '../../src/shared/contract';
import { startTestCore } from '../support/core';
import { processesOfRun } from '../support/processes';
import { lacks } from '../support/requirements';
import { waitFor } from '../support/wait';

const skip = lacks('sandbox');

async function cgroupsOf(runId: string): Promise<string[]> {
  const support = await sandboxSupport();
  if (!support.ok || !support.limits) return [];
  const dirs = support.limits.kind === 'cgroup1' ? [support.limits.memoryDir, support.limits.pidsDir] : support.limits.kind === 'cgroup2' ? [support.limits.runsDir] : [];
  return dirs.flatMap((dir) => fs.readdirSync(dir).filter((name) => name.startsWith(runId)).map((name) => path.join(dir, name)));
}

const sleeper = { provider: 'command', preset: 'custom', command: '/bin/sh', args: ['-c', 'sleep 300'] };

describe.skipIf(skip)('a sandboxed run', () => {
  it('holds nothing once it is seen ended: its processes and cgroup are gone before its end is written', async () => {
    const t = await startTestCore({ clock: systemClock });
    try {
      const instance = (await t.api('POST', '/api/instances', { name: 'brief', agent: { provider: 'command', preset: 'custom', command: '/bin/sh', args: ['-c', 'echo done'] } })).body.instance;
      await t.core.services.instances.idle();
      for (let round = 0; round < 5; round++) {
        const { run } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'go' })).body as { run: Run };
        await waitFor(async () => (await t.api('GET', `/api/runs/${run.id}`)).body.run.status === 'succeeded', { what: `run ${run.id} to succeed`, intervalMs: 5 });
        expect(await cgroupsOf(run.id)).toEqual([]);
        expect(processesOfRun(run.id)).toEqual([]);
      }
    } finally {
      await t.close();
    }
  });
});

describe.skipIf(skip)('stopping Steward', () => {
  for (const when of ['while its agent runs', 'while its sandbox opens'] as const) {
    it(`releases a sandboxed run's processes and cgroup before close() returns, ${when}`, async () => {
      const t = await startTestCore({ clock: systemClock });
      const instance = (await t.api('POST', '/api/instances', { name: 'walled', agent: sleeper })).body.instance;
      await t.core.services.instances.idle();
      expect(instance.sandbox.mode).not.toBe('off');
      const { run } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'sleep' })).body as { run: Run };
      await waitFor(async () => (when === 'while its sandbox opens' ? (await t.api('GET', `/api/runs/${run.id}`)).body.run.status === 'running' : processesOfRun(run.id).length > 0), { what: `run ${run.id} to start`, intervalMs: 10 });
      await t.core.close();
      expect(processesOfRun(run.id)).toEqual([]);
      expect(await cgroupsOf(run.id)).toEqual([]);
      const again = await startTestCore({ clock: systemClock, dataDir: t.dataDir });
      try {
        expect((await again.api('GET', `/api/runs/${run.id}`)).body.run.status).toBe('interrupted');
      } finally {
        await again.close();
      }
    });
  }
});

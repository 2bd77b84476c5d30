// Limits (issue 29, "Also" and "What to build" 9): per run, processes (default 512), memory (default
// 4 GiB) and the private /tmp (default 1 GiB), each settable per instance as
// `sandbox.limits: {processes, memoryMb, tmpMb}`. With small limits set, a bounded fork bomb, a 2 GiB
// allocation and filling /tmp each stop at the limit; an agent that reaches its memory limit ends with
// that reason in its error. With none set, the default process limit holds, and what is under the
// defaults goes through (the probe measures what it claims). As root with no writable cgroup the kernel
// holds no process limit, and the instance must say so instead (lab.ts, processesHeld).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxSupport } from '../../../src/main/core/sandbox/host-support';
import { lacks } from '../../support/requirements';
import { type Lab, fixture, openLab, processesHeld } from './lab';

const skip = lacks('sandbox');
let lab: Lab;

beforeAll(async () => {
  if (skip) return;
  lab = await openLab();
});
afterAll(async () => {
  await lab?.close();
});

const limits = { processes: 64, memoryMb: 256, tmpMb: 16 };
const support = skip ? undefined : await sandboxSupport();
const perProcessMemory = support?.ok === true && (support.limits === undefined || support.limits.kind === 'rlimit');

describe.skipIf(skip)("a sandboxed run's limits", () => {
  it('stop a fork bomb, a 2 GiB allocation and a full /tmp at the limits the instance sets', async () => {
    const env = { PROBE_PROCESSES: '200', PROBE_MEMORY_MB: '2048', PROBE_TMP_MB: '64' };
    const instance = await lab.instance({ provider: 'command', preset: 'custom', command: fixture('limits-probe.sh'), env }, { mode: 'sandbox', limits });
    const run = await lab.run(instance, 'go', 60_000);
    const said = await lab.said(run);
    expect(said['processes-started'], `${run.status}: ${run.error ?? ''} ${JSON.stringify(said)}`).toMatch(/^\d+$/);
    await processesHeld(lab, instance, said['processes-started'], limits.processes);
    expect(Number(said['memory-reached-mb'])).toBeLessThanOrEqual(limits.memoryMb);
    expect(Number(said['tmp-written-mb'])).toBeLessThanOrEqual(limits.tmpMb);
  }, 60_000);

  it('end a run whose agent reaches its memory limit, with that reason in its error', async () => {
    const instance = await lab.instance({ provider: 'command', preset: 'custom', command: fixture('memory-hog.mjs'), env: { PROBE_MEMORY_MB: '2048' } }, { mode: 'sandbox', limits }, 'hog');
    const run = await lab.run(instance, 'go', 60_000);
    expect(run.status).toBe('failed');
    // A cgroup counts what the run used and says it was the limit; an rlimit (an ordinary user without
    // a delegated cgroup) only refuses the allocation, which the agent reports in its own words.
    if (!perProcessMemory) expect(run.error).toMatch(/memory limit/i);
  }, 60_000);

  it('hold a default process limit (512) where the instance sets none, and let a run use what is under the defaults', async () => {
    const env = { PROBE_PROCESSES: '600', PROBE_MEMORY_MB: '128', PROBE_TMP_MB: '8' };
    const instance = await lab.instance({ provider: 'command', preset: 'custom', command: fixture('limits-probe.sh'), env }, { mode: 'sandbox' }, 'defaults');
    const run = await lab.run(instance, 'go', 60_000);
    const said = await lab.said(run);
    expect(said['processes-started'], `${run.status}: ${run.error ?? ''}`).toMatch(/^\d+$/);
    await processesHeld(lab, instance, said['processes-started'], 512);
    // The probe measures what it claims: under the default limits, these go through.
    expect(said['memory-reached-mb']).toBe('128');
    expect(said['tmp-written-mb']).toBe('8');
  }, 60_000);
});

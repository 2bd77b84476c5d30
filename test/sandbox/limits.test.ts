// A sandboxed run's limits, tried by agents that go past them: one forks until it cannot, one
// allocates far more memory than it may, one fills its /tmp and /dev/shm. Each is held where the
// machine holds it (a cgroup, else rlimits; the tmpfs's size always), and where the kernel says
// which limit stopped the run, the run's error says so. An instance with larger limits runs the
// same agents to the end: the limits, not the agents, are what stops them.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { type SandboxSupport, sandboxSupport } from '../../src/main/core/sandbox/host-support';
import type { Run } from '../../src/shared/contract';
import { type TestCore, startTestCore } from '../support/core';
import { lacks } from '../support/requirements';
import { settled } from '../support/runs';

const skip = lacks('sandbox');

let t: TestCore;
let support: Extract<SandboxSupport, { ok: true }>;

beforeAll(async () => {
  if (skip) return;
  t = await startTestCore({ clock: systemClock });
  const found = await sandboxSupport();
  if (!found.ok) throw new Error(found.reason);
  support = found;
});

afterAll(async () => {
  await t?.close();
});

/** Forks children that wait, until a fork fails or 400 run; prints how many ran, then exits 1 if a fork failed. */
const forker = `
my @children; my $failed;
for (1 .. 400) { my $pid = fork(); if (!defined $pid) { $failed = 1; last } if ($pid == 0) { sleep 60; exit 0 } push @children, $pid }
print "children: ", scalar(@children), "\\n";
kill 'KILL', @children; waitpid($_, 0) for @children;
exit($failed ? 1 : 0);`;

/** Allocates 512 MiB, 16 MiB at a time, touching each. */
const allocator = `
my @kept; for (1 .. 32) { push @kept, "x" x (16 << 20) }
print "allocated: ", 16 * scalar(@kept), " MiB\\n";`;

/** Writes 64 MiB to /tmp and to /dev/shm and says how much of each landed; exits 1 if a write fell short. */
const filler = `
my $short;
for my $file ('/tmp/big', '/dev/shm/big') {
  open(my $out, '>', $file) or die "$file: $!";
  my $written = 0; my $block = "x" x (1 << 20);
  for (1 .. 64) { my $n = syswrite($out, $block); if (!defined $n || $n < length $block) { $written += $n // 0; $short = 1; last } $written += $n }
  close $out;
  print "$file: ", int($written / (1 << 20)), "\\n";
}
exit($short ? 1 : 0);`;

async function runPerl(script: string, limits: object): Promise<{ run: Run; said: Record<string, string> }> {
  const created = await t.api('POST', '/api/instances', { name: 'limited', agent: { provider: 'command', preset: 'custom', command: 'perl', args: ['-e', script] }, sandbox: { mode: 'sandbox', limits } });
  expect(created.status, created.text).toBe(201);
  const { run } = (await t.api('POST', '/api/runs', { instanceId: created.body.instance.id, prompt: 'go' })).body as { run: Run };
  const finished = await settled(t, run.id, 60_000);
  const messages = (await t.api('GET', `/api/threads/${run.threadId}`)).body.thread.messages as { role: string; content: string }[];
  return { run: finished, said: Object.fromEntries(messages.filter((message) => message.role === 'assistant').map((message) => message.content.split(': '))) };
}

describe.skipIf(skip)('a sandboxed run\'s limits', () => {
  it('are set per instance, with defaults, and imageTag says how they are held', async () => {
    const created = await t.api('POST', '/api/instances', { name: 'defaults', agent: { provider: 'command', preset: 'custom', command: 'cat' } });
    expect(created.body.instance.sandbox.limits).toBeUndefined();
    await t.core.services.instances.idle();
    const probed = (await t.api('GET', `/api/instances/${created.body.instance.id}`)).body.instance;
    expect(probed.imageTag).toMatch(/ · sandbox \(bubblewrap [\d.]+, limits by (cgroup v2|cgroup v1|rlimit)/);
    const set = await t.api('PATCH', `/api/instances/${created.body.instance.id}`, { sandbox: { mode: 'sandbox', limits: { processes: 100 } } });
    expect(set.body.instance.sandbox.limits).toEqual({ processes: 100, memoryMb: 4096, tmpMb: 1024 });
    const refused = await t.api('PATCH', `/api/instances/${created.body.instance.id}`, { sandbox: { mode: 'sandbox', limits: { processes: 4 } } });
    expect(refused.status).toBe(400);
  });

  it('stop a run that forks past its process limit', async () => {
    if (support.limits?.kind === 'rlimit' && !support.limits.processes) return; // root without a cgroup: the kernel would not enforce it
    const { run, said } = await runPerl(forker, { processes: 64 });
    expect(Number(said.children)).toBeGreaterThan(10);
    expect(Number(said.children)).toBeLessThan(64);
    expect(run.status).toBe('failed');
    if (support.limits?.kind !== 'rlimit') expect(run.error).toBe("The run reached its process limit, 64: raise the instance's sandbox limits (processes) if it needs more.");
    const roomy = await runPerl(forker, { processes: 1000 });
    expect(roomy.said.children).toBe('400');
    expect(roomy.run.status).toBe('succeeded');
  });

  it('stop a run that allocates past its memory limit', async () => {
    const { run, said } = await runPerl(allocator, { memoryMb: 128 });
    expect(said.allocated).toBeUndefined();
    expect(run.status).toBe('failed');
    if (support.limits?.kind !== 'rlimit') expect(run.error).toBe("The run reached its memory limit, 128 MiB: raise the instance's sandbox limits (memoryMb) if it needs more.");
    const roomy = await runPerl(allocator, { memoryMb: 2048 });
    expect(roomy.said.allocated).toBe('512 MiB');
    expect(roomy.run.status).toBe('succeeded');
  });

  it('keep a run\'s /tmp and /dev/shm within their size, and say so when it fills them', async () => {
    const { run, said } = await runPerl(filler, { tmpMb: 16 });
    expect(said).toEqual({ '/tmp/big': expect.any(String), '/dev/shm/big': expect.any(String) });
    expect(Number(said['/tmp/big'])).toBeLessThanOrEqual(16);
    expect(Number(said['/dev/shm/big'])).toBeLessThanOrEqual(16);
    expect(run.status).toBe('failed');
    expect(run.error).toBe("The run reached its /tmp limit, 16 MiB: raise the instance's sandbox limits (tmpMb) if it needs more.");
    const roomy = await runPerl(filler, { tmpMb: 128 });
    expect(roomy.said).toEqual({ '/tmp/big': '64', '/dev/shm/big': '64' });
    expect(roomy.run.status).toBe('succeeded');
  });

  it('leave no cgroup behind', () => {
    if (support.limits?.kind === 'cgroup1') {
      for (const dir of [support.limits.memoryDir, support.limits.pidsDir]) expect(fs.readdirSync(dir).filter((name) => name.startsWith('run_') && fs.statSync(path.join(dir, name)).isDirectory())).toEqual([]);
    }
    if (support.limits?.kind === 'cgroup2') expect(fs.readdirSync(support.limits.runsDir).filter((name) => name.startsWith('run_'))).toEqual([]);
  });
});

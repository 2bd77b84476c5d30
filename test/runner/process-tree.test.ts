// The whole process tree of an agent, with real processes: a CLI that starts a command in a
// session of its own (as Gemini CLI's node-pty and OpenCode do), both ignoring SIGTERM, leaves
// nothing behind after a cancel, a timeout or its own exit; and the snapshot behind it finds
// descendants outside the CLI's process group, also once their parent is gone.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descendantsOf, listProcesses, parsePs, processTree } from '../../src/main/core/agents/process-tree';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { type TestCore, startTestCore } from '../support/core';
import { settled } from '../support/runs';
import { waitFor } from '../support/wait';

const escapingCli = path.resolve(import.meta.dirname, '../fixtures/agents/escaping-cli.sh');
const markers: string[] = [];
const children: ChildProcess[] = [];

/** A number no other process has on its command line: the escaped command runs `sleep <marker>`. */
function marker(): string {
  const value = `300.${process.pid}${String(markers.length).padStart(2, '0')}`;
  markers.push(value);
  return value;
}

const pidsOf = (mark: string): number[] => {
  try {
    return execFileSync('pgrep', ['-f', `^sleep ${mark}$`], { encoding: 'utf8' }).trim().split('\n').map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
};

const escapedPid = (mark: string) => waitFor(() => pidsOf(mark)[0], { what: `sleep ${mark} to start`, timeoutMs: 5_000 });

const sessionOf = (pid: number) => {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]);
};

afterAll(() => {
  // Whatever a failed case left behind.
  for (const child of children) child.kill('SIGKILL');
  for (const mark of markers) spawn('pkill', ['-KILL', '-f', `sleep ${mark}`]);
});

describe.runIf(process.platform === 'linux')('the process tree snapshot', () => {
  it('finds a grandchild that started a session of its own', async () => {
    const mark = marker();
    const root = spawn('sh', ['-c', `setsid sleep ${mark} & wait`], { stdio: 'ignore', detached: true });
    children.push(root);
    const grandchild = await escapedPid(mark);
    expect(sessionOf(grandchild)).not.toBe(sessionOf(root.pid!));

    const table = await listProcesses();
    const found = descendantsOf(table, [table.get(root.pid!)!]).map((entry) => entry.pid);
    expect(found).toContain(grandchild);
    expect(found).not.toContain(process.pid);

    await processTree(root).end(1_000);
    expect(pidsOf(mark)).toEqual([]);
  });

  it('ends a remembered grandchild after its parent died, and one found only by its marker', async () => {
    // Seen while its parent lived, then orphaned: only the memory of it links it to the tree.
    const seen = marker();
    const first = spawn('sh', ['-c', `setsid sh -c 'trap "" TERM; exec sleep ${seen}' & sleep 0.3`], { stdio: 'ignore', detached: true });
    children.push(first);
    const firstTree = processTree(first);
    await escapedPid(seen);
    await firstTree.observe();
    await new Promise((resolve) => first.once('exit', resolve));
    await firstTree.end(300);
    expect(pidsOf(seen)).toEqual([]);

    // Orphaned before anyone looked: found by the marker in its environment.
    const unseen = marker();
    const second = spawn('sh', ['-c', `setsid sh -c 'trap "" TERM; exec sleep ${unseen}' &`], { stdio: 'ignore', detached: true, env: { ...process.env, TREE_TEST: unseen } });
    children.push(second);
    const secondTree = processTree(second, `TREE_TEST=${unseen}`);
    await new Promise((resolve) => second.once('exit', resolve));
    await escapedPid(unseen);
    await processTree(second).end(0); // without the marker: no link left to it
    expect(pidsOf(unseen)).toHaveLength(1);
    await secondTree.end(300);
    expect(pidsOf(unseen)).toEqual([]);
  });
});

describe('ps output (macOS and other Unixes)', () => {
  it('is read into pids, parents, groups and start times, zombies left out', () => {
    const table = parsePs(['    1     0     1 Ss   Mon Jan  6 09:00:01 2025', '  812     1   812 S    Tue Jan  7 10:11:12 2025', '  813   812   812 Z    Tue Jan  7 10:11:13 2025', ''].join('\n'));
    expect([...table.values()]).toEqual([
      { pid: 1, ppid: 0, pgid: 1, start: 'Mon Jan  6 09:00:01 2025' },
      { pid: 812, ppid: 1, pgid: 812, start: 'Tue Jan  7 10:11:12 2025' },
    ]);
  });
});

describe.runIf(process.platform === 'linux')('a CLI whose command escaped into a session of its own', () => {
  let t: TestCore;
  beforeAll(async () => {
    fs.chmodSync(escapingCli, 0o755);
    t = await startTestCore({ clock: systemClock });
  });
  afterAll(() => t?.close());

  async function startRun(mark: string, mode: 'wait' | 'exit', timeoutSeconds?: number) {
    const agent = { provider: 'command', preset: 'custom', command: escapingCli, args: [mark, mode], ...(timeoutSeconds ? { timeoutSeconds } : {}) };
    // On the host: in a sandbox the escapees end with the CLI, before they could be seen (test/sandbox).
    const { instance } = (await t.api('POST', '/api/instances', { name: `escaping ${mark}`, agent, sandbox: { mode: 'off' } })).body;
    const response = await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'start something' });
    expect(response.status).toBe(202);
    return response.body.run.id as string;
  }

  it('cancel leaves nothing behind', async () => {
    const mark = marker();
    const runId = await startRun(mark, 'wait');
    await escapedPid(mark);
    const cancelledAt = Date.now();
    expect((await t.api('POST', `/api/runs/${runId}/cancel`)).status).toBe(202);
    expect(await settled(t, runId)).toMatchObject({ status: 'cancelled' });
    // The CLI and its command ignore SIGTERM: SIGKILL ends them after the 5 s grace.
    expect(Date.now() - cancelledAt).toBeLessThan(8_000);
    expect(pidsOf(mark)).toEqual([]);
  });

  it('a timeout leaves nothing behind', async () => {
    const mark = marker();
    const runId = await startRun(mark, 'wait', 1);
    await escapedPid(mark);
    expect(await settled(t, runId)).toMatchObject({ status: 'timed_out' });
    expect(pidsOf(mark)).toEqual([]);
  });

  it('the end of a run ends what the CLI left running', async () => {
    const mark = marker();
    const runId = await startRun(mark, 'exit');
    await escapedPid(mark);
    const run = await settled(t, runId);
    expect(run).toMatchObject({ status: 'succeeded' });
    expect(pidsOf(mark)).toEqual([]);
  });
});

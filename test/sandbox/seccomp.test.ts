// The seccomp filter in the kernel: a probe makes each call by the numbers of this machine's own
// kernel headers (perl's syscall.ph), inside a sandbox opened as a run's is, and outside it, where
// the same calls must be able to succeed for the answer inside to mean anything. Node's threads and
// child processes, which glibc starts with clone3 and then clone, still work inside.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxSupport } from '../../src/main/core/sandbox/host-support';
import { sandboxPolicy } from '../../src/main/core/sandbox/policy';
import { type SandboxRun, openSandbox } from '../../src/main/core/sandbox/sandbox-run';
import { tempDir } from '../support/core';
import { lacks } from '../support/requirements';

const probe = path.resolve(import.meta.dirname, '../fixtures/sandbox/syscall-probe.pl');
const skip = lacks('sandbox');

let root: string;
let workspaceDir: string;
let box: SandboxRun;

beforeAll(async () => {
  if (skip) return;
  const support = await sandboxSupport();
  if (!support.ok) throw new Error(support.reason);
  root = tempDir('steward-seccomp-');
  workspaceDir = path.join(root, 'workspace');
  fs.mkdirSync(workspaceDir);
  const policy = sandboxPolicy({
    sandbox: { mode: 'sandbox', network: [], readAllow: [path.dirname(probe)], readDeny: [], writeAllow: [], envAllow: [] },
    agent: { provider: 'command', preset: 'custom', command: 'perl' },
    env: process.env,
    home: os.homedir(),
    workspaceDir,
    dataDir: path.join(root, 'data'),
    agentHome: path.join(root, 'data/agent-homes/ins_test'),
    otherWorkspaces: [],
    commands: [{ command: 'perl', wholeFolder: false }],
  });
  box = await openSandbox(policy, support, { runId: 'run_seccomp', runsDir: path.join(root, 'runs'), onDenied: () => undefined });
});

afterAll(async () => {
  await box?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

function run(command: string, args: string[], sandboxed: boolean): Promise<{ code: number | null; output: string }> {
  const started = sandboxed ? box.wrap(command, args, process.env) : { command, args, env: process.env };
  const child = spawn(started.command, started.args, { cwd: workspaceDir, env: started.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

async function answers(sandboxed: boolean): Promise<Record<string, string>> {
  const { code, output } = await run('perl', [probe], sandboxed);
  expect(code, output).toBe(0);
  return Object.fromEntries(output.trim().split('\n').map((line) => line.split(': ')));
}

const EPERM = '1';
const ENOSYS = '38';
const EAFNOSUPPORT = '97';

describe.skipIf(skip)('the seccomp filter, in the kernel', () => {
  it('refuses what it names inside, and lets the rest through', async () => {
    expect(await answers(true)).toEqual({
      keyctl: EPERM,
      add_key: EPERM,
      name_to_handle_at: EPERM,
      'unshare-user': EPERM,
      'unshare-fs': 'ok',
      clone3: ENOSYS,
      io_uring_setup: ENOSYS,
      mount: EPERM,
      perf_event_open: EPERM,
      bpf: EPERM,
      fork: 'ok',
      'ptrace-attach': EPERM,
      'socket-unix': 'ok',
      'socket-inet': 'ok',
      'socket-inet6': 'ok',
      'socket-netlink': 'ok',
      'socket-packet': EAFNOSUPPORT,
      'socket-alg': EAFNOSUPPORT,
      'socket-vsock': EAFNOSUPPORT,
    });
  });

  it('outside, the same calls can succeed: the probe can tell', async () => {
    const outside = await answers(false);
    expect(outside).toMatchObject({ keyctl: 'ok', add_key: 'ok', 'ptrace-attach': 'ok', fork: 'ok', 'socket-unix': 'ok' });
    expect(outside.clone3).not.toBe(ENOSYS);
    expect(outside.io_uring_setup).not.toBe(ENOSYS);
  });

  it("keeps Node's threads and child processes working", async () => {
    const script = "const { Worker } = require('node:worker_threads'); new Worker('require(\"node:worker_threads\").parentPort.postMessage(6 * 7)', { eval: true }).on('message', (n) => { console.log(`worker ${n}`); console.log(require('node:child_process').execFileSync('/bin/sh', ['-c', 'echo child $((6 * 7))']).toString().trim()); });";
    const { code, output } = await run(process.execPath, ['-e', script], true);
    expect({ code, output: output.trim() }).toEqual({ code: 0, output: 'worker 42\nchild 42' });
  });
});

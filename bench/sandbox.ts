// Sandbox: what a sandbox adds to a run, as the runner starts it. One `true` launched the way the
// command agent launches (spawn in a new session, wait for exit), alternating sandboxed and on the
// host in the same run; each sandboxed launch makes the instance's CLI state ready and its policy (a
// Claude Code instance: the system's folders, /etc's secrets hidden, the CLI's files, its workspace's
// startup files protected), opens its run's sandbox (egress proxy, the loopback bridge of a model
// server, the seccomp filter, the run's limits: its cgroup made and removed where the machine has one
// for Steward, else rlimits) and closes it after. Target: median under 50 ms added, never over 100 ms.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { carriedFiles } from '../src/main/core/sandbox/agent-footprint';
import { prepareAgentHome } from '../src/main/core/sandbox/agent-state';
import { sandboxSupport, sandboxWords } from '../src/main/core/sandbox/host-support';
import { sandboxPolicy } from '../src/main/core/sandbox/policy';
import { openSandbox } from '../src/main/core/sandbox/sandbox-run';
import { etcSecrets } from '../src/main/core/sandbox/system-folders';
import { defaultLimits } from '../src/shared/contract';
import { median } from './measure';

const runs = Number(process.env.BENCH_SANDBOX_RUNS ?? 40);

function exitOf(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, cwd, stdio: 'ignore', detached: true });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code));
  });
}

const round = (value: number) => Math.round(value * 10) / 10;

export async function sandboxBench(): Promise<Record<string, unknown>> {
  const support = await sandboxSupport();
  if (!support.ok) return { name: 'sandbox', skipped: support.reason };
  const root = fs.mkdtempSync(path.join(fs.existsSync('/var/tmp') ? '/var/tmp' : os.tmpdir(), 'steward-bench-sandbox-'));
  const workspaceDir = path.join(root, 'workspace');
  fs.mkdirSync(workspaceDir);
  const env = { ...process.env, ANTHROPIC_BASE_URL: 'http://127.0.0.1:4000' };
  // The first scan of /etc runs at Steward's start; a run uses its result.
  await etcSecrets();
  const host: number[] = [];
  const sandboxed: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      let started = performance.now();
      await exitOf('true', [], env, workspaceDir);
      host.push(performance.now() - started);

      started = performance.now();
      const agent = { provider: 'command', preset: 'claude-code' } as const;
      const agentHome = path.join(root, 'data/agent-homes/ins_bench');
      prepareAgentHome(agentHome, carriedFiles(agent, env, os.homedir()));
      const policy = sandboxPolicy({
        sandbox: { mode: 'sandbox', network: ['api.example.com'], readAllow: [], readDeny: [], writeAllow: [], envAllow: [] },
        agent,
        env,
        home: os.homedir(),
        workspaceDir,
        dataDir: path.join(root, 'data'),
        agentHome,
        otherWorkspaces: [],
        commands: [{ command: 'claude', wholeFolder: false }],
        systemSecrets: await etcSecrets(),
      });
      const box = await openSandbox(policy, support, { runId: `run_bench${i}`, runsDir: path.join(root, 'runs'), onDenied: () => undefined, limits: defaultLimits });
      const wrapped = box.wrap('true', [], env);
      const code = await exitOf(wrapped.command, wrapped.args, wrapped.env, workspaceDir);
      await box.close();
      sandboxed.push(performance.now() - started);
      if (code !== 0) throw new Error(`the sandboxed true exited ${code}`);
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
  const added = sandboxed.map((each, index) => each - host[index]);
  return {
    name: 'sandbox',
    tool: sandboxWords(support),
    runs,
    hostMedianMs: round(median(host)),
    sandboxedMedianMs: round(median(sandboxed)),
    addedMedianMs: round(median(added)),
    addedMaxMs: round(Math.max(...added)),
    targetAddedMedianMs: 50,
    targetAddedMaxMs: 100,
  };
}

// An agent's process as every kind of agent starts it: in the run's sandbox (or, outside one, bound
// to Steward's life by the parent-death signal), in a session of its own without a terminal, its
// whole process tree watched so that a cancel, a timeout or the run's end can end all of it.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { AgentLaunch } from './events';
import { findExecutable } from './find-executable';
import { type ProcessTree, processTree } from './process-tree';

const maxStderrBytes = 64 * 1024;
/** How often the tree is looked at while the CLI runs, to remember descendants before their parents die. */
const observeEveryMs = 1_000;
/** Set in the CLI's environment, unique per run: on Linux, descendants that lost every parent link are found by it. */
const treeMarker = 'STEWARD_PROCESS_TREE';

/** setpriv (util-linux), where there is one: Linux's parent-death signal for an agent run outside a sandbox. */
const setpriv = process.platform === 'linux' ? findExecutable('setpriv', '/usr/bin:/bin') : undefined;

/**
 * On Linux an agent outside a sandbox is killed when Steward dies (kill -9 included) by the
 * parent-death signal; what it started in sessions of its own is swept at the next start
 * (process-tree.ts `sweepMarked`). A sandbox ends with Steward by itself (--die-with-parent).
 */
function diesWithSteward(command: string, args: string[], env: NodeJS.ProcessEnv) {
  return setpriv ? { command: setpriv, args: ['--pdeathsig', 'KILL', command, ...args], env } : { command, args, env };
}

export interface SpawnedAgent {
  child: ChildProcessWithoutNullStreams;
  tree: ProcessTree;
  /** The last of what it wrote to stderr. */
  stderr: () => string;
  /** The CLI exited: its tree needs no more watching. */
  stopWatching: () => void;
}

export function spawnAgent(command: string, args: string[], env: NodeJS.ProcessEnv, launch: Pick<AgentLaunch, 'env' | 'workspaceDir' | 'sandbox'>): SpawnedAgent {
  const treeId = randomUUID();
  // PWD too: CLIs such as OpenCode take their working folder from it, and would otherwise inherit Steward's own.
  const fullEnv: NodeJS.ProcessEnv = { ...env, ...launch.env, PWD: launch.workspaceDir, [treeMarker]: treeId };
  // Behind a launcher a missing command is the launcher's "not found": say it as spawn would.
  const missing = findExecutable(command, fullEnv.PATH) === undefined;
  const started = missing ? { command, args, env: fullEnv } : launch.sandbox ? launch.sandbox.wrap(command, args, fullEnv) : diesWithSteward(command, args, fullEnv);
  // detached: a process group of its own, and a new session without a controlling terminal, so
  // a CLI that opens /dev/tty to ask something gets an error instead of a human.
  const child = spawn(started.command, started.args, { cwd: launch.workspaceDir, env: started.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  const tree = processTree(child, `${treeMarker}=${treeId}`);
  const watch = setInterval(() => void tree.observe(), observeEveryMs).unref();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-maxStderrBytes);
  });
  child.stdin.on('error', () => {}); // an agent that exits without reading its stdin
  return { child, tree, stderr: () => stderr, stopWatching: () => clearInterval(watch) };
}

/** Waits for `promise`, but no longer than `ms`. */
export function within(promise: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]).finally(() => clearTimeout(timer));
}

// The conformance suite's harness: the real `steward serve` daemon on a temp data folder, with the
// pinned agent CLIs (.cache/agent-clis, installed by scripts/install-agent-clis.mjs) on its PATH
// and a HOME of its own, so that nothing a CLI writes lands in the user's home.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Instance, Run } from '../../src/shared/contract';
import { tempDir } from '../support/core';
import { type Server, cliResult, root, startDaemon } from '../support/processes';

export const cliBin = path.join(root, '.cache/agent-clis/node_modules/.bin');

export interface AgentDaemon {
  daemon: Server;
  dataDir: string;
  /** The HOME of the daemon, and of an agent process outside a sandbox (the user's config folders go under it). */
  home: string;
  /** A sandboxed instance's own CLI state: its runs' HOME (agent-state.ts). */
  stateOf(instanceId: string): string;
  key: string;
  api(method: string, route: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** Waits until the run is no longer queued, waiting or running. */
  settled(runId: string, timeoutMs?: number): Promise<Run>;
  /** Waits until `check` holds for the run (polled through the API). */
  waitForRun(runId: string, check: (run: Run) => boolean, timeoutMs?: number): Promise<Run>;
  /** The thread's messages, oldest first. */
  messages(threadId: string): Promise<{ role: string; content: string; runId: string | null }[]>;
  /** The instance's activity lines, oldest first. */
  activity(instanceId: string): Promise<{ kind: string; displayText: string; runId: string | null }[]>;
  /** Waits until the instance's agent has been probed (running or error). */
  ready(instanceId: string): Promise<Instance>;
  /** Sends a prompt (continuing `threadId` when given); the queued run. */
  send(instanceId: string, prompt: string, threadId?: string): Promise<Run>;
  /** The run's own activity lines, oldest first. */
  linesOf(run: Run): Promise<{ kind: string; displayText: string; runId: string | null }[]>;
  close(): Promise<void>;
}

export async function startAgentDaemon(env: NodeJS.ProcessEnv = {}): Promise<AgentDaemon> {
  if (!fs.existsSync(cliBin)) throw new Error('The agent CLIs are not installed: run `npm run test:agents` (it installs them).');
  const dataDir = tempDir('steward-agents-');
  const home = path.join(dataDir, 'home');
  fs.mkdirSync(home, { recursive: true });
  const key = cliResult(['keys', 'create', '--name', 'conformance', '--data-dir', dataDir]).stdout.trim().split('\n').at(-1)!;
  const daemon = await startDaemon(dataDir, ['--port', '0'], {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local/share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_STATE_HOME: path.join(home, '.local/state'),
    PATH: `${cliBin}${path.delimiter}${process.env.PATH ?? ''}`,
    ...env,
  });
  const api = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${daemon.url}${route}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  const waitForRun = async (runId: string, check: (run: Run) => boolean, timeoutMs = 90_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { run } = (await api('GET', `/api/runs/${runId}`)).body as { run: Run };
      if (check(run)) return run;
      if (Date.now() > deadline) throw new Error(`run ${runId} is ${run.status}: ${JSON.stringify(run)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const activity = async (instanceId: string) => (await api('GET', `/api/instances/${instanceId}/activity?limit=1000`)).body.events as { kind: string; displayText: string; runId: string | null }[];
  return {
    daemon,
    dataDir,
    home,
    stateOf: (instanceId) => path.join(dataDir, 'agent-homes', instanceId),
    key,
    api,
    waitForRun,
    settled: (runId, timeoutMs) => waitForRun(runId, (run) => !['queued', 'waiting', 'running'].includes(run.status), timeoutMs),
    async messages(threadId) {
      return (await api('GET', `/api/threads/${threadId}?limit=1000`)).body.thread.messages;
    },
    activity,
    async ready(instanceId) {
      for (const deadline = Date.now() + 30_000; ; ) {
        const { instance } = (await api('GET', `/api/instances/${instanceId}`)).body as { instance: Instance };
        // Every CLI runs as a new instance gets it: sandboxed.
        if (instance.status === 'running' && !instance.imageTag.includes(' · sandbox (')) throw new Error(`instance ${instanceId} is not sandboxed: ${instance.imageTag}`);
        if (instance.status !== 'provisioning') return instance;
        if (Date.now() > deadline) throw new Error(`instance ${instanceId} is still provisioning`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async send(instanceId, prompt, threadId) {
      const response = await api('POST', '/api/runs', { instanceId, prompt, ...(threadId ? { threadId } : {}) });
      if (response.status !== 202) throw new Error(`POST /api/runs answered ${response.status}: ${JSON.stringify(response.body)}`);
      return response.body.run as Run;
    },
    async linesOf(run) {
      return (await activity(run.instanceId)).filter((line) => line.runId === run.id);
    },
    async close() {
      await daemon.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Processes whose command line contains `marker` (a test's unique sleep, say), as `pid command` lines. */
export function processesMatching(marker: string): string[] {
  try {
    return execFileSync('pgrep', ['-af', marker], { encoding: 'utf8' }).split('\n').filter((line) => line.trim() && !line.includes('pgrep'));
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

// The sandbox a run of a sandboxed instance starts in: its policy from the instance, its agent and
// what Steward keeps apart (its data folder, the other instances' workspaces), opened for the run
// and closed when it ends. A machine that cannot sandbox fails the run with the remedy: a sandboxed
// instance never runs open.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Instance, Run } from '../../../shared/contract';
import { AgentUnavailable, agentEnv } from '../agents/command-agent';
import type { StewardServer } from '../agents/steward-server';
import type { Denial } from '../sandbox/egress';
import { sandboxSupport } from '../sandbox/host-support';
import { sandboxPolicy } from '../sandbox/policy';
import { type SandboxRun, openSandbox, sandboxDirPrefix } from '../sandbox/sandbox-run';
import type { Store } from '../store';

/** The folders other runs keep beside this one (their keys, their sockets): in the temporary folder, which is not always /tmp. */
function otherRunFolders(runId: string): string[] {
  try {
    return fs
      .readdirSync(os.tmpdir())
      .filter((name) => name.startsWith('steward-run_') && !name.startsWith(sandboxDirPrefix(runId)))
      .map((name) => path.join(os.tmpdir(), name));
  } catch {
    return [];
  }
}

export interface RunSandboxDeps {
  store: Store;
  dataDir: string;
}

export function createRunSandboxes(deps: RunSandboxDeps) {
  return {
    /** The run's sandbox, or undefined when its instance runs open. */
    async open(run: Run, instance: Instance, steward: StewardServer | undefined, onDenied: (denial: Denial) => void): Promise<SandboxRun | undefined> {
      if (instance.sandbox.mode !== 'sandbox') return undefined;
      const support = await sandboxSupport();
      if (!support.ok) throw new AgentUnavailable(support.reason);
      const { agent } = instance;
      const env = agent.provider === 'command' ? agentEnv(agent) : process.env;
      const policy = sandboxPolicy({
        sandbox: instance.sandbox,
        agent,
        env,
        home: env.HOME || os.homedir(),
        workspaceDir: instance.workspaceDir,
        dataDir: deps.dataDir,
        otherWorkspaces: deps.store.instances.list().filter((other) => other.id !== instance.id).map((other) => other.workspaceDir),
        otherRuns: otherRunFolders(run.id),
        runDir: steward?.configDir,
        stewardUrl: steward?.url,
      });
      // A CLI's state folder must exist to be mounted writable; one it has not made yet, it could not make inside.
      for (const folder of policy.writable) if (!/\.json$/.test(folder) && !fs.existsSync(folder) && folder !== policy.workspaceDir && !instance.sandbox.writeAllow.includes(folder)) fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
      return openSandbox(policy, support, { runId: run.id, onDenied });
    },
  };
}

/** The feed's line for a refused connection, with the fix. */
export const denialLine = (denial: Denial): string =>
  `The sandbox refused ${denial.host}:${denial.port}: ${denial.why}. To allow it, add ${denial.host} to the instance's sandbox network.`;

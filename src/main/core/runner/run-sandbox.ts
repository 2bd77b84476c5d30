// The sandbox a run of a sandboxed instance starts in: its policy from the instance, its agent and
// what Steward keeps apart (its data folder, the other instances' workspaces), opened for the run
// and closed when it ends. A machine that cannot sandbox fails the run with the remedy: a sandboxed
// instance never runs open.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Instance, Run } from '../../../shared/contract';
import { acpEnv } from '../agents/acp-agent';
import { AgentUnavailable, agentEnv } from '../agents/command-agent';
import type { ProbePlace } from '../agents/probe';
import { type StewardServer, createRunDir, leftoverRunDirs, removeRunDir } from '../agents/steward-server';
import type { Denial } from '../sandbox/egress';
import { sandboxSupport } from '../sandbox/host-support';
import { isLoopback } from '../sandbox/network-rules';
import { sandboxPolicy } from '../sandbox/policy';
import { type SandboxRun, openSandbox } from '../sandbox/sandbox-run';
import type { Store } from '../store';

/** Steward's own folder (the one with its package.json): from the source tree, the build, or the installed package. */
function findAppRoot(): string | undefined {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      if ((JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name === 'steward') return dir;
    } catch {
      // no package.json here
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
const appRoot = findAppRoot();

export interface RunSandboxDeps {
  store: Store;
  dataDir: string;
  /** Where runs keep their private folders (the sandbox's sockets among them). */
  runsDir: string;
  /** Steward's public URL while the tunnel is up. */
  publicUrl: () => string | null;
}

export function createRunSandboxes(deps: RunSandboxDeps) {
  return {
    /** The run's sandbox, or undefined when its instance runs open. */
    async open(run: Pick<Run, 'id'>, instance: Instance, steward: StewardServer | undefined, onDenied: (denial: Denial) => void): Promise<SandboxRun | undefined> {
      if (instance.sandbox.mode !== 'sandbox') return undefined;
      const support = await sandboxSupport();
      if (!support.ok) throw new AgentUnavailable(support.reason);
      const { agent } = instance;
      const env = agent.provider === 'command' ? agentEnv(agent) : agent.provider === 'acp' ? acpEnv(agent) : process.env;
      const policy = sandboxPolicy({
        sandbox: instance.sandbox,
        agent,
        env,
        home: env.HOME || os.homedir(),
        workspaceDir: instance.workspaceDir,
        dataDir: deps.dataDir,
        otherWorkspaces: deps.store.instances.list().filter((other) => other.id !== instance.id).map((other) => other.workspaceDir),
        runDir: steward?.configDir,
        stewardUrl: steward?.url,
        stewardPublicUrl: deps.publicUrl() ?? undefined,
        appRoot,
      });
      // A CLI's state folder must exist to be mounted writable; one it has not made yet, it could not make inside.
      for (const folder of policy.writable) if (!/\.json$/.test(folder) && !fs.existsSync(folder) && folder !== policy.workspaceDir && !instance.sandbox.writeAllow.includes(folder)) fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
      return openSandbox(policy, support, { runId: run.id, runsDir: deps.runsDir, onDenied });
    },

    /**
     * Where the instance's agent is probed (`--version`, ACP's initialize): an empty private folder
     * as its working folder, never the workspace, where a run may have left what a CLI or its
     * launcher picks up from there (a `node_modules/.bin/node`, a local bin npx prefers, a project
     * config); inside the instance's sandbox when it has one, opened as for a run with that folder
     * in the workspace's place and no Steward tools. `probeId` names its folders as a run's id does.
     */
    async openForProbe(instance: Instance, probeId: string): Promise<ProbePlace> {
      const cwd = createRunDir(deps.runsDir, probeId);
      let sandbox: SandboxRun | undefined;
      try {
        sandbox = await this.open({ id: probeId }, { ...instance, workspaceDir: cwd }, undefined, () => {});
      } catch (error) {
        removeRunDir(cwd);
        throw error;
      }
      return {
        cwd,
        sandbox,
        async close() {
          await sandbox?.close();
          removeRunDir(cwd);
        },
      };
    },
  };
}

/** A probe's id, which its private folders start with (`probe-ins_…`, `probe-detect`). */
export const probeIdOf = (name: string) => `probe-${name}`;

/** At start: the folders of probes Steward stopped in the middle of. */
export function removeLeftoverProbeDirs(runsDir: string): void {
  for (const dir of leftoverRunDirs(runsDir, 'probe')) removeRunDir(dir);
}

/** The feed's line for a refused connection, with the fix (loopback is opened only with its port). */
export function denialLine(denial: Denial): string {
  const entry = isLoopback(denial.host) ? `${denial.host.includes(':') ? `[${denial.host}]` : denial.host}:${denial.port}` : denial.host;
  return `The sandbox refused ${denial.host}:${denial.port}: ${denial.why}. To allow it, add ${entry} to the instance's sandbox network.`;
}

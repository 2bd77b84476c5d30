// The sandbox a run of a sandboxed instance starts in: its policy from the instance, its agent and
// what Steward keeps apart (its data folder, the other instances' workspaces), opened for the run
// and closed when it ends. The instance's own CLI state is made ready first (the user's login and
// configuration brought in). A machine that cannot sandbox fails the run with the remedy: a
// sandboxed instance never runs open.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentConfig, Instance, Run } from '../../../shared/contract';
import { acpEnv } from '../agents/acp-agent';
import { agentEnvironment } from '../agents/agent-environment';
import { AgentUnavailable, agentEnv } from '../agents/command-agent';
import type { ProbePlace } from '../agents/probe';
import { presets } from '../agents/presets';
import { type StewardServer, createRunDir, leftoverRunDirs, removeRunDir } from '../agents/steward-server';
import { readSettings } from '../settings';
import { carriedFiles, footprintName } from './agent-footprint';
import { agentHomeOf, prepareAgentHome } from './agent-state';
import type { Denial } from './egress';
import { sandboxSupport } from './host-support';
import { limitsOf } from './limits';
import { SandboxRefused } from './mount-plan';
import { sandboxPolicy } from './policy';
import { type SandboxRun, openSandbox } from './sandbox-run';
import { etcSecrets, prepareEtcSecrets } from './system-folders';
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

/** Steward's installation as a sandbox reads it: its folder, and its dependencies' where node_modules is a link (a development checkout). */
/**
 * What a developer keeps at the root of a checkout Steward runs from (`.env`, `.npmrc`, `.git`):
 * not Steward's code, so hidden where its folder is shown (`.cache` holds the tests' agent CLIs).
 */
function appSecrets(): string[] {
  if (appRoot === undefined) return [];
  try {
    return fs.readdirSync(appRoot).filter((name) => name.startsWith('.') && name !== '.cache').map((name) => path.join(appRoot, name));
  } catch {
    return [];
  }
}

function appFolders(): string[] {
  if (appRoot === undefined) return [];
  try {
    const modules = fs.realpathSync(path.join(appRoot, 'node_modules'));
    return modules.startsWith(`${appRoot}${path.sep}`) ? [appRoot] : [appRoot, modules];
  } catch {
    return [appRoot];
  }
}

/** The commands a run of `agent` starts, whose files its sandbox must show: a custom command's folder is its own. */
function commandsOf(agent: AgentConfig, store: Store): { command: string; wholeFolder: boolean }[] {
  if (agent.provider === 'command') return agent.preset === 'custom' ? (agent.command ? [{ command: agent.command, wholeFolder: true }] : []) : [{ command: agent.command ?? presets[agent.preset].command, wholeFolder: false }];
  if (agent.provider === 'acp') return [{ command: agent.command, wholeFolder: footprintName(agent) === 'custom' }];
  return readSettings(store).mcpServers.flatMap((server) => (server.transport === 'stdio' ? [{ command: server.command, wholeFolder: true }] : []));
}

export interface RunSandboxDeps {
  store: Store;
  dataDir: string;
  /** Where runs keep their private folders (the sandbox's sockets among them). */
  runsDir: string;
  /** Steward's public URL while the tunnel is up. */
  publicUrl: () => string | null;
  /** Steward's API (its port is served /mcp alone to every sandbox, whether the run has Steward's tools or not). */
  apiUrl?: () => string;
}

/** The port of Steward's own API, from its URL. */
export function portOf(url: string | undefined): number | undefined {
  if (url === undefined) return undefined;
  const parsed = new URL(url);
  return Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80));
}

export function createRunSandboxes(deps: RunSandboxDeps) {
  prepareEtcSecrets();
  return {
    /** The run's sandbox, or undefined when its instance runs open. */
    async open(run: Pick<Run, 'id'>, instance: Instance, steward: StewardServer | undefined, onDenied: (denial: Denial) => void): Promise<SandboxRun | undefined> {
      if (instance.sandbox.mode !== 'sandbox') return undefined;
      const support = await sandboxSupport();
      if (!support.ok) throw new AgentUnavailable(support.reason);
      const { agent } = instance;
      // The environment its agent gets: the policy reads endpoints and state folders from it, never from Steward's own.
      const { envAllow } = instance.sandbox;
      const env = agent.provider === 'command' ? agentEnv(agent, envAllow) : agent.provider === 'acp' ? acpEnv(agent, envAllow) : agentEnvironment({ envAllow });
      const home = env.HOME || os.homedir();
      const agentHome = agentHomeOf(deps.dataDir, instance.id);
      prepareAgentHome(agentHome, carriedFiles(agent, env, home));
      const policy = sandboxPolicy({
        sandbox: instance.sandbox,
        agent,
        env,
        home,
        workspaceDir: instance.workspaceDir,
        dataDir: deps.dataDir,
        agentHome,
        otherWorkspaces: deps.store.instances.list().filter((other) => other.id !== instance.id).map((other) => other.workspaceDir),
        commands: commandsOf(agent, deps.store),
        runDir: steward?.configDir,
        stewardUrl: steward?.url,
        stewardPublicUrl: deps.publicUrl() ?? undefined,
        appFolders: appFolders(),
        systemSecrets: [...(await etcSecrets()), ...appSecrets()],
      });
      // Steward's port is Steward's whether or not this run was given its tools.
      policy.stewardPort ??= portOf(deps.apiUrl?.());
      try {
        return await openSandbox(policy, support, { runId: run.id, runsDir: deps.runsDir, onDenied, limits: limitsOf(instance.sandbox) });
      } catch (error) {
        throw error instanceof SandboxRefused ? new AgentUnavailable(error.message) : error;
      }
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

/** The feed's line for a refused connection, with the fix when one would work (the decision names it: network-rules.ts). */
export function denialLine(denial: Denial): string {
  const where = `${denial.host.includes(':') ? `[${denial.host}]` : denial.host}:${denial.port}`;
  const fix = denial.allow === undefined ? '' : ` To allow it, add ${denial.allow} to the instance's sandbox network.`;
  return `The sandbox refused ${where}: ${denial.why}.${fix}`;
}

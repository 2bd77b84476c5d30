// What a CLI agent's run is given to reach Steward's MCP server, and taken back when it ends: a key
// of the run's own (created as the run starts, deleted as it finishes, all of them at the next start
// after a crash) and the private folder of its CLI's configuration files.
import type { AgentConfig, Run } from '../../../shared/contract';
import { type StewardServer, createRunDir, leftoverRunDirs, mcpUrlOf, removeRunDir, stewardToolsOn } from '../agents/steward-server';
import type { Logger } from '../logger';

export interface RunKeys {
  /** A new key for the run (scope runs, its instance); shown to nobody but the agent. */
  issue(run: Run): string;
  /** Deletes the run's key; null: every run's key. */
  revoke(runId: string | null): void;
}

export function createStewardGrants(runKeys: RunKeys, apiUrl: () => string, logger: Logger, runsDir: string) {
  const servers = new Map<string, StewardServer>();
  return {
    /** Steward's server for this run, or undefined when its agent does not get Steward's tools. */
    grant(run: Run, agent: AgentConfig): StewardServer | undefined {
      const on = agent.provider === 'command' ? stewardToolsOn(agent) : agent.provider === 'acp' && (agent.stewardTools ?? true);
      if (!on) return undefined;
      const configDir = createRunDir(runsDir, run.id);
      let key: string;
      try {
        key = runKeys.issue(run);
      } catch (error) {
        removeRunDir(configDir);
        throw error;
      }
      const server: StewardServer = { url: mcpUrlOf(apiUrl()), key, configDir, atEnd: [] };
      servers.set(run.id, server);
      return server;
    },

    /** The run ended: its key no longer opens anything, its configuration files are gone. */
    end(runId: string): void {
      const server = servers.get(runId);
      if (!server) return;
      servers.delete(runId);
      try {
        runKeys.revoke(runId);
      } catch (error) {
        // A full disk, say: the run still ends, and the next start deletes every run's key.
        logger.error({ err: error, runId }, "could not delete a run's key");
      }
      for (const task of server.atEnd) {
        try {
          task();
        } catch (error) {
          logger.warn({ err: error, runId }, 'could not tidy up after a run with Steward\'s tools');
        }
      }
      removeRunDir(server.configDir);
    },

    /** At start: no run is running, so no run's key may still work, nor the folders of the runs Steward stopped in (`interrupted`) stay. */
    endAll(interrupted: string[]): void {
      runKeys.revoke(null);
      for (const runId of interrupted) for (const dir of leftoverRunDirs(runsDir, runId)) removeRunDir(dir);
    },
  };
}

// Steward's own MCP server as one run of a CLI agent receives it: the URL of the daemon's /mcp, a key
// that belongs to this run alone, and a private folder for the configuration files a CLI reads.
// Each preset says how its CLI is told (presets/*.ts `withSteward`); a custom command gets the
// environment variables and may do what it likes with them.
import fs from 'node:fs';
import path from 'node:path';

export interface StewardServer {
  /** http://127.0.0.1:<port>/mcp */
  url: string;
  /** The run's own API key (scope runs, its instance's automations and webhooks); deleted when the run ends. */
  key: string;
  /** Mode 0700, removed when the run ends. */
  configDir: string;
  /** What to do when the run ends, before configDir is removed (a preset keeps what its CLI wrote there). */
  atEnd: (() => void)[];
}

/** The name the server has in every CLI's configuration: its tools appear as mcp__steward__… and the like. */
export const stewardServerName = 'steward';

/** Every agent process of the run sees these (Codex reads the key from one by name). */
export const stewardEnv = (server: StewardServer): Record<string, string> => ({ STEWARD_MCP_URL: server.url, STEWARD_API_KEY: server.key });

/** `Authorization` as the CLIs' header maps take it. */
export const bearer = (server: StewardServer): Record<string, string> => ({ Authorization: `Bearer ${server.key}` });

/** Writes a configuration file only the daemon's user can read: it holds the run's key. */
export function writePrivateFile(server: StewardServer, name: string, content: string): string {
  const file = path.join(server.configDir, name);
  fs.writeFileSync(file, content, { mode: 0o600 });
  return file;
}

/** The daemon's /mcp as a local process reaches it: a wildcard bind answers on loopback too. */
export function mcpUrlOf(apiUrl: string): string {
  const url = new URL(apiUrl);
  if (url.hostname === '0.0.0.0' || url.hostname === '[::]') url.hostname = '127.0.0.1';
  return new URL('/mcp', url).toString();
}

/** A run's private folders (its configuration files, its sandbox's sockets) begin with its id. */
export const runDirPrefix = (runId: string) => `${runId}-`;

/**
 * A private folder of the run's in `runsDir` (in Steward's data folder, which no sandbox sees: the
 * run's own folders are mounted back into its sandbox, the other runs' stay out of sight).
 */
export function createRunDir(runsDir: string, runId: string): string {
  fs.mkdirSync(runsDir, { recursive: true, mode: 0o700 });
  return fs.mkdtempSync(path.join(runsDir, runDirPrefix(runId)));
}

/** The folders a run left behind when Steward stopped without ending it. */
export function leftoverRunDirs(runsDir: string, runId: string): string[] {
  try {
    return fs
      .readdirSync(runsDir)
      .filter((name) => name.startsWith(runDirPrefix(runId)))
      .map((name) => path.join(runsDir, name));
  } catch {
    return [];
  }
}

export function removeRunDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Presets get Steward's tools unless their config says no; a custom command only when it says yes. */
export const stewardToolsOn = (agent: { preset: string; stewardTools?: boolean | undefined }): boolean => agent.stewardTools ?? agent.preset !== 'custom';

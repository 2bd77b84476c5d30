// Gemini CLI reads MCP servers only from its settings files, and takes a system settings file only
// when root owns it and every folder above it. In a sandbox, Gemini's home is the instance's own
// (agent-state.ts): Steward's server is added to its settings for the run and taken out after. Out
// of a sandbox, a run with Steward's tools gets a home of its own (GEMINI_CLI_HOME): its .gemini
// links to everything in the user's (credentials, sessions, trusted folders) but settings.json,
// which is a copy of the user's with Steward's server added. Sessions go where the user's are (tmp/
// and history/ are linked), and what Gemini wrote anew in the run's .gemini (its project registry,
// saved by rename, so never through a link) is kept in the user's when the run ends: a later run
// still finds and resumes them. What a run wrote is read as such (readRunWrittenFile: no FIFO stalls
// Steward).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readRunWrittenFile } from '../../run-written-file';
import { readStateFile, writeStateFile } from '../../sandbox/agent-state';
import { type StewardServer, bearer, stewardServerName } from '../steward-server';
import { asRecord } from './common';

/** Gemini's settings are JSON with comments: the comments go, strings stay as they are. */
export function stripJsonComments(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      out += text.slice(start, i + 1);
    } else if (char === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (char === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
    } else {
      out += char;
    }
  }
  return out;
}

const settingsPath = '.gemini/settings.json';

/** Settings text as an object; undefined when it is not JSON (with comments). */
function parseSettings(text: string | undefined): Record<string, unknown> | undefined {
  try {
    return text === undefined ? {} : asRecord(JSON.parse(stripJsonComments(text)));
  } catch {
    return undefined;
  }
}

/**
 * Steward's server in the instance's own Gemini settings (`stateHome`, a sandboxed run's HOME) for
 * the run, out of them when it ends; settings that do not parse are left alone (the run then goes
 * without Steward's tools rather than without its settings).
 */
export function addStewardToInstanceSettings(server: StewardServer, stateHome: string): void {
  const settings = parseSettings(readStateFile(stateHome, settingsPath));
  if (settings === undefined) return;
  const mcpServers = { ...asRecord(settings.mcpServers), [stewardServerName]: { httpUrl: server.url, headers: bearer(server), trust: true } };
  writeStateFile(stateHome, settingsPath, JSON.stringify({ ...settings, mcpServers }, null, 2));
  server.atEnd.push(() => {
    const after = parseSettings(readStateFile(stateHome, settingsPath));
    const servers = asRecord(after?.mcpServers);
    if (after === undefined || !(stewardServerName in servers)) return;
    const { [stewardServerName]: _ours, ...others } = servers;
    writeStateFile(stateHome, settingsPath, JSON.stringify({ ...after, mcpServers: others }, null, 2));
  });
}

/** The run's GEMINI_CLI_HOME; undefined when the user's settings cannot be read (the run then goes without Steward's tools rather than without the user's settings). */
export function geminiHomeWithSteward(server: StewardServer, env: NodeJS.ProcessEnv): string | undefined {
  const userGemini = path.join(env.GEMINI_CLI_HOME || os.homedir(), '.gemini');
  const settingsFile = path.join(userGemini, 'settings.json');
  let settings: Record<string, unknown> = {};
  try {
    if (fs.existsSync(settingsFile)) settings = asRecord(JSON.parse(stripJsonComments(fs.readFileSync(settingsFile, 'utf8'))));
  } catch {
    return undefined;
  }
  const home = path.join(server.configDir, 'gemini-home');
  const runGemini = path.join(home, '.gemini');
  fs.mkdirSync(runGemini, { recursive: true });
  for (const folder of ['tmp', 'history']) fs.mkdirSync(path.join(userGemini, folder), { recursive: true });
  for (const entry of fs.readdirSync(userGemini)) {
    if (entry !== 'settings.json') fs.symlinkSync(path.join(userGemini, entry), path.join(runGemini, entry));
  }
  server.atEnd.push(() => keepWhatGeminiWrote(runGemini, userGemini));
  const mcpServers = { ...asRecord(settings.mcpServers), [stewardServerName]: { httpUrl: server.url, headers: bearer(server), trust: true } };
  fs.writeFileSync(path.join(runGemini, 'settings.json'), JSON.stringify({ ...settings, mcpServers }, null, 2), { mode: 0o600 });
  return home;
}

/** Moves what the run's Gemini wrote anew into the user's .gemini; the project registry is merged. */
function keepWhatGeminiWrote(runGemini: string, userGemini: string): void {
  for (const entry of fs.readdirSync(runGemini)) {
    const written = path.join(runGemini, entry);
    if (entry === 'settings.json' || fs.lstatSync(written).isSymbolicLink()) continue;
    const kept = path.join(userGemini, entry);
    if (entry === 'projects.json') {
      const projects = (file: string) => asRecord(parseSettings(readRunWrittenFile(file))?.projects);
      const merged = { projects: { ...projects(kept), ...projects(written) } };
      const partial = `${kept}.${process.pid}.tmp`;
      fs.writeFileSync(partial, JSON.stringify(merged, null, 2));
      fs.renameSync(partial, kept);
    } else if (!fs.existsSync(kept)) {
      fs.cpSync(written, kept, { recursive: true });
    }
  }
}

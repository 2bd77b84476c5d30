// Each sandboxed instance's CLI state is its own, inside Steward's data folder:
// `<dataDir>/agent-homes/<instanceId>/` is its runs' HOME, kept between runs (so threads continue),
// and the CLIs' state variables point into it (CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME, the
// XDG folders of OpenCode and goose). Its login and configuration come from the user's own files
// (agent-footprint.ts says which), copied in at each run start: copied, not linked, so that nothing
// a run writes reaches the user's ~/.claude, ~/.codex or ~/.gemini, and a token the CLI refreshes
// inside needs no write access to the user's. What is in the home was written by runs: it is read
// without following a link or blocking (readRunWrittenFile), and written by replacing a file (a
// link or a folder a run left in a file's or a folder's place is removed, never followed).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { readRunWrittenFile } from '../run-written-file';
import { type Carried, readUserFile } from './agent-footprint';

/** The instance's CLI state folder. */
export const agentHomeOf = (dataDir: string, instanceId: string): string => path.join(dataDir, 'agent-homes', instanceId);

/** The CLIs' state variables, pointed into the instance's home. */
export function stateEnv(home: string): Record<string, string> {
  return {
    HOME: home,
    CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
    CODEX_HOME: path.join(home, '.codex'),
    GEMINI_CLI_HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local/share'),
    XDG_STATE_HOME: path.join(home, '.local/state'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
  };
}

/** Folders a CLI expects to find (Codex refuses a CODEX_HOME that does not exist). */
const stateFolders = ['.claude', '.codex', '.gemini', '.config', '.local/share', '.local/state', '.cache'];

/** `relative` inside `root` as a real folder, each step made or, where a run left a link or a file, replaced. */
export function stateFolder(root: string, relative: string): string {
  let current = root;
  for (const part of relative.split(path.sep).filter((each) => each !== '' && each !== '.')) {
    if (part === '..') throw new Error(`not a path inside the state folder: ${relative}`);
    current = path.join(current, part);
    let stat: fs.Stats | undefined;
    try {
      stat = fs.lstatSync(current);
    } catch {
      stat = undefined;
    }
    if (stat?.isDirectory()) continue;
    if (stat !== undefined) fs.rmSync(current, { force: true });
    fs.mkdirSync(current, { mode: 0o700 });
  }
  return current;
}

/** Writes `text` at `relative` inside `root` by replacing the file (through no link a run left there). */
export function writeStateFile(root: string, relative: string, text: string): void {
  const folder = stateFolder(root, path.dirname(relative));
  const target = path.join(folder, path.basename(relative));
  const partial = path.join(folder, `.steward-${randomBytes(6).toString('hex')}.tmp`);
  fs.writeFileSync(partial, text, { mode: 0o600, flag: 'wx' });
  try {
    if (fs.lstatSync(target, { throwIfNoEntry: false })?.isDirectory()) fs.rmSync(target, { recursive: true, force: true });
    fs.renameSync(partial, target);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
}

/** A file of the instance's state as text; undefined when it is missing or not a plain file (see readRunWrittenFile). */
export function readStateFile(root: string, relative: string): string | undefined {
  // Each folder on the way must be a real folder of the home's, not a link a run left.
  let current = root;
  for (const part of path.dirname(relative).split(path.sep).filter((each) => each !== '' && each !== '.')) {
    current = path.join(current, part);
    if (!fs.lstatSync(current, { throwIfNoEntry: false })?.isDirectory()) return undefined;
  }
  return readRunWrittenFile(path.join(root, relative));
}

/** A JSON object of the instance's state, or {} when it is missing or not one. */
export function readStateJson(root: string, relative: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(readStateFile(root, relative) ?? '{}');
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function bring(home: string, item: Carried): void {
  const user = readUserFile(item.from);
  if (user === undefined) return;
  if (item.kind === 'account') {
    let given: Record<string, unknown>;
    try {
      given = JSON.parse(user.text) as Record<string, unknown>;
    } catch {
      return;
    }
    const own = readStateJson(home, item.to);
    const picked = Object.fromEntries((item.keys ?? []).filter((key) => given[key] !== undefined).map((key) => [key, given[key]]));
    if (Object.keys(picked).length === 0 || Object.entries(picked).every(([key, value]) => JSON.stringify(own[key]) === JSON.stringify(value))) return;
    writeStateFile(home, item.to, JSON.stringify({ ...own, ...picked }, null, 2));
    return;
  }
  if (item.kind === 'login') {
    // The instance's copy is kept when it is newer: the CLI refreshed its token inside.
    const own = fs.lstatSync(path.join(stateFolder(home, path.dirname(item.to)), path.basename(item.to)), { throwIfNoEntry: false });
    if (own?.isFile() && own.mtimeMs >= user.mtimeMs) return;
  } else if (readStateFile(home, item.to) === user.text) {
    return;
  }
  writeStateFile(home, item.to, user.text);
}

/** Makes the instance's home (mode 0700) and brings the user's login and configuration in. */
export function prepareAgentHome(home: string, carried: Carried[]): void {
  fs.mkdirSync(path.dirname(home), { recursive: true, mode: 0o700 });
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  for (const folder of stateFolders) stateFolder(home, folder);
  for (const item of carried) bring(home, item);
}

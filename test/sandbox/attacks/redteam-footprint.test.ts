// Red team: folders the sandbox opens because of where Steward was started. A user starts Steward
// from a project folder (its cwd, with a `.env`), with a project's node_modules/.bin and a folder
// of their own on PATH (as npx and ~/bin do). The agent's PATH names those folders; a secret next
// to them must stay out of reach, as any file outside the workspace that nobody listed; so must a
// `.env` kept in Steward's own folder (a git clone started with `npm start`).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lacks } from '../../support/requirements';
import { tempDir } from '../../support/core';
import { type Lab, fixture, marker, openLab } from './lab';

const skip = lacks('sandbox');
let lab: Lab;
let text = '';
const secrets = new Map<string, string>();
let root = '';

function plant(file: string): string {
  const secret = marker(path.basename(file));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  secrets.set(file, secret);
  return file;
}

beforeAll(async () => {
  if (skip) return;
  root = tempDir('steward-redteam-footprint-');
  const project = path.join(root, 'project');
  const started = path.join(root, 'started-here');
  const userBin = path.join(root, 'user');
  plant(path.join(project, '.env'));
  fs.mkdirSync(path.join(project, 'node_modules/.bin'), { recursive: true });
  plant(path.join(started, '.env'));
  plant(path.join(userBin, 'secret.txt'));
  fs.mkdirSync(path.join(userBin, 'bin'), { recursive: true });
  // Steward's own folder (a git clone's, here the repository's): a `.env` kept next to it.
  // (Not as a user who may not write there: the other secrets are still tried.)
  try {
    plant(path.join(path.resolve(import.meta.dirname, '../../..'), `.env.redteam-${path.basename(root)}`));
  } catch {
    // EACCES: left out
  }
  process.env.PATH = `${path.join(project, 'node_modules/.bin')}:${path.join(userBin, 'bin')}:${process.env.PATH}`;
  process.chdir(started);
  lab = await openLab();
  const instance = await lab.instance({ provider: 'command', preset: 'custom', command: fixture('redteam/read-paths.sh'), env: { PROBE_FILES: [...secrets.keys()].join('\n') } }, { mode: 'sandbox' });
  const run = await lab.run(instance);
  text = await lab.transcript(run);
  if (process.env.REDTEAM_VERBOSE) console.log(run.status, run.error, text);
}, 60_000);
afterAll(async () => {
  await lab?.close();
  for (const file of secrets.keys()) fs.rmSync(file, { force: true });
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

describe.skipIf(skip)("where Steward was started", () => {
  it('the probe ran', () => {
    expect(text).toContain('== done');
  });
  it("no secret next to its cwd, a PATH folder or Steward's own folder is readable", () => {
    expect([...secrets].filter(([, secret]) => text.includes(secret)).map(([file]) => file.replace(root, ''))).toEqual([]);
  });
});

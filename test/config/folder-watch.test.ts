// The watched folder, end to end: a real `steward serve` watches a git checkout (PUT /api/config);
// a second clone commits and pushes, and `git pull` in the checkout is what changes the folder, as a
// user's would. A pull that changes two files is one apply with the pulled commit; a pull that breaks
// a file (YAML syntax, an unknown field) shows file:line:col and keeps the last good state; fixing
// it applies; a file removed prunes only its resource; a restart applies nothing new.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitFiles, gitIn, repoPair } from '../support/git-repos';
import { type Server, startDaemon } from '../support/processes';
import { adminKeyOf, apiOf, exportText } from '../support/steward-cli';
import { tempDir } from '../support/temp';
import { quietFor, waitFor } from '../support/wait';

const folder = tempDir('steward-folder-watch-');
const dataDir = path.join(folder, 'data');
const { origin, work } = repoPair(fs.mkdtempSync(path.join(folder, 'git-')));
const watched = path.join(folder, 'watched');
let key: string;
let daemon: Server;
let api: ReturnType<typeof apiOf>;

// The watcher looks every second and applies what stayed the same for one look: this is several looks.
const severalLooksMs = 4_000;

interface ConfigState {
  folder: string | null;
  lastApplied: { at: string; commit: string | null; summary: string } | null;
  error: { at: string; message: string } | null;
  managed: { id: string; kind: string; name: string; file: string }[];
}
interface Automation {
  id: string;
  name: string;
  prompt: string;
  updatedAt: string;
}

const automationText = (name: string, cron: string, prompt: string, extra = '') => `kind: automation\nname: ${name}\ncronExpression: "${cron}"\nenabled: false\n${extra}prompt: |-\n  ${prompt}\n`;

const config = async (): Promise<ConfigState> => {
  const answer = await api('GET', '/api/config');
  expect(answer.status, answer.text).toBe(200);
  return answer.body.config as ConfigState;
};
const automations = async (): Promise<Map<string, Automation>> => {
  const answer = await api('GET', '/api/automations');
  expect(answer.status, answer.text).toBe(200);
  return new Map((answer.body.automations as Automation[]).map((each) => [each.name, each]));
};
/** The applies that changed something, as the daemon logged them (info level: one line each). */
const appliesLogged = (server: Server) =>
  server
    .output()
    .stderr.split('\n')
    .filter((line) => line.includes('"configuration folder applied"'))
    .map((line) => (JSON.parse(line) as { summary: string }).summary);

/** Commits the files (null: removed) in the second clone and pushes them. */
function push(files: Record<string, string | null>, message: string): string {
  for (const [name, text] of Object.entries(files)) if (text === null) gitIn(work, ['rm', '--quiet', name]);
  const written = Object.fromEntries(Object.entries(files).filter((entry): entry is [string, string] => entry[1] !== null));
  const commit = Object.keys(written).length > 0 ? commitFiles(work, written, message) : (gitIn(work, ['commit', '--quiet', '-m', message]), gitIn(work, ['rev-parse', 'HEAD']).trim());
  gitIn(work, ['push', '--quiet', 'origin', 'main']);
  return commit;
}
const pull = () => gitIn(watched, ['pull', '--quiet', '--ff-only', 'origin', 'main']);

const appliedCommit = (commit: string, what: string) =>
  waitFor(config, { what, timeoutMs: 30_000, intervalMs: 100, until: (state) => state.lastApplied?.commit === commit && state.error === null });

const triage1 = automationText('Triage', '0 8 * * *', 'Sort the inbox.');
const digest1 = automationText('Digest', '0 18 * * 1-5', 'Write the evening digest.');

beforeAll(async () => {
  key = adminKeyOf(dataDir);
  daemon = await startDaemon(dataDir, ['--port', '0'], { STEWARD_LOG_LEVEL: 'info' });
  api = apiOf(daemon.url, key);
  gitIn(folder, ['clone', '--quiet', origin, watched]);
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
  fs.rmSync(folder, { recursive: true, force: true });
});

describe('a git checkout as the watched folder', () => {
  let first: string;

  it('is applied at once when chosen, and shows its commit', async () => {
    first = push({ 'automations/triage.yaml': triage1, 'automations/digest.yaml': digest1 }, 'Two automations');
    pull();
    const made = await api('POST', '/api/automations', { name: 'Made in the app', prompt: 'Kept whatever the folder says', cronExpression: '0 12 * * *', enabled: false });
    expect(made.status, made.text).toBe(201);

    const chosen = await api('PUT', '/api/config', { folder: watched });
    expect(chosen.status, chosen.text).toBe(200);
    const state = chosen.body.config as ConfigState;
    expect(state).toMatchObject({ folder: watched, error: null, lastApplied: { commit: first, summary: '2 to add; 0 unchanged.' } });
    expect(state.managed.map(({ kind, name, file }) => ({ kind, name, file })).sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { kind: 'automation', name: 'Digest', file: path.join(watched, 'automations/digest.yaml') },
      { kind: 'automation', name: 'Triage', file: path.join(watched, 'automations/triage.yaml') },
    ]);
    expect([...(await automations()).keys()].sort()).toEqual(['Digest', 'Made in the app', 'Triage']);
  }, 60_000);

  it('applies a pull that changes two files once, with the pulled commit, and not again', async () => {
    const before = await automations();
    const second = push(
      { 'automations/triage.yaml': automationText('Triage', '0 8 * * *', 'Sort the inbox, urgent first.'), 'automations/weekly.yaml': automationText('Weekly', '0 9 * * 1', 'Plan the week.') },
      'Triage urgent first; a weekly plan',
    );
    pull();
    const state = await appliedCommit(second, 'the pulled commit to be applied');
    expect(state.lastApplied!.summary).toBe('1 to add, 1 to change; 1 unchanged.');
    const after = await automations();
    expect(after.get('Triage')!.prompt).toBe('Sort the inbox, urgent first.');
    expect(after.get('Triage')!.updatedAt).not.toBe(before.get('Triage')!.updatedAt);
    expect(after.get('Weekly')!.prompt).toBe('Plan the week.');
    expect(after.get('Digest')!.updatedAt).toBe(before.get('Digest')!.updatedAt);

    // No second apply once it settled: the same apply, the same update, one line logged for the pull.
    await quietFor(severalLooksMs);
    expect((await config()).lastApplied).toEqual(state.lastApplied);
    expect((await automations()).get('Triage')!.updatedAt).toBe(after.get('Triage')!.updatedAt);
    expect(appliesLogged(daemon)).toEqual(['2 to add; 0 unchanged.', '1 to add, 1 to change; 1 unchanged.']);
  }, 60_000);

  /** A pull that breaks triage.yaml (and changes digest.yaml validly): refused whole, the error says where, the last good state stays. */
  async function refused(broken: string, where: string, problem: string) {
    const good = await config();
    const exported = await exportText(api);
    const before = await automations();
    const commit = push({ 'automations/triage.yaml': broken, 'automations/digest.yaml': automationText('Digest', '0 18 * * 1-5', `Write the evening digest (${where}).`) }, 'Break triage');
    pull();
    const state = await waitFor(config, { what: 'the broken pull to be refused', timeoutMs: 30_000, intervalMs: 100, until: (value) => value.error !== null });
    expect(state.error!.message).toContain(`${path.join(watched, 'automations/triage.yaml')}:${where}: ${problem}`);
    expect(state.error!.message).toMatch(/^The configuration was not applied; nothing changed:\n/);
    expect(state.lastApplied).toEqual(good.lastApplied);
    expect(await exportText(api)).toBe(exported);
    const after = await automations();
    for (const [name, automation] of before) expect(after.get(name)!.updatedAt, name).toBe(automation.updatedAt);
    // Not tried again while the folder stays as it is.
    await quietFor(severalLooksMs);
    expect((await config()).error).toEqual(state.error);
    expect(await exportText(api)).toBe(exported);
    return commit;
  }

  async function fixed(prompt: string) {
    const commit = push({ 'automations/triage.yaml': automationText('Triage', '0 8 * * *', prompt) }, 'Fix triage');
    pull();
    const state = await appliedCommit(commit, 'the fixed file to be applied');
    expect(state.error).toBeNull();
    const now = await automations();
    expect(now.get('Triage')!.prompt).toBe(prompt);
    return now;
  }

  it('refuses a pull with a YAML syntax error, naming file:line:col, keeps the last good state, and applies once fixed', async () => {
    await refused(`kind: automation\nname: Triage\ncronExpression: "0 8 * * *"\nenabled: false\nprompt: Sort the inbox: now\n`, '5:9', 'Nested mappings are not allowed in compact mappings');
    const now = await fixed('Sort the inbox, oldest first.');
    // The digest change that came with the broken pull is applied with the fix.
    expect(now.get('Digest')!.prompt).toBe('Write the evening digest (5:9).');
  }, 90_000);

  it('refuses a pull with an unknown field the same way, and applies once fixed', async () => {
    await refused(automationText('Triage', '0 8 * * *', 'Sort the inbox, oldest first.', 'colour: blue\n'), '5:1', 'unknown field "colour" for automation');
    const now = await fixed('Sort the inbox, newest first.');
    expect(now.get('Digest')!.prompt).toBe('Write the evening digest (5:1).');
  }, 90_000);

  it('prunes the resource of a file removed, and only it: the one made in the app stays', async () => {
    const before = await automations();
    const commit = push({ 'automations/weekly.yaml': null }, 'No more weekly plan');
    pull();
    const state = await appliedCommit(commit, 'the removal to be applied');
    expect(state.lastApplied!.summary).toBe('1 to delete; 2 unchanged.');
    const after = await automations();
    expect([...after.keys()].sort()).toEqual(['Digest', 'Made in the app', 'Triage']);
    for (const name of after.keys()) expect(after.get(name)!.updatedAt, name).toBe(before.get(name)!.updatedAt);
    expect(state.managed.map((each) => each.name).sort()).toEqual(['Digest', 'Triage']);
  }, 60_000);

  it('shows the commit of a pull that changes no configuration file (applied as no change)', async () => {
    const before = await automations();
    const commit = push({ 'README.md': 'The automations of the team.\n' }, 'Say what this is');
    pull();
    const state = await appliedCommit(commit, 'the pulled commit to be shown');
    expect(state.lastApplied!.summary).toBe('No changes: 2 resources are as the files say.');
    const after = await automations();
    for (const [name, automation] of before) expect(after.get(name)!.updatedAt, name).toBe(automation.updatedAt);
  }, 60_000);

  it('waits while git holds its index lock, then applies', async () => {
    const triage = path.join(watched, 'automations/triage.yaml');
    const lock = path.join(watched, '.git/index.lock');
    const before = await config();
    fs.writeFileSync(lock, '');
    fs.writeFileSync(triage, automationText('Triage', '0 8 * * *', 'Edited while git was busy.'));
    await quietFor(severalLooksMs);
    expect((await automations()).get('Triage')!.prompt).toBe('Sort the inbox, newest first.');
    expect((await config()).lastApplied).toEqual(before.lastApplied);
    fs.rmSync(lock);
    await waitFor(automations, { what: 'the edit to be applied once the lock went', timeoutMs: 30_000, intervalMs: 100, until: (now) => now.get('Triage')!.prompt === 'Edited while git was busy.' });
    gitIn(watched, ['checkout', '--', 'automations/triage.yaml']);
    await waitFor(automations, { what: 'the checkout to be applied', timeoutMs: 30_000, intervalMs: 100, until: (now) => now.get('Triage')!.prompt === 'Sort the inbox, newest first.' });
  }, 90_000);

  it('ends at the last of two pulls in quick succession', async () => {
    const one = push({ 'automations/triage.yaml': automationText('Triage', '0 8 * * *', 'First of two.') }, 'First of two');
    const two = push({ 'automations/triage.yaml': automationText('Triage', '0 8 * * *', 'Sort the inbox, newest first.'), 'automations/digest.yaml': digest1 }, 'Second of two');
    gitIn(watched, ['fetch', '--quiet', 'origin']);
    gitIn(watched, ['merge', '--quiet', '--ff-only', one]);
    gitIn(watched, ['merge', '--quiet', '--ff-only', two]);
    await appliedCommit(two, 'the second pull to be applied');
    await quietFor(severalLooksMs);
    const state = await config();
    expect(state.lastApplied!.commit).toBe(two);
    const now = await automations();
    expect(now.get('Triage')!.prompt).toBe('Sort the inbox, newest first.');
    expect(now.get('Digest')!.prompt).toBe('Write the evening digest.');
  }, 90_000);

  it('refuses a folder with no configuration file left (a clone under way, a checkout gone wrong) instead of pruning everything', async () => {
    const before = await automations();
    const exported = await exportText(api);
    const good = await config();
    const emptied = push({ 'automations/triage.yaml': null, 'automations/digest.yaml': null }, 'Remove every file');
    pull();
    const state = await waitFor(config, { what: 'the empty folder to be refused', timeoutMs: 30_000, intervalMs: 100, until: (value) => value.error !== null || value.lastApplied?.commit === emptied });
    expect(state.error?.message).toContain('holds no .yaml or .yml files');
    expect(state.lastApplied).toEqual(good.lastApplied);
    expect(await exportText(api)).toBe(exported);
    gitIn(work, ['revert', '--no-edit', 'HEAD']);
    gitIn(work, ['push', '--quiet', 'origin', 'main']);
    pull();
    const back = await appliedCommit(gitIn(work, ['rev-parse', 'HEAD']).trim(), 'the files back to be applied');
    expect(back.lastApplied!.summary).toBe('No changes: 2 resources are as the files say.');
    // The same automations, not new ones of the same names: their runs and history stay theirs.
    const after = await automations();
    for (const [name, automation] of before) expect(after.get(name)?.id, name).toBe(automation.id);
  }, 90_000);

  it('applies nothing new when the daemon restarts with the folder set', async () => {
    const exported = await exportText(api);
    const before = await automations();
    const last = await config();
    await daemon.stop();
    daemon = await startDaemon(dataDir, ['--port', '0'], { STEWARD_LOG_LEVEL: 'info' });
    api = apiOf(daemon.url, key);
    // The restarted watcher looks at the folder, and may apply it again: a no-change apply. Either
    // way, after several looks nothing has changed.
    await quietFor(severalLooksMs);
    const state = await config();
    expect(state.folder).toBe(watched);
    expect(state.error).toBeNull();
    expect(state.lastApplied!.commit).toBe(last.lastApplied!.commit);
    if (state.lastApplied!.at !== last.lastApplied!.at) expect(state.lastApplied!.summary).toBe('No changes: 2 resources are as the files say.');
    expect(await exportText(api)).toBe(exported);
    const after = await automations();
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [name, automation] of before) expect(after.get(name)!.updatedAt, name).toBe(automation.updatedAt);
    expect(appliesLogged(daemon)).toEqual([]);
  }, 60_000);

  it('stops applying once the folder is unset', async () => {
    const unset = await api('PUT', '/api/config', { folder: null });
    expect(unset.status, unset.text).toBe(200);
    expect(unset.body.config).toMatchObject({ folder: null, lastApplied: null, error: null });
    const exported = await exportText(api);
    push({ 'automations/triage.yaml': automationText('Triage', '0 8 * * *', 'Not applied: nobody watches.') }, 'After the folder was unset');
    pull();
    await quietFor(severalLooksMs);
    expect(await exportText(api)).toBe(exported);
    expect((await config()).lastApplied).toBeNull();
  }, 60_000);
});

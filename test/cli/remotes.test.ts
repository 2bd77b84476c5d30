// `steward remotes add|list|remove` as a user runs it: real CLI processes against a real local
// daemon (which must follow a remote added at once) and a second real daemon as the remote; and on
// a data folder no daemon serves, where the next daemon to start follows what was added.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, tempDir } from '../support/core';
import { type Server, cliResult, runCli, startDaemon } from '../support/processes';

const remoteDir = tempDir('steward-remote-');
const localDir = tempDir('steward-local-');
const folderDir = tempDir('steward-folder-');
let remote: Server;
let local: Server;
let remoteKey: string;
let localKey: string;
const daemons: Server[] = [];

const keyOf = (dataDir: string) => runCli(['keys', 'create', '--name', 'cli-test', '--data-dir', dataDir]).trim().split('\n').at(-1)!;
const portOf = (server: Server) => new URL(server.url).port;

/** The CLI on the local daemon's folder, with its key; nothing of the developer's environment decides. */
const steward = (args: string[], options: { env?: NodeJS.ProcessEnv; stdin?: string } = {}) =>
  cliResult([...args, '--data-dir', localDir, '--port', portOf(local)], { STEWARD_API_KEY: localKey, STEWARD_REMOTE_KEY: '', ...options.env }, options.stdin);

const api = async (server: Server, key: string, route: string) => (await request(`${server.url}${route}`, { headers: { authorization: `Bearer ${key}` } })).body;

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  remoteKey = keyOf(remoteDir);
  localKey = keyOf(localDir);
  [remote, local] = await Promise.all([startDaemon(remoteDir), startDaemon(localDir)]);
  daemons.push(remote, local);
}, 60_000);
afterAll(async () => {
  await Promise.all(daemons.map((daemon) => daemon.stop()));
  for (const dir of [remoteDir, localDir, folderDir]) fs.rmSync(dir, { recursive: true, force: true });
});

describe('steward remotes, through the daemon serving the data folder', () => {
  let remoteId: string;

  it('adds a remote with its key on stdin; the daemon follows it at once; list shows its state; the key is never printed', async () => {
    const added = steward(['remotes', 'add', 'Build server', remote.url], { stdin: `${remoteKey}\n` });
    expect(added.stderr).toBe('');
    expect(added.status, added.stderr).toBe(0);
    expect(added.stdout).toContain('Added remote “Build server”');
    expect(added.stdout).toContain('the secret remote-build-server');
    expect(added.stdout).toMatch(/Connected: Steward \S+, 1 instance, \d+ ms\./);
    expect(added.stdout).not.toContain('next start');
    remoteId = /\((rem_\w+)\)/.exec(added.stdout)![1];

    // The daemon follows it now: its instance is an instance here, no restart needed.
    const followed = await until('the remote connected', async () => {
      const { remote: state } = await api(local, localKey, `/api/remotes/${remoteId}`);
      return state.state === 'connected' ? state : undefined;
    });
    expect(followed).toMatchObject({ name: 'Build server', url: remote.url, apiKeyRef: 'remote-build-server', instanceCount: 1 });
    const { instances } = await api(local, localKey, '/api/instances');
    expect(instances.filter((instance: { location: string }) => instance.location === remoteId)).toHaveLength(1);

    const listed = steward(['remotes', 'list']);
    expect(listed.status, listed.stderr).toBe(0);
    const [header, row, ...more] = listed.stdout.trim().split('\n');
    expect(header.split(/\s{2,}/)).toEqual(['ID', 'NAME', 'URL', 'STATE', 'VERSION', 'LATENCY', 'ERROR']);
    // Its latency is the last check's: it may have changed since.
    expect(row.split(/\s{2,}/)).toEqual([remoteId, 'Build server', remote.url, 'connected', followed.version, expect.stringMatching(/^\d+ ms$/)]);
    expect(more).toEqual([]);
    for (const output of [added.stdout, added.stderr, listed.stdout, listed.stderr]) expect(output).not.toContain(remoteKey);
  }, 60_000);

  it('refuses an invalid URL or an unknown secret as the API does, and a secret name already taken, keeping nothing', async () => {
    const plain = steward(['remotes', 'add', 'Plain', 'http://steward.example.com'], { stdin: remoteKey });
    expect(plain.status).toBe(1);
    expect(plain.stderr).toMatch(/URL must be https:\/\/ for steward\.example\.com.*loopback/);
    expect(plain.stdout).toBe('');
    expect(plain.stderr).not.toContain(remoteKey);

    // The secret its name would get holds another remote's key: not replaced.
    const sameSecret = steward(['remotes', 'add', 'Build Server!', 'http://127.0.0.1:1'], { stdin: 'stw_another_key' });
    expect(sameSecret.status).toBe(1);
    expect(sameSecret.stderr).toContain('A secret named remote-build-server is already stored: use it with --key-ref remote-build-server');

    const unknownSecret = steward(['remotes', 'add', 'Other', remote.url, '--key-ref', 'no-such-secret']);
    expect(unknownSecret.status).toBe(1);
    expect(unknownSecret.stderr).toContain('No secret named no-such-secret is stored');

    const { remotes } = await api(local, localKey, '/api/remotes');
    expect(remotes.map((each: { id: string }) => each.id)).toEqual([remoteId]);
    const { secrets } = await api(local, localKey, '/api/secrets');
    expect(secrets.map((secret: { name: string }) => secret.name)).toEqual(['remote-build-server']);
  }, 60_000);

  it('explains what it needs: a key for the remote, and the daemon’s key to act through it', () => {
    const noKey = steward(['remotes', 'add', 'Keyless', remote.url]);
    expect(noKey.status).toBe(2);
    expect(noKey.stderr).toContain('STEWARD_REMOTE_KEY');
    const noDaemonKey = steward(['remotes', 'list'], { env: { STEWARD_API_KEY: '' } });
    expect(noDaemonKey.status).toBe(1);
    expect(noDaemonKey.stderr).toMatch(/serves .* on http:\/\/127\.0\.0\.1:\d+: set STEWARD_API_KEY/);
    const noRemote = steward(['remotes', 'remove', 'Nobody']);
    expect(noRemote.status).toBe(1);
    expect(noRemote.stderr).toContain('No remote has the id or name “Nobody”');
  }, 60_000);

  it('removes it by name: the daemon stops following it, its instances and the key stored for it go', async () => {
    const removed = steward(['remotes', 'remove', 'Build server']);
    expect(removed.status, removed.stderr).toBe(0);
    expect(removed.stdout).toContain(`Removed remote “Build server” (${remoteId})`);
    expect((await api(local, localKey, '/api/remotes')).remotes).toEqual([]);
    const { instances } = await api(local, localKey, '/api/instances');
    expect(instances.every((instance: { location: string }) => instance.location === 'local')).toBe(true);
    expect((await api(local, localKey, '/api/secrets')).secrets).toEqual([]);
    expect(steward(['remotes', 'list']).stdout).toContain('No remotes.');
  }, 60_000);
});

describe('steward remotes, on a data folder no daemon serves', () => {
  it('adds it there (key from STEWARD_REMOTE_KEY), lists it with a state checked now, and the next daemon follows it', async () => {
    const inFolder = (args: string[], env: NodeJS.ProcessEnv = {}) => cliResult([...args, '--data-dir', folderDir], { STEWARD_API_KEY: '', STEWARD_REMOTE_KEY: '', ...env });
    const added = inFolder(['remotes', 'add', 'Server', remote.url], { STEWARD_REMOTE_KEY: remoteKey });
    expect(added.status, added.stderr).toBe(0);
    expect(added.stdout).toContain('Connected: Steward');
    expect(added.stdout).toContain('it follows the remote from its next start');
    const listed = inFolder(['remotes', 'list']);
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/rem_\w+ +Server +http:\/\/127\.0\.0\.1:\d+ +connected/);
    expect(listed.stdout).toContain('their state is from a check just made');
    for (const output of [added.stdout, added.stderr, listed.stdout, listed.stderr]) expect(output).not.toContain(remoteKey);

    const key = keyOf(folderDir);
    const daemon = await startDaemon(folderDir);
    daemons.push(daemon);
    const followed = await until('the remote followed from the start', async () => {
      const [state] = (await api(daemon, key, '/api/remotes')).remotes;
      return state?.state === 'connected' ? state : undefined;
    });
    expect(followed).toMatchObject({ name: 'Server', apiKeyRef: 'remote-server', instanceCount: 1 });
  }, 60_000);
});

// The git source against remotes: a real `git daemon` on loopback (git://, fetched into Steward's
// own mirror; stopped and started again while pushes land), a real HTTPS server in front of
// `git http-backend` asking for a token, the address rules, and the preview of a remote branch.
import { execFileSync } from 'node:child_process';
import dns from 'node:dns';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { waitFor } from '../support/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { type TestCore, startTestCore } from '../support/core';
import { type GitDaemon, ada, bob, commitFiles, gitIn, repoPair, startGitDaemon, tipOf } from '../support/git-repos';
import { startGitHttps } from '../support/git-https';
import { createGit, eventIn, failing, fast, listening, runCount, runsOf } from '../support/git-source';

describe('git source, a remote through git daemon', () => {
  let t: TestCore;
  let daemon: GitDaemon;
  let repos: ReturnType<typeof repoPair>;
  beforeAll(async () => {
    t = await startTestCore({ clock: systemClock, sourceBackoffMs: fast });
    repos = repoPair();
    daemon = await startGitDaemon(repos.parent);
  });
  afterAll(async () => {
    await daemon.stop();
    await t.close();
  });

  it('fetches pushes from git://127.0.0.1 (named, so allowed) into its own mirror and runs for each', async () => {
    const id = await createGit(t, { repository: daemon.url('origin.git'), branch: 'main', pollSeconds: 10 });
    const health = await listening(t, id);
    expect(health.how).toBe('fetched every 10 s');
    const before = tipOf(repos.origin);
    commitFiles(repos.work, { 'remote.txt': 'r\n' }, 'Over the wire', bob);
    const after = commitFiles(repos.work, { 'remote.txt': 'r2\n' }, 'Again', ada);
    gitIn(repos.work, ['push', '--quiet', daemon.url('origin.git'), 'main']);
    const [run] = await runCount(t, id, 1, 30_000);
    expect(eventIn(run.prompt)).toMatchObject({ repository: daemon.url('origin.git'), before, after, count: 2, messages: ['Over the wire', 'Again'] });
    expect(eventIn(run.prompt).commits[0].files).toEqual(['remote.txt']);
    expect(fs.existsSync(path.join(t.dataDir, 'sources', `${id}.git`, 'HEAD'))).toBe(true);
    // Pointed elsewhere, it starts from a new baseline without the old mirror; deleted, it leaves none.
    expect((await t.api('PUT', `/api/automations/${id}`, { trigger: { git: { repository: daemon.url('origin.git'), branch: 'other', pollSeconds: 10 } } })).status).toBe(200);
    await waitFor(() => !fs.existsSync(path.join(t.dataDir, 'sources', `${id}.git`, 'refs', 'steward', 'fetched')), { what: 'the old mirror to go' });
    expect((await t.api('DELETE', `/api/automations/${id}`)).status).toBe(204);
    await waitFor(() => !fs.existsSync(path.join(t.dataDir, 'sources', `${id}.git`)), { what: 'the mirror to go with its automation' });
  });

  it('refuses a host that resolves to this machine without being named as such, in the rule\'s words', async () => {
    // This machine's own name resolves to a loopback address here (/etc/hosts); only 127.0.0.1 or
    // localhost written as such names this machine.
    const name = os.hostname();
    const resolved = await dns.promises.lookup(name).catch(() => undefined);
    const id = await createGit(t, { repository: `git://${name}:${daemon.port}/origin.git`, branch: 'main', pollSeconds: 10 });
    const health = await failing(t, id);
    const why = resolved === undefined ? 'could not be resolved' : resolved.address.startsWith('127.') ? `resolves to ${resolved.address}: this machine` : 'resolves to';
    expect(health.error).toContain(`Steward will not connect to ${name}:${daemon.port}: it ${why}`);
    expect(fs.existsSync(path.join(t.dataDir, 'sources', `${id}.git`, 'refs', 'steward', 'fetched'))).toBe(false);
  });

  it('fails while the daemon is down, and once back handles what was pushed meanwhile, once', async () => {
    const id = await createGit(t, { repository: daemon.url('origin.git'), branch: 'main', pollSeconds: 10 });
    await listening(t, id);
    const runsBefore = (await runsOf(t, id)).length;
    await daemon.stop();
    const down = await failing(t, id, 30_000);
    expect(down.error).toMatch(/unable to connect|Connection refused|Could not read from remote/i);
    // Pushed straight into the served folder while the daemon is down.
    const before = tipOf(repos.origin);
    const after = commitFiles(repos.work, { 'outage.txt': 'o\n' }, 'During the outage', ada);
    gitIn(repos.work, ['push', '--quiet', 'origin', 'main']);
    daemon = await startGitDaemon(repos.parent, daemon.port);
    const runs = await runCount(t, id, runsBefore + 1, 30_000);
    expect(eventIn(runs.at(-1)!.prompt)).toMatchObject({ range: `${before}..${after}`, messages: ['During the outage'] });
    expect((await listening(t, id)).failures).toBe(0);
    expect(await runsOf(t, id)).toHaveLength(runsBefore + 1);
  });

  it('previews a remote branch\'s recent commits without keeping a mirror', async () => {
    const response = await t.api('POST', '/api/automations/preview', { trigger: { git: { repository: daemon.url('origin.git') } } });
    expect(response.status, response.text).toBe(200);
    // Every commit of the branch was made in the last minutes.
    const count = Number(gitIn(repos.origin, ['rev-list', '--count', 'main']).trim());
    expect(response.body.events).toHaveLength(count);
    expect(response.body.events[0].summary).toMatch(new RegExp(`^${tipOf(repos.origin).slice(0, 7)} on main of git://127\\.0\\.0\\.1:\\d+/origin\\.git by `));
    expect(response.body.events.at(-1).summary).toContain('First commit');
    expect(fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('steward-git-preview-'))).toEqual([]);
  });

  it('previews nothing for a remote branch with no commit in the last day', async () => {
    const old = path.join(repos.parent, 'old.git');
    gitIn(repos.parent, ['init', '--quiet', '--bare', '--initial-branch=main', old]);
    const work = path.join(repos.parent, 'old-work');
    gitIn(repos.parent, ['init', '--quiet', '--initial-branch=main', work]);
    const dated = { ...process.env, GIT_AUTHOR_DATE: '2020-01-02T03:04:05Z', GIT_COMMITTER_DATE: '2020-01-02T03:04:05Z' };
    execFileSync('git', ['-c', 'user.name=Old', '-c', 'user.email=old@example.com', 'commit', '--quiet', '--allow-empty', '-m', 'Long ago'], { cwd: work, env: dated });
    gitIn(work, ['push', '--quiet', old, 'main']);
    const response = await t.api('POST', '/api/automations/preview', { trigger: { git: { repository: daemon.url('old.git') } } });
    expect(response.status, response.text).toBe(200);
    expect(response.body.events).toEqual([]);
  });

  it('a missing remote branch fails with clear words', async () => {
    const id = await createGit(t, { repository: daemon.url('origin.git'), branch: 'nope', pollSeconds: 10 });
    expect((await failing(t, id)).error).toMatch(/There is no branch "nope" in git:\/\/127\.0\.0\.1/);
  });
});


describe('git source, an https remote with a token', () => {
  const token = 'ghp_s3cretTokenValue';
  const header = `Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
  let t: TestCore;
  let server: Awaited<ReturnType<typeof startGitHttps>>;
  let repos: ReturnType<typeof repoPair>;
  const caBefore = process.env.GIT_SSL_CAINFO;
  beforeAll(async () => {
    repos = repoPair();
    server = await startGitHttps(repos.parent, header);
    // The core's git runs in this process's environment: it trusts the throwaway certificate.
    process.env.GIT_SSL_CAINFO = server.caFile;
    t = await startTestCore({ clock: systemClock, sourceBackoffMs: fast });
    expect((await t.api('PUT', '/api/secrets/gitToken', { value: token })).status).toBe(200);
  });
  afterAll(async () => {
    if (caBefore === undefined) delete process.env.GIT_SSL_CAINFO;
    else process.env.GIT_SSL_CAINFO = caBefore;
    await server.stop();
    await t.close();
  });

  it('sends the token as a header git never shows and keeps it nowhere on disk', async () => {
    const id = await createGit(t, { repository: server.url('origin.git'), branch: 'main', credential: 'gitToken', pollSeconds: 10 });
    await listening(t, id);
    const before = tipOf(repos.origin);
    const after = commitFiles(repos.work, { 'secure.txt': 's\n' }, 'Over https', bob);
    gitIn(repos.work, ['push', '--quiet', 'origin', 'main']);
    const [run] = await runCount(t, id, 1, 30_000);
    expect(eventIn(run.prompt)).toMatchObject({ repository: server.url('origin.git'), range: `${before}..${after}` });
    expect(server.authorizations.length).toBeGreaterThan(0);
    expect(new Set(server.authorizations)).toEqual(new Set([header]));
    // Nothing in the mirror (its config, its refs, FETCH_HEAD) holds the token in any form.
    const mirror = path.join(t.dataDir, 'sources', `${id}.git`);
    const texts = fs.readdirSync(mirror, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && !entry.parentPath.includes('objects'))
      .map((entry) => fs.readFileSync(path.join(entry.parentPath, entry.name), 'latin1'));
    expect(texts.length).toBeGreaterThan(2);
    for (const text of texts) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(header.slice(6));
    }
  });

  it('without the token fails in git\'s words, asking no one', async () => {
    const id = await createGit(t, { repository: server.url('origin.git'), branch: 'main', pollSeconds: 10 });
    const health = await failing(t, id);
    expect(health.error).toMatch(/could not read Username|Authentication failed|401/i);
    expect(health.error).not.toContain(token);
  });
});

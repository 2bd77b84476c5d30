// `steward export|apply --remote NAME`: two real `steward serve` daemons, the first following the
// second (`steward remotes add`, the second's admin key in STEWARD_REMOTE_KEY). An apply through the
// first lands on the second only; a dry run changes nothing there; an export prints the second's
// configuration; a remote that is not followed is a clear error and a non-zero exit.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { type Server, startDaemon } from '../support/processes';
import { adminKeyOf, apiOf, exportText, steward } from '../support/steward-cli';
import { tempDir } from '../support/temp';
import { waitFor } from '../support/wait';

const folder = tempDir('steward-remote-apply-');
const localDir = path.join(folder, 'local');
const remoteDir = path.join(folder, 'remote');
const file = path.join(folder, 'build.yaml');
let local: Server;
let remote: Server;
let localKey: string;
let remoteKey: string;
let localApi: ReturnType<typeof apiOf>;
let remoteApi: ReturnType<typeof apiOf>;

const text = (prompt: string) =>
  [
    'kind: instance\nname: Builder\nagent:\n  provider: command\n  preset: codex\n',
    `kind: automation\nname: Nightly build\ninstance: Builder\ncronExpression: "0 2 * * *"\nenabled: false\nprompt: |-\n  ${prompt}\n`,
    'kind: webhook\nname: Deploy hook\ninstance: Builder\nenabled: false\npromptTemplate: |-\n  Deploy {{payload.ref}}\n',
  ].join('---\n');

/** The CLI on the first daemon's folder and port, with its key. */
const onFirst = (args: string[], env: NodeJS.ProcessEnv = {}, input?: string) =>
  steward([...args, '--data-dir', localDir, '--port', new URL(local.url).port], { STEWARD_API_KEY: localKey, ...env }, input);

const names = (yaml: string) => parseAllDocuments(yaml).map((document) => `${String(document.get('kind'))} ${String(document.get('name'))}`);

beforeAll(async () => {
  localKey = adminKeyOf(localDir);
  remoteKey = adminKeyOf(remoteDir);
  [local, remote] = await Promise.all([startDaemon(localDir), startDaemon(remoteDir)]);
  localApi = apiOf(local.url, localKey);
  remoteApi = apiOf(remote.url, remoteKey);
  const added = await onFirst(['remotes', 'add', 'Build server', remote.url], { STEWARD_REMOTE_KEY: remoteKey });
  expect(added.status, added.stderr).toBe(0);
  await waitFor(async () => ((await localApi('GET', '/api/remotes')).body.remotes as { state: string }[])[0]?.state, { what: 'the remote to be connected', until: (state) => state === 'connected' });
  fs.writeFileSync(file, text('Build main and report.'));
}, 90_000);

afterAll(async () => {
  await Promise.all([local?.stop(), remote?.stop()]);
  fs.rmSync(folder, { recursive: true, force: true });
});

describe('apply and export --remote, through a real second Steward', () => {
  it('a dry run shows the changes on the remote and changes nothing anywhere', async () => {
    const [localBefore, remoteBefore] = [await exportText(localApi), await exportText(remoteApi)];
    const dry = await onFirst(['apply', '-f', file, '--dry-run', '--remote', 'Build server']);
    expect(dry.stderr).toBe('');
    expect(dry.status).toBe(0);
    expect(dry.stdout).toContain(`+ instance "Builder" (add, from ${file})`);
    expect(dry.stdout).toContain(`+ automation "Nightly build" (add, from ${file})`);
    expect(dry.stdout).toContain('    + prompt: Build main and report.\n');
    expect(dry.stdout).toContain('3 to add; 0 unchanged.\nDry run: nothing changed.\n');
    expect(await exportText(remoteApi)).toBe(remoteBefore);
    expect(await exportText(localApi)).toBe(localBefore);
  }, 60_000);

  it('applies on the second Steward only: its own export shows it, the first one’s does not', async () => {
    const localBefore = await exportText(localApi);
    const applied = await onFirst(['apply', '-f', file, '--remote', 'Build server']);
    expect(applied.stderr).toBe('');
    expect(applied.status).toBe(0);
    expect(applied.stdout).toContain('Applied: 3 to add; 0 unchanged.\n');

    const { files } = (await remoteApi('GET', '/api/config/export')).body as { files: { path: string; text: string }[] };
    expect(files.map((each) => each.path)).toEqual(['instances/builder.yaml', 'instances/steward.yaml', 'automations/nightly-build.yaml', 'webhooks/deploy-hook.yaml']);
    expect(files.find((each) => each.path === 'automations/nightly-build.yaml')!.text).toContain('instance: Builder\n');
    expect(files.find((each) => each.path === 'automations/nightly-build.yaml')!.text).toContain('Build main and report.');
    const webhook = ((await remoteApi('GET', '/api/webhooks')).body.webhooks as { name: string; token: string }[]).find((each) => each.name === 'Deploy hook');
    expect(webhook?.token).toMatch(/\S{16,}/);

    // The first Steward follows the second, so the new instance shows there as the remote's; its
    // own configuration is what it was.
    await waitFor(async () => ((await localApi('GET', '/api/instances')).body.instances as { name: string }[]).map((each) => each.name), {
      what: 'the remote instance to be followed',
      until: (list) => list.includes('Builder'),
    });
    expect(await exportText(localApi)).toBe(localBefore);

    const again = await onFirst(['apply', '-f', file, '--remote', 'Build server']);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toBe('No changes: 3 resources are as the files say.\n');
  }, 60_000);

  it('a change through the first Steward is a change on the second, shown as a diff first', async () => {
    fs.writeFileSync(file, text('Build main and the release branch.'));
    const dry = await onFirst(['apply', '-f', file, '--dry-run', '--remote', 'Build server']);
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('~ automation "Nightly build" (change');
    expect(dry.stdout).toContain('    - prompt: Build main and report.\n');
    expect(dry.stdout).toContain('    + prompt: Build main and the release branch.\n');
    expect(dry.stdout).toContain('1 to change; 2 unchanged.\nDry run: nothing changed.\n');
    expect(((await remoteApi('GET', '/api/automations')).body.automations as { name: string; prompt: string }[]).find((each) => each.name === 'Nightly build')!.prompt).toBe('Build main and report.');

    const applied = await onFirst(['apply', '-f', file, '--remote', 'Build server']);
    expect(applied.status, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Applied: 1 to change; 2 unchanged.\n');
    expect(((await remoteApi('GET', '/api/automations')).body.automations as { name: string; prompt: string }[]).find((each) => each.name === 'Nightly build')!.prompt).toBe('Build main and the release branch.');
  }, 60_000);

  it('exports the second Steward’s configuration, whole or one resource, to stdout or a folder', async () => {
    const whole = await onFirst(['export', '--remote', 'Build server']);
    expect(whole.stderr).toBe('');
    expect(whole.status).toBe(0);
    const { files } = (await remoteApi('GET', '/api/config/export')).body as { files: { path: string; text: string }[] };
    expect(whole.stdout).toBe(files.map((each) => each.text).join('---\n'));
    expect(names(whole.stdout)).toEqual(['instance Builder', 'instance Steward', 'automation Nightly build', 'webhook Deploy hook']);
    // Not the first one's.
    const own = await onFirst(['export']);
    expect(names(own.stdout)).toEqual(['instance Steward']);

    const one = await onFirst(['export', 'automation', 'Nightly build', '--remote', 'Build server']);
    expect(one.status, one.stderr).toBe(0);
    expect(one.stdout).toBe(files.find((each) => each.path === 'automations/nightly-build.yaml')!.text);

    const dir = path.join(folder, 'exported');
    const written = await onFirst(['export', '-o', dir, '--remote', 'Build server']);
    expect(written.status, written.stderr).toBe(0);
    for (const each of files) expect(fs.readFileSync(path.join(dir, each.path), 'utf8'), each.path).toBe(each.text);
  }, 60_000);

  it('an invalid file sent to the remote names its line there and changes nothing', async () => {
    const before = await exportText(remoteApi);
    const broken = path.join(folder, 'broken.yaml');
    fs.writeFileSync(broken, 'kind: automation\nname: Broken\ncronExpression: "61 * * * *"\nprompt: x\nshape: round\n');
    const refused = await onFirst(['apply', '-f', broken, '--remote', 'Build server']);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`${broken}:5:1: unknown field "shape" for automation`);
    expect(refused.stderr).toMatch(new RegExp(`${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:17: `));
    expect(await exportText(remoteApi)).toBe(before);
  }, 60_000);

  it('a remote that is not followed is a clear error and a non-zero exit, for apply and export', async () => {
    const [localBefore, remoteBefore] = [await exportText(localApi), await exportText(remoteApi)];
    for (const args of [
      ['apply', '-f', file, '--remote', 'Nowhere'],
      ['apply', '-f', file, '--dry-run', '--remote', 'Nowhere'],
      ['export', '--remote', 'Nowhere'],
    ]) {
      const result = await onFirst(args);
      expect(result.status, args.join(' ')).not.toBe(0);
      expect(result.stderr, args.join(' ')).toContain('No remote Steward named Nowhere (see steward remotes list).');
      expect(result.stdout, args.join(' ')).toBe('');
    }
    expect(await exportText(localApi)).toBe(localBefore);
    expect(await exportText(remoteApi)).toBe(remoteBefore);
  }, 60_000);
});

// The package as a server gets it: `npm pack` of a copy of the work tree (its prepack builds
// out/), `npm install -g` of the tarball into a temp prefix, then the installed `steward`: keys,
// serve (health, the web UI, a webhook triggered), SIGTERM, backup and the service unit.
//
// The install skips install scripts and takes better-sqlite3's native binding from this checkout
// (same version, same Node): compiling SQLite again costs minutes, and `npm ci` has just proven
// that compile on this machine. Everything else is what `npm install -g` of the tarball does.
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sqliteBinding } from '../../src/main/core/store/database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../support/processes';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'steward-pack-'));
const stage = path.join(work, 'stage');
const prefix = path.join(work, 'prefix');
const dataDir = path.join(work, 'data');
const bin = path.join(prefix, 'bin', 'steward');
const installed = path.join(prefix, 'lib', 'node_modules', 'steward');
let tarball: string;
let files: string[];
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } });
const steward = (args: string[], env: NodeJS.ProcessEnv = {}) => spawnSync(bin, args, { encoding: 'utf8', env: { ...process.env, ...env } });

/** The work tree as a fresh checkout has it (no build output, caches or data), sharing node_modules. */
function copyWorkTree(): void {
  const skipped = new Set(['.git', 'node_modules', 'out', 'dist', '.cache', '.steward-data', 'test-results', 'test-artifacts']);
  fs.cpSync(root, stage, { recursive: true, filter: (from) => !skipped.has(path.relative(root, from).split(path.sep)[0]) });
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(stage, 'node_modules'));
}

beforeAll(() => {
  copyWorkTree();
  const output = npm(['pack', '--json', '--pack-destination', work], stage);
  // The prepack build may print before npm's JSON.
  const packed = JSON.parse(output.slice(output.search(/^\[/m))) as [{ filename: string; files: { path: string }[] }];
  tarball = path.join(work, packed[0].filename);
  files = packed[0].files.map((file) => file.path);

  npm(['install', '--global', '--prefix', prefix, tarball, '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'], work);
  const binding = 'build/Release/better_sqlite3.node';
  const version = (dir: string) => (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  const ours = path.join(root, 'node_modules/better-sqlite3');
  const theirs = path.join(installed, 'node_modules/better-sqlite3');
  if (version(ours) === version(theirs)) {
    fs.mkdirSync(path.dirname(path.join(theirs, binding)), { recursive: true });
    fs.copyFileSync(path.join(ours, binding), path.join(theirs, binding));
  } else {
    npm(['rebuild', 'better-sqlite3'], installed); // another version resolved: compile it (slow)
  }
}, 600_000);

describe('the packed package', () => {
  it('holds the built daemon and web UI, and no sources', () => {
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'out/main/cli.js', 'out/renderer/index.html']));
    expect(files.filter((file) => /^(src|test|bench|scripts|node_modules|out\/preload)\//.test(file))).toEqual([]);
    const manifest = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8'));
    expect(manifest.bin).toEqual({ steward: 'out/main/cli.js' });
    // Only what cannot be bundled is installed beside it.
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['@agentclientprotocol/sdk', '@ngrok/ngrok', 'better-sqlite3', 'localtunnel']);
  });

  it('installs a steward command that serves, takes triggers and stops on SIGTERM', async () => {
    const created = steward(['keys', 'create', '--name', 'server', '--data-dir', dataDir]);
    expect(created.stderr).toBe('');
    const key = created.stdout.trim().split('\n').at(-1)!;
    expect(key).toMatch(/^stw_/);

    const daemon = spawn(bin, ['serve', '--port', '0', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, STEWARD_LOG_LEVEL: 'warn' } });
    const exited = new Promise<number | null>((resolve) => daemon.once('exit', resolve));
    try {
      const { url, loginLink } = await listening(daemon);
      const health = await fetch(`${url}/api/health`);
      expect(health.status).toBe(200);
      // The web UI came in the tarball: the login link opens it.
      const login = await fetch(loginLink, { redirect: 'manual' });
      expect(login.status).toBe(303);
      const page = await fetch(`${url}/`, { headers: { cookie: login.headers.get('set-cookie')!.split(';')[0] } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root"');

      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const made = await fetch(`${url}/api/webhooks`, { method: 'POST', headers, body: JSON.stringify({ name: 'from the tarball', promptTemplate: 'Hi {{payload}}' }) });
      expect(made.status).toBe(201);
      const { webhook } = (await made.json()) as { webhook: { triggerUrl: string } };
      const triggered = await fetch(webhook.triggerUrl, { method: 'POST', body: '{"ping":1}' });
      expect(triggered.status).toBe(202);
    } finally {
      daemon.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 60_000);

  it('backs up the database it wrote', () => {
    const file = path.join(work, 'backup.db');
    const result = steward(['backup', file, '--data-dir', dataDir]);
    expect(result.status).toBe(0);
    const copy = new Database(file, { readonly: true, ...sqliteBinding() });
    expect(copy.prepare('SELECT name FROM webhooks').pluck().all()).toEqual(['from the tarball']);
    copy.close();
  });

  it.runIf(process.platform === 'linux')('installs a systemd user unit that runs the installed command', () => {
    const config = path.join(work, 'config');
    // No user session bus here, whatever the machine: the command writes the unit and stops there.
    const env = { XDG_CONFIG_HOME: config, XDG_RUNTIME_DIR: path.join(work, 'no-runtime'), DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' };
    const install = steward(['service', 'install', '--port', '7399', '--data-dir', dataDir], env);
    expect(install.stderr).toBe('');
    expect(install.status).toBe(0);
    expect(install.stdout).toContain('systemctl --user daemon-reload && systemctl --user enable --now steward');
    const unitFile = path.join(config, 'systemd/user/steward.service');
    const unit = fs.readFileSync(unitFile, 'utf8');
    expect(unit).toContain(`ExecStart=${process.execPath} ${fs.realpathSync(path.join(installed, 'out/main/cli.js'))} serve --data-dir ${dataDir} --port 7399 --host 127.0.0.1\n`);
    const runtime = fs.mkdtempSync(path.join(work, 'runtime-'));
    const verified = spawnSync('systemd-analyze', ['--user', 'verify', unitFile], { encoding: 'utf8', env: { ...process.env, XDG_RUNTIME_DIR: runtime } });
    // test/cli/service.test.ts requires systemd-analyze under CI; here it is a bonus.
    if (!verified.error) expect(`${verified.stderr}${verified.status}`).toBe('0');
    expect(steward(['service', 'status'], env).stdout).toContain('Installed: yes');
    expect(steward(['service', 'uninstall'], env).status).toBe(0);
    expect(steward(['service', 'status'], env).stdout).toContain('Installed: no');
  });
});

function listening(child: ChildProcess): Promise<{ url: string; loginLink: string }> {
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening on (http:\/\/\S+)[\s\S]*?(http:\/\/\S+\/login\?token=\S+)/.exec(seen);
      if (match) resolve({ url: match[1], loginLink: match[2] });
    });
    child.stderr!.on('data', (chunk: Buffer) => (seen += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`steward serve exited (${code}): ${seen}`)));
  });
}

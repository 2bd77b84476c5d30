// The steward command as a user runs it: real child processes on a real data folder.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/core';
import { cliResult, startDaemon } from '../support/processes';

const dirs: string[] = [];
const dataDir = () => {
  const dir = path.join(tempDir('steward-cli-'), 'data');
  dirs.push(path.dirname(dir));
  return dir;
};
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

describe('steward keys', () => {
  // Each CLI call starts a process through tsx (3 to 5 s each when the whole suite runs on two
  // cores): the time limits below leave room for that, they are no speed target.
  it('create prints the key as the last line of stdout; list shows it without the secret; revoke ends it', () => {
    const dir = dataDir();
    const created = cliResult(['keys', 'create', '--name', 'laptop', '--data-dir', dir]);
    expect(created.status).toBe(0);
    const lines = created.stdout.trim().split('\n');
    const key = lines.at(-1)!;
    expect(key).toMatch(/^stw_[A-Za-z0-9_-]{43}$/);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dir, 'steward.db')).mode & 0o777).toBe(0o600);

    const listed = cliResult(['keys', 'list', '--data-dir', dir]);
    expect(listed.stdout).toContain('laptop');
    expect(listed.stdout).not.toContain(key);
    const id = /key_[0-9A-Z]{26}/.exec(listed.stdout)![0];

    expect(cliResult(['keys', 'revoke', id, '--data-dir', dir]).status).toBe(0);
    expect(cliResult(['keys', 'list', '--data-dir', dir]).stdout).not.toContain(id);
    const again = cliResult(['keys', 'revoke', id, '--data-dir', dir]);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('No active API key');
  }, 60_000);

  it('reads the data folder from STEWARD_DATA_DIR', () => {
    const dir = dataDir();
    expect(cliResult(['keys', 'create', '--name', 'env'], { STEWARD_DATA_DIR: dir }).status).toBe(0);
    expect(fs.existsSync(path.join(dir, 'steward.db'))).toBe(true);
  });

  it('explains usage mistakes with exit code 2', () => {
    const noName = cliResult(['keys', 'create', '--data-dir', dataDir()]);
    expect(noName.status).toBe(2);
    expect(noName.stderr).toContain('--name');
    const unknown = cliResult(['frobnicate']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('Unknown command');
    const badPort = cliResult(['serve', '--port', 'eighty', '--data-dir', dataDir()]);
    expect(badPort.status).toBe(2);
    expect(badPort.stderr).toContain('port');
  });
});

describe('steward serve', () => {
  it('serves on 127.0.0.1, takes a key made by the CLI, and stops cleanly on SIGTERM', async () => {
    const dir = dataDir();
    const key = cliResult(['keys', 'create', '--name', 'ci', '--data-dir', dir]).stdout.trim().split('\n').at(-1)!;
    const daemon = await startDaemon(dir);
    expect(daemon.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const created = await fetch(`${daemon.url}/api/automations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Morning', prompt: 'Good morning', cronExpression: '0 7 * * *' }),
    });
    expect(created.status).toBe(201);

    const exited = new Promise<number | null>((resolve) => daemon.process.once('exit', (code) => resolve(code)));
    daemon.process.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(daemon.output().stdout).toContain('SIGTERM: stopping');
    await expect(fetch(`${daemon.url}/api/health`)).rejects.toThrow();
    // Nothing secret reached the logs.
    expect(daemon.output().stderr).not.toContain(key);
  });

  it('keeps data across restarts and honours STEWARD_PORT; SIGINT stops it too', async () => {
    const dir = dataDir();
    const port = await freePort();
    const key = cliResult(['keys', 'create', '--name', 'ci', '--data-dir', dir]).stdout.trim().split('\n').at(-1)!;
    const first = await startDaemon(dir, [], { STEWARD_PORT: String(port) });
    expect(first.url).toBe(`http://127.0.0.1:${port}`);
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    await fetch(`${first.url}/api/webhooks`, { method: 'POST', headers, body: JSON.stringify({ name: 'kept', promptTemplate: '{{payload}}' }) });
    const exited = new Promise<number | null>((resolve) => first.process.once('exit', (code) => resolve(code)));
    first.process.kill('SIGINT');
    expect(await exited).toBe(0);

    const second = await startDaemon(dir);
    const listed = (await (await fetch(`${second.url}/api/webhooks`, { headers })).json()) as { webhooks: { name: string }[] };
    expect(listed.webhooks.map((w) => w.name)).toEqual(['kept']);
    await second.stop();
  }, 60_000);

  it('says clearly when the port is taken', async () => {
    const blocker = net.createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => blocker.once('listening', resolve));
    const { port } = blocker.address() as net.AddressInfo;
    const result = cliResult(['serve', '--port', String(port), '--data-dir', dataDir()]);
    blocker.close();
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`Port ${port} is already in use`);
  });
});

// `steward keys create` (and login-link) without --data-dir, as a new user types it while a daemon
// runs on another folder: the command must not make a new, empty data folder whose key that daemon
// refuses. It refuses, naming the folder it would use and saying that the Steward on the port serves
// another; where the default folder is a Steward's, it works as before.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/core';
import { type Server, cliResult, startDaemon } from '../support/processes';

const dirs: string[] = [];
const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** A home whose default data folder ($XDG_DATA_HOME/steward) does not exist; STEWARD_DATA_DIR unset. */
function freshHome(): { env: NodeJS.ProcessEnv; defaultDir: string } {
  const home = tempDir('steward-home-');
  dirs.push(home);
  const dataHome = path.join(home, '.local', 'share');
  return { env: { HOME: home, XDG_DATA_HOME: dataHome, STEWARD_DATA_DIR: '' }, defaultDir: path.join(dataHome, 'steward') };
}

describe('steward keys without --data-dir', () => {
  it('refuses where the default folder holds no Steward, naming it and the daemon that serves another folder', async () => {
    const { env, defaultDir } = freshHome();
    const daemonDir = tempDir('steward-daemon-');
    dirs.push(daemonDir);
    const daemon = await startDaemon(daemonDir, ['--port', '0']);
    servers.push(daemon);
    const port = new URL(daemon.url).port;

    const created = cliResult(['keys', 'create', '--name', 'laptop'], { ...env, STEWARD_PORT: port });
    expect(created.status).toBe(2);
    expect(created.stdout).toBe('');
    expect(created.stderr).toContain(`steward: The Steward answering on http://127.0.0.1:${port} does not serve ${defaultDir}, the default data folder, which holds no Steward`);
    expect(created.stderr).toContain('--data-dir');
    expect(fs.existsSync(defaultDir)).toBe(false);

    const link = cliResult(['login-link'], { ...env, STEWARD_PORT: port });
    expect(link.status).toBe(2);
    expect(fs.existsSync(defaultDir)).toBe(false);

    // With nothing on the port: still refused, saying to start Steward first.
    const alone = cliResult(['keys', 'create', '--name', 'laptop'], { ...env, STEWARD_PORT: String(await freePort()) });
    expect(alone.status).toBe(2);
    expect(alone.stderr).toContain(`No Steward uses ${defaultDir}, the default data folder, yet`);
    expect(fs.existsSync(defaultDir)).toBe(false);

    // The daemon's own folder, named: the key works against it.
    const named = cliResult(['keys', 'create', '--name', 'laptop', '--data-dir', daemonDir], env);
    expect(named.status).toBe(0);
    const key = named.stdout.trim().split('\n').at(-1)!;
    expect((await fetch(`${daemon.url}/api/instances`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
  }, 60_000);

  it('uses the default folder where it is a Steward\'s', async () => {
    const { env, defaultDir } = freshHome();
    fs.mkdirSync(path.dirname(defaultDir), { recursive: true });
    expect(cliResult(['keys', 'create', '--name', 'first', '--data-dir', defaultDir], env).status).toBe(0);
    const created = cliResult(['keys', 'create', '--name', 'second'], { ...env, STEWARD_PORT: String(await freePort()) });
    expect(created.status).toBe(0);
    expect(cliResult(['keys', 'list'], env).stdout).toContain('second');
  }, 60_000);
});

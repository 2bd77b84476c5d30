// One data folder, one Steward serving it: a second core (the desktop app, a second `steward serve`)
// on the same folder stops with an error naming the folder and the holder, until the first closes;
// a crashed holder's lock is taken over; the CLI's key commands work beside the running daemon.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Core, createCore } from '../../src/main/core';
import { lockFileName } from '../../src/main/core/data-lock';
import { silentLogger } from '../../src/main/core/logger';
import { tempDir } from '../support/core';
import { cliResult, startDaemon } from '../support/processes';

const open: Core[] = [];
afterEach(async () => {
  for (const core of open.splice(0)) await core.close();
});

const start = async (dataDir: string, options: { listen?: boolean } = {}) => {
  const core = await createCore({ dataDir, port: 0, logger: silentLogger(), ...options });
  open.push(core);
  return core;
};
const inUse = (dir: string, pid: number) => `The data folder ${dir} is in use by another Steward (pid ${pid}). Stop it, or use --data-dir.`;

describe('the data folder lock', () => {
  it('refuses a second core on the folder until the first closes', async () => {
    const dir = tempDir();
    const first = await start(dir);
    expect(JSON.parse(fs.readFileSync(path.join(dir, lockFileName), 'utf8'))).toMatchObject({ pid: process.pid });
    await expect(start(dir)).rejects.toThrow(inUse(dir, process.pid));
    // The refused core left the holder's lock and database alone.
    expect((await fetch(`${first.url}/api/health`)).status).toBe(200);

    await first.close();
    open.splice(open.indexOf(first), 1);
    expect(fs.existsSync(path.join(dir, lockFileName))).toBe(false);
    const second = await start(dir);
    expect((await fetch(`${second.url}/api/health`)).status).toBe(200);
  });

  it('lets the key commands open the store beside the serving core, without the lock', async () => {
    const dir = tempDir();
    const serving = await start(dir);
    const keys = await start(dir, { listen: false });
    const { key } = keys.services.apiKeys.create('beside the daemon');
    await keys.close();
    open.splice(open.indexOf(keys), 1);
    // Closing it did not drop the serving core's lock.
    expect(fs.existsSync(path.join(dir, lockFileName))).toBe(true);
    expect((await fetch(`${serving.url}/api/keys`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
  });

  it('takes over the lock of a Steward that crashed', async () => {
    const dir = tempDir();
    const gone = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
    fs.writeFileSync(path.join(dir, lockFileName), JSON.stringify({ pid: gone, hostname: os.hostname(), token: 'crashed', startedAt: '2026-01-01T00:00:00.000Z' }));
    await start(dir);
    expect(JSON.parse(fs.readFileSync(path.join(dir, lockFileName), 'utf8'))).toMatchObject({ pid: process.pid });
  });

  it('releases the lock when the core cannot start (the port is taken)', async () => {
    const dir = tempDir();
    const holder = await start(tempDir());
    const port = Number(new URL(holder.url).port);
    await expect(createCore({ dataDir: dir, port, logger: silentLogger() })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    expect(fs.existsSync(path.join(dir, lockFileName))).toBe(false);
  });
});

describe('steward serve beside another Steward', () => {
  it('stops with the error, while keys create still works on the folder', async () => {
    const dir = tempDir();
    const daemon = await startDaemon(dir);
    try {
      const second = cliResult(['serve', '--port', '0', '--data-dir', dir]);
      expect(second.status).toBe(2); // a usage error: a service unit does not restart on it
      expect(second.stderr).toContain(inUse(dir, daemon.process.pid!));
      const created = cliResult(['keys', 'create', '--name', 'beside', '--data-dir', dir]);
      expect(created.status).toBe(0);
      const key = created.stdout.trim().split('\n').at(-1)!;
      expect((await fetch(`${daemon.url}/api/keys`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    } finally {
      await daemon.stop();
    }
    expect(fs.existsSync(path.join(dir, lockFileName))).toBe(false);
  });
});

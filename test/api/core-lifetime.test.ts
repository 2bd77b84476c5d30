// The core owns what it starts. Started and stopped 100 times in a loop on one data folder, it
// leaves no handle, timer, socket, file descriptor or child process behind; a start that fails
// (its port taken) releases what it had taken, so the next start on the same folder works.
import fs from 'node:fs';
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { type Core, createCore } from '../../src/main/core';
import { silentLogger } from '../../src/main/core/logger';
import { tempDir } from '../support/core';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** What this process holds now, by kind (Timeout, TCPServerWrap, FSReqCallback, ...), and its open descriptors and children. */
function holdings(): { resources: Record<string, number>; fds: number; children: number } {
  const resources: Record<string, number> = {};
  // File requests in flight come and go with the test runner's own work: not held.
  for (const kind of process.getActiveResourcesInfo().filter((each) => !each.startsWith('FSReq'))) resources[kind] = (resources[kind] ?? 0) + 1;
  const children = fs.readdirSync('/proc').filter((name) => {
    if (!/^\d+$/.test(name)) return false;
    try {
      return fs.readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.split(' ')[1] === String(process.pid);
    } catch {
      return false;
    }
  }).length;
  return { resources, fds: fs.readdirSync('/proc/self/fd').length, children };
}

/** Closed handles are released on the next turns of the event loop. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

const start = (dataDir: string, port = 0): Promise<Core> => createCore({ dataDir, port, logger: silentLogger() });

describe('the core', () => {
  it('starts and stops 100 times and leaves nothing behind', async () => {
    const dataDir = tempDir('steward-lifetime-');
    dirs.push(dataDir);
    // The first start makes the folder (the database, the default instance and its probe): warm-up, not counted.
    await (await start(dataDir)).close();
    await settle();
    const before = holdings();
    for (let round = 0; round < 100; round++) {
      const core = await start(dataDir);
      expect((await fetch(`${core.url}/api/health`)).status).toBe(200);
      await core.close();
    }
    await settle();
    const after = holdings();
    expect(after.resources).toEqual(before.resources);
    expect(after.fds).toBeLessThanOrEqual(before.fds);
    expect(after.children).toBe(before.children);
  }, 180_000);

  it('releases what it took when its start fails, so that the next start on the folder works', async () => {
    const dataDir = tempDir('steward-failed-start-');
    dirs.push(dataDir);
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as net.AddressInfo;
    await settle();
    const before = holdings();
    try {
      await expect(start(dataDir, port)).rejects.toThrow(/EADDRINUSE/);
      await settle();
      expect(holdings().resources).toEqual(before.resources);
      // The data folder's lock and its database were let go.
      const core = await start(dataDir);
      expect((await fetch(`${core.url}/api/health`)).status).toBe(200);
      await core.close();
    } finally {
      taken.close();
    }
  });
});

// The data folder's serving lock on its own: one holder at a time, the error naming the holder,
// stale locks (a dead pid, a zombie, a pid reused by another program, an earlier process with our
// pid, a damaged file) taken over, and a release that never removes a lock someone else holds.
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirInUseError, acquireDataLock, dataDirServer, isProcessAlive, lockFileName } from '../../src/main/core/data-lock';
import { identityOf } from '../../src/main/core/process-identity';
import { tempDir } from '../support/core';

/** A pid that certainly belonged to a process which has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

const root = path.resolve(import.meta.dirname, '../..');

// A process that waits for the starting gun (a file appearing), tries the lock, says how it went,
// and holds a lock it won until its stdin closes.
const contender = `
import fs from 'node:fs';
import { acquireDataLock } from ${JSON.stringify(path.join(root, 'src/main/core/data-lock.ts'))};
const [dir, gun] = process.argv.slice(1);
process.stdout.write('ready\\n');
while (!fs.existsSync(gun));
try {
  const lock = acquireDataLock(dir);
  process.stdout.write('won\\n');
  process.stdin.on('end', () => lock.release()).resume();
} catch (error) {
  process.stdout.write(error.code === 'data_dir_in_use' ? 'lost ' + error.message + '\\n' : 'failed ' + error.stack + '\\n');
}
`;

function race(dir: string, count: number): Promise<{ children: ChildProcessWithoutNullStreams[]; outcomes: string[] }> {
  const gun = path.join(tempDir(), 'go');
  const children = Array.from({ length: count }, () => spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', contender, dir, gun], { cwd: root }));
  const lines = children.map((child) => {
    let out = '';
    const seen = (text: string) => new Promise<string>((resolve) => {
      const check = () => {
        const line = out.split('\n').find((l) => l.startsWith(text));
        if (line !== undefined) resolve(line);
      };
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        check();
      });
      check();
    });
    return { ready: seen('ready'), outcome: Promise.race([seen('won'), seen('lost'), seen('failed')]) };
  });
  return Promise.all(lines.map((l) => l.ready)).then(async () => {
    fs.writeFileSync(gun, '');
    return { children, outcomes: await Promise.all(lines.map((l) => l.outcome)) };
  });
}

const writeLock = (dir: string, owner: object) => fs.writeFileSync(path.join(dir, lockFileName), JSON.stringify(owner));
const readLock = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, lockFileName), 'utf8')) as { pid: number; hostname: string; token: string };

describe('the data folder lock', () => {
  it('is held by one at a time; the second is told the folder and the holder’s pid', () => {
    const dir = tempDir();
    const first = acquireDataLock(dir);
    expect(readLock(dir)).toMatchObject({ pid: process.pid, hostname: os.hostname() });
    expect(() => acquireDataLock(dir)).toThrow(new DataDirInUseError(dir, process.pid));
    expect(() => acquireDataLock(dir)).toThrow(`The data folder ${dir} is in use by another Steward (pid ${process.pid}). Stop it, or use --data-dir.`);
    first.release();
    expect(fs.existsSync(path.join(dir, lockFileName))).toBe(false);
    acquireDataLock(dir).release();
    // Nothing is left beside it.
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('refuses while another live process holds it', () => {
    const dir = tempDir();
    writeLock(dir, { pid: process.ppid, hostname: os.hostname(), token: 'other', startedAt: '' });
    expect(isProcessAlive(process.ppid)).toBe(true);
    expect(() => acquireDataLock(dir)).toThrow(`(pid ${process.ppid})`);
  });

  it('takes over a lock whose process is gone', () => {
    const dir = tempDir();
    const pid = deadPid();
    expect(isProcessAlive(pid)).toBe(false);
    writeLock(dir, { pid, hostname: os.hostname(), token: 'crashed', startedAt: '' });
    const lock = acquireDataLock(dir);
    expect(readLock(dir)).toMatchObject({ pid: process.pid });
    lock.release();
  });

  it.runIf(process.platform === 'linux')('takes over a lock whose process is a zombie: it ended, only its exit status waits to be read', async () => {
    // `sleep 600` (after exec) is the parent of the background `sleep 0.3` and never reaps it; the
    // child outlives the exec, so the shell cannot have reaped it first.
    const parent = spawn('sh', ['-c', 'sleep 0.3 & echo $!; exec sleep 600'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const zombie = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString()))));
      await expect.poll(() => identityOf(zombie)?.ended, { timeout: 10_000 }).toBe(true);
      expect(isProcessAlive(zombie)).toBe(true); // what kill(pid, 0) says of a zombie: why it is not enough
      const dir = tempDir();
      writeLock(dir, { pid: zombie, hostname: os.hostname(), token: 'crashed', startedAt: '' });
      acquireDataLock(dir).release();
    } finally {
      parent.kill();
    }
  });

  it.runIf(process.platform === 'linux')('takes over a lock whose pid now belongs to another program (start time or command line differ)', async () => {
    const other = spawn('sleep', ['600'], { stdio: 'ignore' });
    try {
      const pid = other.pid!;
      await expect.poll(() => identityOf(pid)?.command).toBe('sleep 600');
      const now = identityOf(pid)!;
      const steward = identityOf(process.pid)!;
      const dir = tempDir();
      // The Steward that wrote the lock started at another time, with its own command line.
      writeLock(dir, { pid, hostname: os.hostname(), token: 'earlier', startedAt: '', startTicks: now.startTicks! - 1, command: steward.command });
      acquireDataLock(dir).release();
      // The same start time but another command line: still not the lock's Steward.
      writeLock(dir, { pid, hostname: os.hostname(), token: 'earlier', startedAt: '', startTicks: now.startTicks, command: steward.command });
      acquireDataLock(dir).release();
      // Both as recorded: that process holds it.
      writeLock(dir, { pid, hostname: os.hostname(), token: 'holder', startedAt: '', startTicks: now.startTicks, command: now.command });
      expect(() => acquireDataLock(dir)).toThrow(`(pid ${pid})`);
    } finally {
      other.kill();
    }
  });

  it('records its holder’s start time and command line', () => {
    const dir = tempDir();
    const lock = acquireDataLock(dir);
    const written = readLock(dir) as { startTicks?: number; command?: string };
    if (process.platform === 'linux') expect(written).toMatchObject({ startTicks: identityOf(process.pid)!.startTicks, command: identityOf(process.pid)!.command });
    lock.release();
  });

  it('takes over a lock an earlier process with our pid left (a restarted container’s pid 1)', () => {
    const dir = tempDir();
    writeLock(dir, { pid: process.pid, hostname: os.hostname(), token: 'earlier-life', startedAt: '' });
    acquireDataLock(dir).release();
  });

  it('counts a holder on another machine as running: its pid cannot be checked from here', () => {
    const dir = tempDir();
    writeLock(dir, { pid: deadPid(), hostname: 'other-host', token: 't', startedAt: '' });
    expect(() => acquireDataLock(dir)).toThrow(/in use by another Steward \(pid \d+ on other-host\)/);
  });

  it('waits out a lock file that does not parse while it is fresh, and takes it over once old', () => {
    const dir = tempDir();
    const file = path.join(dir, lockFileName);
    fs.writeFileSync(file, '');
    expect(() => acquireDataLock(dir)).toThrow('(pid unknown)');
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(file, old, old);
    acquireDataLock(dir).release();
  });

  // Four Node processes start with TypeScript loaded: slow on a busy two-core machine.
  it('goes to exactly one of several processes racing for a folder a crashed Steward left locked', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    writeLock(dir, { pid: deadPid(), hostname: os.hostname(), token: 'crashed', startedAt: '' });
    const { children, outcomes } = await race(dir, 4);
    try {
      expect(outcomes.filter((o) => o === 'won')).toHaveLength(1);
      const winner = children[outcomes.indexOf('won')].pid;
      for (const outcome of outcomes.filter((o) => o !== 'won')) expect(outcome).toBe(`lost The data folder ${dir} is in use by another Steward (pid ${winner}). Stop it, or use --data-dir.`);
      expect(readLock(dir).pid).toBe(winner);
    } finally {
      await Promise.all(children.map((child) => new Promise((resolve) => child.once('exit', resolve).stdin.end())));
    }
    // The winner released it on the way out; nothing is left beside it.
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('tells who serves a folder without taking or touching the lock', () => {
    const dir = tempDir();
    expect(dataDirServer(dir)).toBeUndefined();
    const lock = acquireDataLock(dir);
    expect(dataDirServer(dir)).toEqual({ pid: process.pid });
    lock.release();
    writeLock(dir, { pid: process.ppid, hostname: os.hostname(), token: 'other', startedAt: '' });
    expect(dataDirServer(dir)).toEqual({ pid: process.ppid });
    writeLock(dir, { pid: deadPid(), hostname: os.hostname(), token: 'crashed', startedAt: '' });
    expect(dataDirServer(dir)).toBeUndefined();
    expect(readLock(dir).token).toBe('crashed');
    writeLock(dir, { pid: 4242, hostname: 'other-host', token: 't', startedAt: '' });
    expect(dataDirServer(dir)).toEqual({ pid: 4242, host: 'other-host' });
    fs.writeFileSync(path.join(dir, lockFileName), '');
    expect(dataDirServer(dir)).toEqual({ pid: null });
  });

  it('releases only its own lock', () => {
    const dir = tempDir();
    const lock = acquireDataLock(dir);
    // Someone removed ours by hand and another Steward took the folder since.
    fs.rmSync(path.join(dir, lockFileName));
    writeLock(dir, { pid: process.ppid, hostname: os.hostname(), token: 'theirs', startedAt: '' });
    lock.release();
    expect(readLock(dir).token).toBe('theirs');
  });
});

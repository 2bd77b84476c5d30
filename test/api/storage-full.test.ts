// A full disk under the data folder: every write answers 503 storage_full with Retry-After (never
// 500), reads go on, /api/health says degraded, the log says so once, and writes resume by
// themselves when space returns, with nothing accepted lost. On a real 4 MiB tmpfs.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Core, createCore } from '../../src/main/core';
import { tempDir, request } from '../support/core';

const mountPoint = tempDir('steward-full-');
const mounted = process.platform === 'linux' && spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mountPoint]).status === 0;
if (!mounted) console.log('skipped: the full-disk test mounts a small tmpfs, which needs root on Linux');

let core: Core;
let key: string;
const logLines: { msg: string; code?: string }[] = [];
const filler = path.join(mountPoint, 'filler');

beforeAll(async () => {
  if (!mounted) return;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line) as { msg: string });
      done();
    },
  });
  core = await createCore({ dataDir: path.join(mountPoint, 'data'), port: 0, logger: pino({ level: 'info' }, sink) });
  key = core.services.apiKeys.create('test').key;
});
afterAll(async () => {
  if (!mounted) return;
  await core.close();
  execFileSync('umount', [mountPoint]);
  fs.rmSync(mountPoint, { recursive: true, force: true });
});

function fillDisk(): void {
  try {
    fs.writeFileSync(filler, Buffer.alloc(8 * 1024 * 1024));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  }
}

describe.skipIf(!mounted)('a full disk', () => {
  it('answers writes 503 storage_full with Retry-After, keeps reads, reports degraded health, and recovers by itself', async () => {
    const api = (method: string, route: string, body?: unknown) =>
      request(core.url + route, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const instance = (await api('POST', '/api/instances', { name: 'stopped', agent: { provider: 'command', preset: 'custom', command: 'cat' } })).body.instance;
    await api('POST', `/api/instances/${instance.id}/stop`);
    const { webhook } = (await api('POST', '/api/webhooks', { name: 'hook', promptTemplate: '{{payload}}', instanceId: instance.id })).body;
    const accepted = [(await request(webhook.triggerUrl, { method: 'POST', body: 'before' })).body.run.id as string];

    fillDisk();
    for (let i = 0; i < 3; i++) {
      const refused = await request(webhook.triggerUrl, { method: 'POST', body: `while full ${i}` });
      expect(refused.status).toBe(503);
      expect(refused.body.error.code).toBe('storage_full');
      expect(refused.headers.get('retry-after')).toBe('30');
    }
    const create = await api('POST', '/api/automations', { name: 'x', prompt: 'p', cronExpression: '@daily', instanceId: instance.id });
    expect(create.status).toBe(503);
    expect(create.body.error.code).toBe('storage_full');
    expect((await api('GET', '/api/automations')).status).toBe(200);
    const health = await request(`${core.url}/api/health`, {});
    expect(health.body).toMatchObject({ status: 'degraded', reason: expect.stringContaining('storage_full') });
    expect(logLines.filter((line) => line.code === 'storage_full')).toHaveLength(1);

    fs.unlinkSync(filler);
    const after = await request(webhook.triggerUrl, { method: 'POST', body: 'after' });
    expect(after.status).toBe(202);
    accepted.push(after.body.run.id as string);
    expect((await request(`${core.url}/api/health`, {})).body.status).toBe('ok');
    expect(logLines.some((line) => line.msg === 'storage is writable again')).toBe(true);
    const runs = (await api('GET', `/api/runs?sourceId=${webhook.id}`)).body.runs as { id: string; prompt: string }[];
    expect(runs.map((run) => run.id).sort()).toEqual(accepted.sort());
    expect(runs.map((run) => run.prompt).sort()).toEqual(['after', 'before']);
  });
});

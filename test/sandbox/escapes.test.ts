// A sandboxed instance is a boundary: from inside, a probe script tries each way out (the user's SSH
// key and cloud credentials, a write outside the workspace, Steward's database and secret key, a
// loopback port not given, another instance's workspace, the daemon's own process); the same
// script in an instance whose sandbox is off proves each probe can succeed.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { Instance, Run } from '../../src/shared/contract';
import { type TestCore, startTestCore, tempDir } from '../support/core';
import { lacks } from '../support/requirements';
import { settled } from '../support/runs';

const probe = path.resolve(import.meta.dirname, '../fixtures/sandbox/escape-probe.sh');
const skip = lacks('sandbox');

let t: TestCore;
let home: string;
let outside: string;
let neighbour: Instance;
const servers: http.Server[] = [];

async function listen(answer: string): Promise<number> {
  const server = http.createServer((_request, response) => response.end(answer));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

let secretPort: number;
let allowedPort: number;

beforeAll(async () => {
  if (skip) return;
  t = await startTestCore({ clock: systemClock });
  home = tempDir('steward-home-');
  fs.mkdirSync(path.join(home, '.ssh'), { mode: 0o700 });
  fs.writeFileSync(path.join(home, '.ssh/id_ed25519'), '-----BEGIN OPENSSH PRIVATE KEY-----\n', { mode: 0o600 });
  fs.mkdirSync(path.join(home, '.aws'));
  fs.writeFileSync(path.join(home, '.aws/credentials'), '[default]\naws_secret_access_key = x\n');
  outside = tempDir('steward-outside-');
  secretPort = await listen('a service the agent was not given');
  allowedPort = await listen('the service it was given');
  // A stored secret makes the secret key file exist.
  expect((await t.api('PUT', '/api/secrets/token', { value: 'hunter2' })).status).toBe(200);
  neighbour = (await t.api('POST', '/api/instances', { name: 'neighbour', agent: { provider: 'command', preset: 'custom', command: 'cat' } })).body.instance;
  fs.mkdirSync(neighbour.workspaceDir, { recursive: true });
  fs.writeFileSync(path.join(neighbour.workspaceDir, 'notes.txt'), 'private notes');
});

afterAll(async () => {
  for (const server of servers) server.close();
  await t?.close();
});

async function probeFrom(sandbox: object): Promise<{ run: Run; said: Record<string, string> }> {
  const env = {
    HOME: home,
    PROBE_HOME: home,
    PROBE_OUTSIDE: outside,
    PROBE_DATA_DIR: t.dataDir,
    PROBE_SECRET_PORT: String(secretPort),
    PROBE_ALLOWED_PORT: String(allowedPort),
    PROBE_NEIGHBOUR: neighbour.workspaceDir,
    PROBE_DAEMON_PID: String(process.pid),
  };
  const created = await t.api('POST', '/api/instances', { name: 'probe', agent: { provider: 'command', preset: 'custom', command: probe, env }, sandbox });
  expect(created.status).toBe(201);
  const instance = created.body.instance as Instance;
  const { run } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'try' })).body as { run: Run };
  const finished = await settled(t, run.id);
  const messages = (await t.api('GET', `/api/threads/${run.threadId}`)).body.thread.messages as { role: string; content: string }[];
  const said = Object.fromEntries(messages.filter((message) => message.role === 'assistant').map((message) => message.content.split(': ')));
  return { run: finished, said };
}

describe.skipIf(skip)('a sandboxed instance', () => {
  it('keeps its agent to its workspace and the ports it was given', async () => {
    const { run, said } = await probeFrom({ mode: 'sandbox', network: [`127.0.0.1:${allowedPort}`] });
    expect(run.status).toBe('succeeded');
    expect(said).toMatchObject({
      'ssh-key': 'no',
      'aws-credentials': 'no',
      'write-outside': 'no',
      'steward-database': 'no',
      'secret-key': 'no',
      'loopback-not-given': 'no',
      'other-workspace': 'no',
      'daemon-process': 'no',
      'write-workspace': 'yes',
      'loopback-given': 'yes',
    });
    // Its own processes only: the shell, node and the bridges, not the machine's.
    expect(Number(said.processes)).toBeLessThan(15);
    expect(fs.existsSync(path.join(outside, 'escaped.txt'))).toBe(false);
  });

  it('where its sandbox is off, the same probe gets everywhere: each probe can succeed', async () => {
    const { run, said } = await probeFrom({ mode: 'off' });
    expect(run.status).toBe('succeeded');
    expect(said).toMatchObject({
      'ssh-key': 'yes',
      'aws-credentials': 'yes',
      'write-outside': 'yes',
      'steward-database': 'yes',
      'secret-key': 'yes',
      'loopback-not-given': 'yes',
      'other-workspace': 'yes',
      'daemon-process': 'yes',
      'write-workspace': 'yes',
      'loopback-given': 'yes',
    });
    expect(fs.readFileSync(path.join(outside, 'escaped.txt'), 'utf8')).toBe('escaped\n');
  });
});

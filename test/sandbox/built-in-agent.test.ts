// The built-in agent in a sandboxed instance: its model calls leave from Steward, but what its
// tools do is held to the instance's sandbox: a shell command runs inside it (its workspace
// writable, nothing else, and a folder outside not even there; its own processes only), and an
// http request goes only to hosts given.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { Run } from '../../src/shared/contract';
import { type TestCore, startTestCore, tempDir } from '../support/core';
import { type OpenAiServer, startOpenAiServer } from '../support/openai-server';
import { lacks } from '../support/requirements';
import { settled } from '../support/runs';

const skip = lacks('sandbox');

let t: TestCore;
let model: OpenAiServer;
let service: http.Server;
const ports: number[] = [];

beforeAll(async () => {
  if (skip) return;
  t = await startTestCore({ clock: systemClock });
  model = await startOpenAiServer();
  service = http.createServer((_request, response) => response.end('hello from a service'));
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  const other = http.createServer((_request, response) => response.end('a service not given'));
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  ports.push((service.address() as AddressInfo).port, (other.address() as AddressInfo).port);
  service.on('close', () => other.close());
});
afterAll(async () => {
  service?.close();
  await model?.close();
  await t?.close();
});

const call = (name: string, args: object) => ({ name, argumentPieces: [JSON.stringify(args)] });

describe.skipIf(skip)('the built-in agent in a sandboxed instance', () => {
  it('runs its shell inside the sandbox and its http requests only to the hosts given', async () => {
    const outside = tempDir('steward-outside-');
    const [given, notGiven] = ports;
    const created = await t.api('POST', '/api/instances', {
      name: 'local model',
      agent: { provider: 'openai', baseUrl: model.baseUrl, model: 'qwen3:8b', tools: ['shell', 'http'] },
      sandbox: { mode: 'sandbox', network: [`127.0.0.1:${given}`] },
    });
    expect(created.status).toBe(201);
    model.script([
      {
        toolCalls: [
          call('shell', { command: `echo mine > mine.txt && cat mine.txt; echo escaped > ${outside}/escaped.txt; echo "processes: $(ls /proc | grep -c '^[0-9]')"` }),
          call('http_request', { url: `http://127.0.0.1:${given}/` }),
          call('http_request', { url: `http://127.0.0.1:${notGiven}/` }),
        ],
      },
      { text: ['Done.'] },
    ]);
    const { run } = (await t.api('POST', '/api/runs', { instanceId: created.body.instance.id, prompt: 'Try things' })).body as { run: Run };
    expect((await settled(t, run.id)).status).toBe('succeeded');
    const results = model.requests[1].body.messages.filter((message) => message.role === 'tool').map((message) => message.content ?? '');
    // stdout and stderr come together, in whichever order they arrived.
    const lines = results[0].split('\n');
    expect(lines[0]).toBe('exit code 0');
    expect(lines).toHaveLength(4);
    expect(lines).toEqual(expect.arrayContaining(['mine', expect.stringMatching(/^processes: \d+$/), expect.stringMatching(/escaped\.txt: Directory nonexistent$/)]));
    expect(Number(/processes: (\d+)/.exec(results[0])?.[1])).toBeLessThan(10);
    expect(fs.existsSync(path.join(outside, 'escaped.txt'))).toBe(false);
    expect(fs.readFileSync(path.join(created.body.instance.workspaceDir, 'mine.txt'), 'utf8')).toBe('mine\n');
    expect(results[1]).toMatch(/^HTTP 200 OK\n[\s\S]*hello from a service$/);
    expect(results[2]).toBe(`Error: The sandbox refused http://127.0.0.1:${notGiven}/: it is this machine, whose services a run reaches only at a port its network list names (127.0.0.1:port); to allow it, add 127.0.0.1:${notGiven} to the instance's sandbox network.`);
  });
});

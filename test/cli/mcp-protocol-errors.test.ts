// `steward mcp` over stdio answers what it cannot run as JSON-RPC says, on its own data folder and
// proxied to a daemon: a line that is not JSON is -32700, JSON that is not a message -32600, an
// unknown tool -32602. A real child process, spoken to line by line as a client would.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../support/core';
import { root, runCli, startDaemon } from '../support/processes';

const cli = path.join(root, 'src/main/cli.ts');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Answer {
  id: number | string | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** `steward mcp` with a line reader: `ask` writes a line and resolves with the next answer. */
function startMcp(dataDir: string, port: number, env: Record<string, string> = {}) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['--import', 'tsx', cli, 'mcp', '--data-dir', dataDir, '--port', String(port)], {
    cwd: root,
    env: { ...process.env, STEWARD_LOG_LEVEL: 'warn', ...env },
  });
  const answers: Answer[] = [];
  const waiting: (() => void)[] = [];
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      answers.push(JSON.parse(buffered.slice(0, end)) as Answer);
      buffered = buffered.slice(end + 1);
    }
    for (const wake of waiting.splice(0)) wake();
  });
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  );
  let seen = 0;
  const write = (line: string | Buffer) => child.stdin.write(Buffer.concat([Buffer.from(line), Buffer.from('\n')]));
  return {
    /** A notification: no answer comes. */
    tell: write,
    async ask(line: string | Buffer): Promise<Answer> {
      write(line);
      while (answers.length <= seen) await new Promise<void>((resolve) => waiting.push(resolve));
      return answers[seen++];
    },
  };
}

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
const initialized = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });

async function expectProtocolErrors(mcp: ReturnType<typeof startMcp>): Promise<void> {
  expect((await mcp.ask(initialize)).result).toHaveProperty('serverInfo');
  mcp.tell(initialized);
  const notJson = await mcp.ask('{"jsonrpc": "2.0", "id": 2, "method": ');
  expect(notJson).toMatchObject({ id: null, error: { code: -32700 } });
  const badBytes = await mcp.ask(Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":3,"method":"'), Buffer.from([0xff]), Buffer.from('"}')]));
  expect(badBytes).toMatchObject({ id: null, error: { code: -32700 } });
  expect(badBytes.error!.message).toContain('offset 34');
  const notMessage = await mcp.ask('{"id": 4, "hello": "world"}');
  expect(notMessage).toMatchObject({ id: 4, error: { code: -32600 } });
  const unknown = await mcp.ask(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } }));
  expect(unknown).toMatchObject({ id: 5, error: { code: -32602 } });
  expect(unknown.error!.message).toContain('Unknown tool: no_such_tool');
  // The server still answers after all that.
  const listed = await mcp.ask(JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'tools/list' }));
  expect(listed.id).toBe(6);
  expect(listed.result).toHaveProperty('tools');
}

describe('steward mcp protocol errors', () => {
  it('on its own data folder', async () => {
    const dataDir = tempDir();
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    // A port nothing answers on: port 9 (discard) is never a Steward.
    await expectProtocolErrors(startMcp(dataDir, 9));
  }, 30_000);

  it('proxied to a daemon', async () => {
    const dataDir = tempDir();
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const key = runCli(['keys', 'create', '--name', 'mcp', '--data-dir', dataDir]).trim().split('\n').pop()!;
    const daemon = await startDaemon(dataDir);
    cleanups.push(() => daemon.stop());
    await expectProtocolErrors(startMcp(dataDir, Number(new URL(daemon.url).port), { STEWARD_API_KEY: key }));
  }, 30_000);
});

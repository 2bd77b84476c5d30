// `steward mcp` as an MCP client starts it: a real child process over stdio, driven by the official
// SDK client, on a data folder with no daemon (in process) and beside a daemon (proxied to its /mcp).
import net from 'node:net';
import path from 'node:path';
import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../support/core';
import { root, runCli, startDaemon } from '../support/processes';

const cli = path.join(root, 'src/main/cli.ts');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A loopback port nothing listens on. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function startMcp(dataDir: string, port: number, env: Record<string, string> = {}): Promise<Client> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', cli, 'mcp', '--data-dir', dataDir, '--port', String(port)],
    cwd: root,
    env: { ...inherited, STEWARD_LOG_LEVEL: 'warn', ...env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'steward-cli-test', version: '1.0.0' });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return client;
}

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result.content as { text: string }[]).map((part) => part.text).join('');
}

describe('steward mcp', () => {
  it('serves the tools on the data folder itself when no daemon answers', async () => {
    const dataDir = tempDir();
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const client = await startMcp(dataDir, await freePort());
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['list_instances', 'create_automation', 'send_prompt', 'list_activity']));
    const result = await client.callTool({ name: 'list_instances', arguments: {} });
    expect(result.isError).toBeFalsy();
    const { instances } = JSON.parse(textOf(result)) as { instances: { isDefault: boolean }[] };
    expect(instances.some((instance) => instance.isDefault)).toBe(true);
    const bad = await client.callTool({ name: 'create_automation', arguments: { name: 'x', prompt: 'y', cronExpression: 'nope' } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('invalid_cron');
  }, 30_000);

  it('proxies to the daemon on the port with STEWARD_API_KEY', async () => {
    const dataDir = tempDir();
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const key = runCli(['keys', 'create', '--name', 'mcp', '--data-dir', dataDir]).trim().split('\n').pop()!;
    const daemon = await startDaemon(dataDir);
    cleanups.push(() => daemon.stop());
    const client = await startMcp(dataDir, Number(new URL(daemon.url).port), { STEWARD_API_KEY: key });
    const created = await client.callTool({ name: 'create_automation', arguments: { name: 'Proxied', prompt: 'p', cronExpression: '0 9 * * *' } });
    expect(created.isError).toBeFalsy();
    const { automation } = JSON.parse(textOf(created)) as { automation: { id: string } };
    const response = await fetch(`${daemon.url}/api/automations/${automation.id}`, { headers: { authorization: `Bearer ${key}` } });
    expect(response.status).toBe(200);
  }, 30_000);
});

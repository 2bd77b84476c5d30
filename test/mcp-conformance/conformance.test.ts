// The official MCP conformance suite (@modelcontextprotocol/conformance, on Node 22) against a live
// `steward serve`'s Streamable HTTP /mcp. The suite has no way to send an API key, so it talks to a
// loopback proxy that adds one. Every active server scenario runs; the suite itself fails the run
// on a scenario that fails unless expected-failures.yml lists it, and on one listed there that
// passes. The suite and its Node come from the npm registry into .cache (npm test installs them).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type AuthProxy, startAuthProxy } from '../support/auth-proxy';
import { tempDir } from '../support/core';
import { type Server, cliResult, startDaemon } from '../support/processes';
import { lacks, mcpConformancePath, node22Path } from '../support/requirements';

const skip = lacks('mcpConformance');
const expectedFailures = path.join(import.meta.dirname, 'expected-failures.yml');
const work = tempDir('steward-mcp-conformance-');
let daemon: Server | undefined;
let proxy: AuthProxy | undefined;
afterAll(async () => {
  await proxy?.close();
  await daemon?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

/** Runs the suite to its end (asynchronously: the proxy answers it from this process). */
function conformance(args: string[]): Promise<{ status: number | null; output: string }> {
  const child = spawn(node22Path, [mcpConformancePath, ...args], { cwd: work, env: { ...process.env, NO_COLOR: '1' } });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, output })));
}

/** The checks a scenario recorded, from the results folder the suite wrote. */
function checksOf(results: string, scenario: string): { status: string; details?: Record<string, unknown> }[] {
  const folder = fs.readdirSync(results).find((name) => name.startsWith(`server-${scenario}-`));
  if (!folder) throw new Error(`the suite wrote no results for ${scenario}`);
  return JSON.parse(fs.readFileSync(path.join(results, folder, 'checks.json'), 'utf8'));
}

describe.skipIf(skip)('the MCP conformance suite against steward serve', () => {
  it('passes every active server scenario but those that need the reference server', async () => {
    const dataDir = path.join(work, 'data');
    const created = cliResult(['keys', 'create', '--name', 'conformance', '--data-dir', dataDir]);
    expect(created.stderr).toBe('');
    daemon = await startDaemon(dataDir);
    proxy = await startAuthProxy(daemon.url, created.stdout.trim().split('\n').at(-1)!);

    const results = path.join(work, 'results');
    const run = await conformance(['server', '--url', `${proxy.url}/mcp`, '--expected-failures', expectedFailures, '--output-dir', results]);
    expect(run.status, run.output).toBe(0);
    // It was Steward that answered: the tools listed are its own.
    const [listed] = checksOf(results, 'tools-list');
    expect(listed).toMatchObject({ status: 'SUCCESS', details: { tools: expect.arrayContaining(['list_automations', 'send_prompt']) } });
    expect(checksOf(results, 'dns-rebinding-protection').map((check) => check.status)).toEqual(['SUCCESS', 'SUCCESS']);
  }, 120_000);
});

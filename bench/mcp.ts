// Steward's tools over MCP against the same operations over plain HTTP, side by side on one core:
// the official SDK client calling create_automation and list_instances through /mcp (stateless
// Streamable HTTP: a server per request), and fetch calling POST /api/automations and GET
// /api/instances, 300 calls each, one after another; plus what giving a CLI run Steward's tools
// costs (its own key and configuration) on runs of `true`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createCore } from '../src/main/core';
import { silentLogger } from '../src/main/core/logger';
import { median } from './measure';

const calls = 300;
const runs = 100;

async function timed(count: number, call: (i: number) => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await call(i);
    samples.push(performance.now() - start);
  }
  return Number(median(samples).toFixed(3));
}

export async function mcpBench(): Promise<Record<string, unknown>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'steward-bench-mcp-'));
  const core = await createCore({ dataDir, port: 0, logger: silentLogger() });
  const { key } = core.services.apiKeys.create('bench');
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const client = new Client({ name: 'bench', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${core.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
    const automation = (i: number) => ({ name: `bench ${i}`, prompt: 'p', cronExpression: '0 9 * * *' });
    const httpCreateMs = await timed(calls, (i) => fetch(`${core.url}/api/automations`, { method: 'POST', headers, body: JSON.stringify(automation(i)) }).then((r) => r.text()));
    const mcpCreateMs = await timed(calls, (i) => client.callTool({ name: 'create_automation', arguments: automation(calls + i) }));
    const httpListMs = await timed(calls, () => fetch(`${core.url}/api/instances`, { headers }).then((r) => r.text()));
    const mcpListMs = await timed(calls, () => client.callTool({ name: 'list_instances', arguments: {} }));

    // Runs of `true` with and without Steward's tools, from claimed to finished.
    const durations: Record<string, number> = {};
    for (const stewardTools of [false, true]) {
      const instance = core.services.instances.create({ name: `tools ${stewardTools}`, agent: { provider: 'command', preset: 'custom', command: 'true', stewardTools } });
      await core.services.instances.idle();
      const samples: number[] = [];
      for (let i = 0; i < runs; i++) {
        const run = core.services.runs.create({ instanceId: instance.id, prompt: 'go' });
        const start = performance.now();
        while (['queued', 'running'].includes(core.services.runs.get(run.id).status)) await new Promise((resolve) => setImmediate(resolve));
        samples.push(performance.now() - start);
      }
      durations[stewardTools ? 'withToolsMs' : 'withoutToolsMs'] = Number(median(samples).toFixed(1));
    }
    return {
      benchmark: 'mcp',
      calls,
      createAutomation: { httpMs: httpCreateMs, mcpMs: mcpCreateMs, ratio: Number((mcpCreateMs / httpCreateMs).toFixed(2)) },
      listInstances: { httpMs: httpListMs, mcpMs: mcpListMs, ratio: Number((mcpListMs / httpListMs).toFixed(2)) },
      runOfTrue: { runs, ...durations },
      // An agent's tool call waits seconds on its model: what matters is that MCP adds milliseconds, not a multiple.
      targets: { mcpAddsMsBelow: 10, toolsAddMsBelow: 20 },
      met: mcpCreateMs - httpCreateMs < 10 && mcpListMs - httpListMs < 10 && durations.withToolsMs - durations.withoutToolsMs < 20,
    };
  } finally {
    await client.close();
    await core.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

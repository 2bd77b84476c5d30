// The built-in agent's MCP client on its own: tool names and result texts (pure), and servers that
// hang, die at start or are abandoned by a cancelled run (real processes).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/main/core/agents/events';
import { mcpResultText, mcpToolName } from '../../src/main/core/agents/mcp-results';
import { createMcpTools } from '../../src/main/core/agents/mcp-tools';
import type { McpServerConfig } from '../../src/shared/contract';
import { childPids, everythingServer, isRunning } from '../support/mcp';
import { tempDir } from '../support/core';
import { waitFor } from '../support/wait';

describe('MCP tool names and results', () => {
  it('names tools <server>__<tool> within what Chat Completions accepts, unique among all tools', () => {
    const taken = new Set(['read_file']);
    expect(mcpToolName('everything', 'get-sum', taken)).toBe('everything__get-sum');
    expect(mcpToolName('docs', 'search.v2 (beta)', taken)).toBe('docs__search_v2__beta_');
    expect(mcpToolName('docs', 'search.v2 [beta]', taken)).toBe('docs__search_v2__beta__2');
    const long = mcpToolName('a'.repeat(32), 'b'.repeat(64), taken);
    expect(long).toMatch(/^[a-zA-Z0-9_-]{64}$/);
    expect(mcpToolName('a'.repeat(32), 'b'.repeat(70), taken)).toBe(`${long.slice(0, 62)}_2`);
  });

  it('reads text as is, summarises other content, and gives structured content when there is no text', () => {
    expect(mcpResultText({ content: [{ type: 'text', text: 'one' }, { type: 'image', mimeType: 'image/png', data: Buffer.alloc(1234).toString('base64') }, { type: 'text', text: 'two' }] })).toBe('one\n[image image/png, 1234 bytes]\ntwo');
    expect(mcpResultText({ content: [{ type: 'audio', mimeType: 'audio/wav', data: 'AAAA' }] })).toBe('[audio audio/wav, 3 bytes]');
    expect(mcpResultText({ content: [{ type: 'resource_link', name: 'README', uri: 'file:///w/README.md' }] })).toBe('[resource link README file:///w/README.md]');
    expect(mcpResultText({ content: [{ type: 'resource', resource: { uri: 'note://1', text: 'remember' } }] })).toBe('[resource note://1]\nremember');
    expect(mcpResultText({ content: [], structuredContent: { temperature: 36 } })).toBe('{"temperature":36}');
    expect(mcpResultText({ content: [{ type: 'text', text: 'warm' }], structuredContent: { temperature: 36 } })).toBe('warm');
    expect(mcpResultText({ content: [] })).toBe('(no content)');
    expect(mcpResultText({ toolResult: { ok: true } })).toBe('{"ok":true}');
  });
});

function start(servers: McpServerConfig[], options: { startTimeoutMs?: number; signal?: AbortSignal } = {}) {
  const events: AgentEvent[] = [];
  const mcp = createMcpTools({ servers, workspaceDir: tempDir('steward-mcp-'), revealSecret: () => undefined, signal: options.signal ?? new AbortController().signal, onEvent: (event) => events.push(event), startTimeoutMs: options.startTimeoutMs });
  return { mcp, events, lines: () => events.map((event) => (event.type === 'system' ? event.text : event.type)) };
}

const node = (script: string, name: string): McpServerConfig => ({ name, transport: 'stdio', command: process.execPath, args: ['-e', script, name] });
const hangs = 'setInterval(() => {}, 1000)';

describe('MCP servers that do not start', () => {
  it('gives up on a server that does not answer within the start timeout, and ends it', async () => {
    const { mcp, lines } = start([node(hangs, 'silent-server')], { startTimeoutMs: 500 });
    const startedAt = Date.now();
    expect(await mcp.start()).toEqual([]);
    expect(Date.now() - startedAt).toBeLessThan(3_000);
    expect(lines()).toEqual(['MCP server silent-server could not start: it did not answer within 0.5 s; the run goes on without its tools']);
    expect(childPids('silent-server')).toEqual([]);
    await mcp.close();
  });

  it('quotes the last stderr line of a server that exits at start', async () => {
    const { mcp, lines } = start([node("console.error('loading config'); console.error('no API token in DOCS_TOKEN'); process.exit(3)", 'dying-server')]);
    expect(await mcp.start()).toEqual([]);
    expect(lines()).toEqual([expect.stringMatching(/^MCP server dying-server could not start: .*\(its last stderr line: no API token in DOCS_TOKEN\); the run goes on without its tools$/)]);
    await mcp.close();
  });

  it('stops connecting when the run is cancelled, and close ends the server', async () => {
    const abort = new AbortController();
    const { mcp, lines } = start([node(hangs, 'abandoned-server')], { signal: abort.signal });
    const starting = mcp.start();
    const [pid] = await waitFor(() => childPids('abandoned-server'), { what: 'the server to start', until: (pids) => pids.length > 0 });
    abort.abort();
    expect(await starting).toEqual([]);
    expect(lines()).toEqual([]);
    await mcp.close();
    expect(isRunning(pid)).toBe(false);
  });
});

/** Processes anywhere whose whole command line is `words`. */
function processesRunning(words: string[]): number[] {
  const wanted = `${words.join('\0')}\0`;
  return fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name)).filter((name) => {
    try {
      return fs.readFileSync(`/proc/${name}/cmdline`, 'utf8') === wanted && isRunning(Number(name));
    } catch {
      return false;
    }
  }).map(Number);
}

describe('MCP servers that start processes of their own', () => {
  it('ends what a stdio server started when the run ends, even once it was orphaned', async () => {
    // A wrapper as npx-style launchers are: a helper in the background, then the server itself.
    const script = `sleep 3131 </dev/null >/dev/null 2>&1 & exec "${process.execPath}" "${everythingServer}"`;
    const { mcp, lines } = start([{ name: 'wrapped', transport: 'stdio', command: 'sh', args: ['-c', script] }]);
    const tools = await mcp.start();
    expect(tools.map((tool) => tool.name)).toContain('wrapped__echo');
    expect(lines()).toEqual([expect.stringMatching(/^MCP server wrapped: \d+ tools$/)]);
    expect(processesRunning(['sleep', '3131'])).toHaveLength(1);
    await mcp.close();
    expect(processesRunning(['sleep', '3131'])).toEqual([]);
  });
});

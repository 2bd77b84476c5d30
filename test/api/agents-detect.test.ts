// GET /api/agents/detect: the CLI presets found on the daemon's PATH with their versions (fake CLIs
// in a temp folder stand in for them), and an OpenAI-compatible server answering with its models.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentDetection } from '../../src/shared/contract';
import { type TestCore, startTestCore, tempDir } from '../support/core';
import { startOpenAiServer } from '../support/openai-server';

let t: TestCore;
let bin: string;
const originalPath = process.env.PATH;

beforeAll(async () => {
  t = await startTestCore();
  bin = tempDir('steward-detect-');
  const script = (name: string, body: string) => fs.writeFileSync(path.join(bin, name), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  script('codex', '[ "$1" = "--version" ] && echo "codex-cli 0.169.0"');
  script('claude', '[ "$1" = "--version" ] && echo "2.1.3 (Claude Code)"');
  script('goose', 'echo "error: unexpected argument \'--version\' found" >&2; exit 2');
  // Not executable: not an agent.
  fs.writeFileSync(path.join(bin, 'gemini'), 'echo 1.0.0\n', { mode: 0o644 });
  // The daemon looks on its own PATH: here, only the fake CLIs.
  process.env.PATH = bin;
});
afterAll(async () => {
  process.env.PATH = originalPath;
  await t.close();
  fs.rmSync(bin, { recursive: true, force: true });
});

describe('agents.detect', () => {
  it('lists every preset: found with path and version, or not; a CLI refusing --version is a problem', async () => {
    const response = await t.api('GET', '/api/agents/detect?baseUrl=http://127.0.0.1:9/v1');
    expect(response.status).toBe(200);
    const detection = AgentDetection.parse(response.body);
    const byPreset = Object.fromEntries(detection.agents.map((agent) => [agent.preset, agent]));
    expect(Object.keys(byPreset)).toEqual(['claude-code', 'codex', 'gemini', 'goose', 'opencode']);
    expect(byPreset.codex).toEqual({ preset: 'codex', command: 'codex', found: true, path: path.join(bin, 'codex'), version: '0.169.0', problem: null });
    expect(byPreset['claude-code']).toMatchObject({ found: true, version: '2.1.3' });
    // Claude Code as root needs IS_SANDBOX=1: the same remedy the instance probe gives.
    expect(byPreset['claude-code'].problem).toEqual(process.getuid?.() === 0 ? expect.stringContaining('IS_SANDBOX=1') : null);
    expect(byPreset.goose).toMatchObject({ found: true, version: null, problem: expect.stringContaining('usage error') });
    expect(byPreset.gemini).toEqual({ preset: 'gemini', command: 'gemini', found: false, path: null, version: null, problem: null });
    expect(byPreset.opencode).toMatchObject({ found: false });
  });

  it('reports an OpenAI-compatible server with its models, and one that does not answer', async () => {
    const server = await startOpenAiServer();
    try {
      server.models = ['qwen3:8b', 'llama3.2:3b'];
      const found = (await t.api('GET', `/api/agents/detect?baseUrl=${encodeURIComponent(server.baseUrl)}`)).body as AgentDetection;
      expect(found.openai).toEqual({ baseUrl: server.baseUrl, reachable: true, models: ['qwen3:8b', 'llama3.2:3b'], error: null });
    } finally {
      await server.close();
    }
    const nowhere = (await t.api('GET', '/api/agents/detect?baseUrl=http://127.0.0.1:9/v1')).body as AgentDetection;
    expect(nowhere.openai).toMatchObject({ baseUrl: 'http://127.0.0.1:9/v1', reachable: false, models: [], error: expect.stringContaining('Nothing answers at http://127.0.0.1:9/v1') });
  });

  it('asks Ollama on this machine by default', async () => {
    const detection = (await t.api('GET', '/api/agents/detect')).body as AgentDetection;
    expect(detection.openai.baseUrl).toBe('http://127.0.0.1:11434/v1');
  });

  it('refuses a baseUrl that is not http(s), unknown parameters, and callers without a key', async () => {
    const ftp = await t.api('GET', '/api/agents/detect?baseUrl=ftp://example.com');
    expect(ftp.status).toBe(400);
    expect(ftp.body.error).toMatchObject({ code: 'invalid_field', field: 'baseUrl' });
    const unknown = await t.api('GET', '/api/agents/detect?path=/bin');
    expect(unknown.body.error).toMatchObject({ code: 'unknown_field', field: 'path' });
    expect((await t.api('GET', '/api/agents/detect', undefined, { authorization: '' })).status).toBe(401);
  });
});

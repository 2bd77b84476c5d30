// An ACP agent in a sandbox has the footprint of the CLI its command runs (its vendor's hosts
// reachable, the user's login of that CLI carried into the instance's own state, every CLI's state
// of the user's hidden); an unknown command has only what its env names.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentNeeds, carriedFiles, footprintName } from '../../src/main/core/sandbox/agent-footprint';
import { sandboxPolicy } from '../../src/main/core/sandbox/policy';
import { defaultSandbox } from '../../src/shared/contract';

const home = '/home/ada';
const acp = (command: string, args: string[] = [], env?: Record<string, string>) => ({ provider: 'acp' as const, command, args, ...(env ? { env } : {}) });

describe('the footprint of an ACP agent', () => {
  it('is the CLI its command line runs', () => {
    expect(footprintName(acp('gemini', ['--acp']))).toBe('gemini');
    expect(footprintName(acp('/usr/local/bin/opencode', ['acp']))).toBe('opencode');
    expect(footprintName(acp('goose', ['acp']))).toBe('goose');
    expect(footprintName(acp('npx', ['-y', '@agentclientprotocol/claude-agent-acp']))).toBe('claude-code');
    expect(footprintName(acp('codex-acp'))).toBe('codex');
    expect(footprintName(acp('my-agent', ['--stdio']))).toBe('custom');
  });

  it("reaches that CLI's hosts, carries its login into the instance's state, and hides the user's own", () => {
    const needs = agentNeeds(acp('gemini', ['--acp']), {}, home);
    expect(needs.network.map((rule) => rule.host)).toContain('generativelanguage.googleapis.com');
    expect(carriedFiles(acp('gemini', ['--acp']), {}, home).map((item) => item.to)).toEqual(expect.arrayContaining(['.gemini/oauth_creds.json', '.gemini/settings.json']));
    const policy = sandboxPolicy({ sandbox: defaultSandbox, agent: acp('gemini', ['--acp']), env: {}, home, workspaceDir: '/work/ws', dataDir: '/data', agentHome: '/data/agent-homes/ins_1', otherWorkspaces: [] });
    expect(policy.writable).toEqual(['/work/ws', '/data/agent-homes/ins_1']);
    expect(policy.hidden).toEqual(expect.arrayContaining([path.join(home, '.claude'), path.join(home, '.gemini')]));
  });

  it('gives an unknown command only the endpoints its env names', () => {
    expect(agentNeeds(acp('my-agent', [], { MY_BASE_URL: 'http://127.0.0.1:8080/v1' }), {}, home)).toEqual({ network: [expect.objectContaining({ host: '127.0.0.1', port: 8080 })] });
  });
});

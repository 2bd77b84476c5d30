// The sandbox's rules as pure functions: which hosts a run may reach, what its agent CLI needs,
// and how a policy becomes bubblewrap mounts (parents first) and a Seatbelt profile (macOS, which
// is generated and checked here but not run: no Mac in this suite).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentNeeds, endpointsIn } from '../../src/main/core/sandbox/agent-footprint';
import { bridgeScript, mountArgs } from '../../src/main/core/sandbox/bubblewrap';
import { allows, forbiddenResolution, loopbackPorts, parseRule } from '../../src/main/core/sandbox/network-rules';
import { type SandboxPolicy, sandboxPolicy } from '../../src/main/core/sandbox/policy';
import { seatbeltProfile } from '../../src/main/core/sandbox/seatbelt';
import { NetworkHost, SandboxConfig } from '../../src/shared/contract';
import { tempDir } from '../support/core';

const rules = (...hosts: string[]) => hosts.map((host) => parseRule(host)!);

describe('network rules', () => {
  it('match names, *.wildcards, ports and *, but never loopback unless named with its port', () => {
    const given = rules('api.example.com', '*.github.com', 'db.internal:5432', '127.0.0.1:8080', '*');
    expect(allows(rules('api.example.com'), 'api.example.com', 443)).toBe(true);
    expect(allows(rules('api.example.com'), 'API.example.com.', 80)).toBe(true);
    expect(allows(rules('api.example.com'), 'evil.example.com', 443)).toBe(false);
    expect(allows(rules('*.github.com'), 'api.github.com', 443)).toBe(true);
    expect(allows(rules('*.github.com'), 'github.com', 443)).toBe(false);
    expect(allows(rules('*.github.com'), 'github.com.evil.net', 443)).toBe(false);
    expect(allows(rules('db.internal:5432'), 'db.internal', 5433)).toBe(false);
    expect(allows(given, '127.0.0.1', 8080)).toBe(true);
    expect(allows(given, 'localhost', 8080)).toBe(true);
    expect(allows(given, '127.0.0.1', 7321)).toBe(false);
    expect(allows(given, '[::1]', 7321)).toBe(false);
    expect(allows(rules('*'), 'anything.example', 443)).toBe(true);
    expect(allows(rules('*', 'localhost'), '127.0.0.1', 22)).toBe(false);
  });

  it('refuse a name that resolves to the machine or to link-local (cloud metadata)', () => {
    expect(['127.0.0.1', '::1', '169.254.169.254', 'fe80::1', '0.0.0.0'].map(forbiddenResolution)).toEqual([true, true, true, true, true]);
    expect(['93.184.216.34', '192.168.1.20', '2606:4700::1111'].map(forbiddenResolution)).toEqual([false, false, false]);
  });

  it('bridge the loopback ports they name, once each', () => {
    expect(loopbackPorts(rules('127.0.0.1:11434', 'localhost:11434', 'api.example.com:8443', '[::1]:5432'))).toEqual([5432, 11434]);
  });

  it('are validated by the contract: a bad entry is refused in words', () => {
    for (const good of ['api.example.com', '*.github.com', '*', '127.0.0.1:8080', '[::1]:8080', 'localhost:11434']) expect(NetworkHost.safeParse(good).success, good).toBe(true);
    for (const bad of ['http://x.com', 'a.*.com', 'x.com:99999', 'x.com/path', '', 'two words']) expect(NetworkHost.safeParse(bad).success, bad).toBe(false);
    expect(SandboxConfig.safeParse({ mode: 'jail' }).success).toBe(false);
    expect(SandboxConfig.parse({ mode: 'sandbox' })).toEqual({ mode: 'sandbox', network: [], readDeny: [], writeAllow: [], envAllow: [] });
  });
});

describe("an agent CLI's footprint", () => {
  it('finds the endpoints its env and config files name, loopback servers included', () => {
    const found = endpointsIn({ ANTHROPIC_BASE_URL: 'http://127.0.0.1:4000', OLLAMA_HOST: '127.0.0.1:11434', REDIS_HOST: 'localhost:6379', HOME: '/home/u' }, [
      '[model_providers.local]\nbase_url = "http://localhost:1234/v1"\n',
      '{"provider": {"x": {"options": {"baseURL": "https://llm.corp.example/v1"}}}}',
    ]);
    expect(found).toEqual([
      { host: '127.0.0.1', port: 4000 },
      { host: '127.0.0.1', port: 11434 },
      { host: 'localhost', port: 1234 },
      { host: 'llm.corp.example', port: 443 },
    ]);
  });

  it('keeps each CLI to its own state and its vendor', () => {
    const home = '/home/u';
    const claude = agentNeeds({ provider: 'command', preset: 'claude-code' }, {}, home, '/w');
    expect(claude.state).toContain('/home/u/.claude');
    expect(allows(claude.network, 'api.anthropic.com', 443)).toBe(true);
    expect(allows(claude.network, 'api.openai.com', 443)).toBe(false);
    const codex = agentNeeds({ provider: 'command', preset: 'codex' }, { CODEX_HOME: '/srv/codex' }, home, '/w');
    expect(codex.state).toEqual(['/srv/codex']);
    const custom = agentNeeds({ provider: 'command', preset: 'custom', command: 'x', env: { MY_BASE_URL: 'http://127.0.0.1:9' } }, {}, home, '/w');
    expect(custom).toEqual({ state: [], network: [{ host: '127.0.0.1', port: 9 }] });
  });
});

describe('a policy', () => {
  it('hides credentials, the data folder, other workspaces and other CLIs\' logins; writes only the workspace, the CLI state and what is allowed', () => {
    const home = tempDir('steward-policy-home-');
    const dataDir = path.join(home, 'data');
    const policy = sandboxPolicy({
      sandbox: { mode: 'sandbox', network: ['api.example.com'], readDeny: ['~/private'], writeAllow: ['~/notes'], envAllow: [] },
      agent: { provider: 'command', preset: 'codex' },
      env: {},
      home,
      workspaceDir: path.join(dataDir, 'workspaces/mine'),
      dataDir,
      otherWorkspaces: [path.join(dataDir, 'workspaces/theirs'), path.join(dataDir, 'workspaces/mine')],
      stewardUrl: 'http://127.0.0.1:7321/mcp',
    });
    expect(policy.writable).toEqual([path.join(dataDir, 'workspaces/mine'), path.join(home, '.codex'), path.join(home, 'notes')]);
    expect(policy.hidden).toEqual(expect.arrayContaining([path.join(home, '.ssh'), path.join(home, '.aws'), dataDir, path.join(dataDir, 'workspaces/theirs'), path.join(home, '.claude'), path.join(home, '.gemini')]));
    // A workspace another instance shares is this run's to write, not to hide.
    expect(policy.hidden).not.toContain(path.join(dataDir, 'workspaces/mine'));
    expect(policy.hidden).not.toContain(path.join(home, '.codex'));
    expect(policy.denied).toEqual([path.join(home, 'private')]);
    expect(policy.stewardPort).toBe(7321);
    expect(allows(policy.network, 'api.openai.com', 443)).toBe(true);
    expect(allows(policy.network, 'api.example.com', 443)).toBe(true);
    expect(allows(policy.network, '127.0.0.1', 7321)).toBe(true);
    expect(allows(policy.network, 'api.anthropic.com', 443)).toBe(false);
  });
});

describe('bubblewrap', () => {
  it('mounts parents first: the workspace inside the hidden data folder lands over it; the user\'s denials inside it win', () => {
    const root = tempDir('steward-mounts-');
    const dataDir = path.join(root, 'data');
    const workspace = path.join(dataDir, 'workspaces/mine');
    const secret = path.join(workspace, 'secret');
    const token = path.join(root, '.netrc');
    for (const dir of [workspace, secret]) fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(token, 'machine x');
    const policy: SandboxPolicy = { workspaceDir: workspace, writable: [workspace], hidden: [dataDir, token, path.join(root, 'missing')], denied: [secret], network: [], stewardPort: undefined };
    expect(mountArgs(policy)).toEqual(['--tmpfs', dataDir, '--ro-bind', '/dev/null', token, '--bind', workspace, workspace, '--tmpfs', secret]);
    // Steward's own folder stays readable even where it lies under the private /tmp (a checkout in /tmp).
    expect(mountArgs({ ...policy, hidden: [], denied: [], readable: [root] })).toEqual(['--ro-bind', root, root, '--bind', workspace, workspace]);
  });

  it('starts a bridge per port and waits until each listens before it runs the command', () => {
    const script = bridgeScript({ hostDir: '/x', proxyPort: 3128, ports: [11434], socat: '/usr/bin/socat' });
    expect(script).toContain("'/usr/bin/socat' TCP4-LISTEN:3128,bind=127.0.0.1,reuseaddr,fork UNIX-CONNECT:/tmp/.steward-bridge/proxy");
    expect(script).toContain("'/usr/bin/socat' TCP4-LISTEN:11434,bind=127.0.0.1,reuseaddr,fork UNIX-CONNECT:/tmp/.steward-bridge/11434");
    expect(script).toContain('until listening 0C38 && listening 2CAA;');
    expect(script.endsWith('exec "$@"')).toBe(true);
    expect(bridgeScript({ hostDir: '/x', proxyPort: undefined, ports: [], socat: 'socat' })).toBe('exec "$@"');
  });
});

describe('Seatbelt (macOS)', () => {
  const policy: SandboxPolicy = {
    workspaceDir: '/Users/u/ws',
    writable: ['/Users/u/ws', '/Users/u/.claude'],
    hidden: ['/Users/u/.ssh', '/Users/u/Library/Keychains'],
    denied: ['/Users/u/ws/private'],
    network: [],
    stewardPort: 7321,
  };
  const profile = seatbeltProfile(policy, { tmpDir: '/var/folders/x/T/run', proxyPort: 53000, ports: [7321] });
  const lines = profile.trim().split('\n');

  it('denies by default, reads everything but the hidden paths, and writes only where the run may', () => {
    expect(lines[0]).toBe('(version 1)');
    expect(lines[1]).toBe('(deny default)');
    const readAll = lines.indexOf('(allow file-read*)');
    const hide = lines.findIndex((line) => line.startsWith('(deny file-read* file-write* (subpath "/Users/u/.ssh")'));
    const write = lines.findIndex((line) => line.startsWith('(allow file-read* file-write*'));
    const deny = lines.findIndex((line) => line === '(deny file-read* file-write* (subpath "/Users/u/ws/private"))');
    // Later rules win: each narrowing comes after what it narrows.
    expect(readAll).toBeGreaterThan(1);
    expect(hide).toBeGreaterThan(readAll);
    expect(write).toBeGreaterThan(hide);
    expect(deny).toBeGreaterThan(write);
    expect(lines[write]).toContain('(subpath "/Users/u/ws")');
    expect(lines[write]).toContain('(subpath "/Users/u/.claude")');
    expect(lines[write]).toContain('(subpath "/var/folders/x/T/run") (subpath "/private/var/folders/x/T/run")');
    expect(profile).not.toMatch(/allow file-write\* \(subpath "\/Users\/u"\)/);
  });

  it('lets the network reach only the proxy and the named loopback ports', () => {
    expect(lines.filter((line) => line.includes('network'))).toEqual([
      '(allow network-outbound (remote ip "localhost:53000"))',
      '(allow network-outbound (remote ip "localhost:7321"))',
    ]);
  });

  it('quotes paths as SBPL strings', () => {
    const odd = seatbeltProfile({ ...policy, hidden: ['/Users/u/we"ird\\path'] }, { tmpDir: '/t', proxyPort: undefined, ports: [] });
    expect(odd).toContain('(subpath "/Users/u/we\\"ird\\\\path")');
  });
});

describe.runIf(process.platform === 'linux')('a machine that cannot sandbox', () => {
  it('is told what to install, or to turn the sandbox off: never run open', async () => {
    const { checkSandboxSupport } = await import('../../src/main/core/sandbox/host-support');
    const bin = tempDir('steward-no-bwrap-');
    expect(await checkSandboxSupport(bin)).toEqual({
      ok: false,
      reason: 'This machine cannot sandbox: bubblewrap and socat are not installed. Install them (apt-get install bubblewrap socat, dnf install bubblewrap socat), or set the instance\'s sandbox to "off" to run its agent as you, unsandboxed.',
    });
    fs.writeFileSync(path.join(bin, 'socat'), '#!/bin/sh\n', { mode: 0o755 });
    expect(await checkSandboxSupport(bin)).toMatchObject({ ok: false, reason: expect.stringMatching(/^This machine cannot sandbox: bubblewrap is not installed\. Install it /) });
    // A bwrap that cannot make its namespaces (a kernel without unprivileged user namespaces).
    fs.writeFileSync(path.join(bin, 'bwrap'), '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n', { mode: 0o755 });
    expect(await checkSandboxSupport(bin)).toMatchObject({ ok: false, reason: expect.stringMatching(/^bubblewrap cannot make a sandbox here \(bwrap: No permissions to create new namespace\): the kernel must allow unprivileged user namespaces/) });
  });
});

describe("Steward's own trigger URLs", () => {
  it('are refused from inside a sandbox even where every host is allowed: a run starts runs only through /mcp, where the depth limit sees them', async () => {
    const { reachable } = await import('../../src/main/core/sandbox/egress');
    const policy = sandboxPolicy({
      sandbox: { mode: 'sandbox', network: ['*'], readDeny: [], writeAllow: [], envAllow: [] },
      agent: { provider: 'command', preset: 'custom', command: 'x' },
      env: {},
      home: '/home/u',
      workspaceDir: '/w',
      dataDir: '/d',
      otherWorkspaces: [],
      stewardPublicUrl: 'https://hooks.example.com',
    });
    expect(await reachable(policy.network, 'https://hooks.example.com/api/webhooks/trigger/abc', policy.refused)).toBe(
      "it is Steward's own trigger listener, which a run reaches only through Steward's tools (/mcp)",
    );
    expect(await reachable(policy.network, 'http://hooks.example.com:8080/', policy.refused)).toMatch(/own trigger listener/);
  });
});

// The sandbox's rules as pure functions: which hosts a run may reach, what its agent CLI needs,
// and how a policy becomes bubblewrap mounts (parents first) and a Seatbelt profile (macOS, which
// is generated and checked here but not run: no Mac in this suite).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentNeeds, carriedFiles, endpointsIn, userStates } from '../../src/main/core/sandbox/agent-footprint';
import { bridgeScript, mountArgs, mountPlanOf } from '../../src/main/core/sandbox/bubblewrap';
import { type NetworkRule, loopbackPorts, nameVerdict, parseRule } from '../../src/main/core/sandbox/network-rules';
import { type SandboxPolicy, sandboxPolicy } from '../../src/main/core/sandbox/policy';
import { seatbeltProfile } from '../../src/main/core/sandbox/seatbelt';
import { NetworkHost, SandboxConfig, defaultSandbox } from '../../src/shared/contract';
import { tempDir } from '../support/core';

const rules = (...hosts: string[]) => hosts.map((host) => parseRule(host)!);

/** Whether the rules let a run ask for host:port (a name they match is then looked up: its addresses decide, in sandbox-addresses.test.ts). */
function allows(given: readonly NetworkRule[], host: string, port: number): boolean {
  const decided = nameVerdict({ host, port }, { rules: given });
  return decided === undefined || 'to' in decided;
}

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

  it('bridge the loopback ports they name, once each', () => {
    expect(loopbackPorts(rules('127.0.0.1:11434', 'localhost:11434', 'api.example.com:8443', '[::1]:5432'))).toEqual([5432, 11434]);
  });

  it('are validated by the contract: a bad entry is refused in words', () => {
    for (const good of ['api.example.com', '*.github.com', '*', '127.0.0.1:8080', '[::1]:8080', 'localhost:11434']) expect(NetworkHost.safeParse(good).success, good).toBe(true);
    for (const bad of ['http://x.com', 'a.*.com', 'x.com:99999', 'x.com/path', '', 'two words']) expect(NetworkHost.safeParse(bad).success, bad).toBe(false);
    expect(SandboxConfig.safeParse({ mode: 'jail' }).success).toBe(false);
    expect(SandboxConfig.parse({ mode: 'sandbox' })).toEqual({ mode: 'sandbox', network: [], readAllow: [], readDeny: [], writeAllow: [], envAllow: [] });
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

  it("keeps each CLI to its vendor; the user's own state of every CLI is hidden, and its login is what the instance's state carries", () => {
    const home = '/home/u';
    const claude = agentNeeds({ provider: 'command', preset: 'claude-code' }, {}, home);
    expect(allows(claude.network, 'api.anthropic.com', 443)).toBe(true);
    expect(allows(claude.network, 'api.openai.com', 443)).toBe(false);
    const custom = agentNeeds({ provider: 'command', preset: 'custom', command: 'x', env: { MY_BASE_URL: 'http://127.0.0.1:9' } }, {}, home);
    expect(custom).toEqual({ network: [{ host: '127.0.0.1', port: 9 }] });
    expect(userStates({ CODEX_HOME: '/srv/codex' }, home)).toEqual(expect.arrayContaining(['/home/u/.claude', '/home/u/.claude.json', '/srv/codex', '/home/u/.gemini', '/home/u/.config/opencode']));
    expect(carriedFiles({ provider: 'command', preset: 'codex' }, { CODEX_HOME: '/srv/codex' }, home)).toEqual([
      { from: '/srv/codex/auth.json', to: '.codex/auth.json', kind: 'login' },
      { from: '/srv/codex/config.toml', to: '.codex/config.toml', kind: 'config' },
    ]);
    expect(carriedFiles({ provider: 'command', preset: 'claude-code' }, {}, home).find((item) => item.kind === 'account')).toMatchObject({ from: '/home/u/.claude.json', to: '.claude/.claude.json', keys: expect.arrayContaining(['oauthAccount']) });
    expect(carriedFiles({ provider: 'command', preset: 'custom', command: 'x' }, {}, home)).toEqual([]);
  });
});

describe('a policy', () => {
  it("shows the system, the workspace, the instance's own CLI state and what is allowed; hides the home folder and, inside what it shows, Steward's data and the credential stores", () => {
    const home = tempDir('steward-policy-home-');
    const dataDir = path.join(home, 'data');
    const workspace = path.join(dataDir, 'workspaces/mine');
    const agentHome = path.join(dataDir, 'agent-homes/ins_mine');
    for (const dir of [workspace, agentHome, path.join(home, 'notes'), path.join(home, 'reference'), path.join(dataDir, 'workspaces/theirs')]) fs.mkdirSync(dir, { recursive: true });
    const policy = sandboxPolicy({
      sandbox: { mode: 'sandbox', network: ['api.example.com'], readAllow: ['~/reference', '~/data', path.join(dataDir, 'secret.key')], readDeny: ['~/private'], writeAllow: ['~/notes', path.join(dataDir, 'workspaces/theirs')], envAllow: [] },
      agent: { provider: 'command', preset: 'codex' },
      env: {},
      home,
      workspaceDir: workspace,
      dataDir,
      agentHome,
      otherWorkspaces: [path.join(dataDir, 'workspaces/theirs'), workspace],
      stewardUrl: 'http://127.0.0.1:7321/mcp',
      platform: 'linux',
    });
    expect(policy.home).toBe(agentHome);
    // Steward's data folder is never given, but another instance's workspace in it may be shared.
    expect(policy.writable).toEqual([workspace, agentHome, path.join(home, 'notes'), path.join(dataDir, 'workspaces/theirs')]);
    expect(policy.readable).toEqual(expect.arrayContaining(['/usr', path.join(home, 'reference')]));
    expect(policy.readable.filter((entry) => entry.startsWith(dataDir))).toEqual([]);
    expect(policy.readable).not.toContain(home);
    expect(policy.hidden).toEqual(expect.arrayContaining([path.join(home, '.ssh'), path.join(home, '.aws'), dataDir, path.join(home, '.codex'), path.join(home, '.claude')]));
    // A workspace another instance shares is this run's to write, not to hide.
    expect(policy.hidden).not.toContain(workspace);
    expect(policy.denied).toEqual([path.join(home, 'private')]);
    expect(policy.stewardPort).toBe(7321);
    expect(allows(policy.network, 'api.openai.com', 443)).toBe(true);
    expect(allows(policy.network, 'api.example.com', 443)).toBe(true);
    expect(allows(policy.network, '127.0.0.1', 7321)).toBe(true);
    expect(allows(policy.network, 'api.anthropic.com', 443)).toBe(false);
    // The startup files of the workspace and of ~/notes are protected; ~ itself is not writable, so its shell files need nothing.
    const guarded = policy.protected.map((entry) => path.relative(home, entry.path));
    expect(guarded).toEqual(expect.arrayContaining(['data/workspaces/mine/.mcp.json', 'data/workspaces/mine/.claude/settings.json', 'data/workspaces/mine/.vscode', 'notes/.envrc']));
    expect(guarded).not.toContain('.bashrc');
    expect(guarded.some((entry) => entry.includes('.git/'))).toBe(false);
  });

  it('protects a repository\'s hooks and config, and a home folder\'s shell files where the run may write the home; writeAllow that names one lets it be written', () => {
    const home = tempDir('steward-policy-home-');
    const workspace = path.join(home, 'ws');
    fs.mkdirSync(path.join(workspace, '.git'), { recursive: true });
    const input = { agent: { provider: 'command', preset: 'custom', command: 'x' }, env: {}, home, workspaceDir: workspace, dataDir: path.join(home, 'data'), agentHome: path.join(home, 'data/h'), otherWorkspaces: [] as string[] } as const;
    const open = sandboxPolicy({ ...input, sandbox: { ...defaultSandbox, writeAllow: ['~'] } });
    expect(open.protected).toEqual(
      expect.arrayContaining([
        { path: path.join(workspace, '.git/hooks'), kind: 'folder', root: workspace },
        { path: path.join(workspace, '.git/config'), kind: 'file', root: workspace },
        { path: path.join(home, '.bashrc'), kind: 'file', root: home },
      ]),
    );
    const hooksAllowed = sandboxPolicy({ ...input, sandbox: { ...defaultSandbox, writeAllow: ['~/ws/.git/hooks'] } });
    expect(hooksAllowed.protected.map((entry) => entry.path)).not.toContain(path.join(workspace, '.git/hooks'));
    expect(hooksAllowed.protected.map((entry) => entry.path)).toContain(path.join(workspace, '.git/config'));
  });
});

describe('bubblewrap', () => {
  const policyOf = (fields: Partial<SandboxPolicy>): SandboxPolicy => ({ workspaceDir: '/w', home: '/h', readable: [], writable: [], links: [], hidden: [], denied: [], protected: [], network: [], stewardPort: undefined, ...fields });

  it("mounts parents first: the workspace inside the hidden data folder is shown over it; the user's denials inside it win; what is not inside something shown needs no hiding", () => {
    const root = tempDir('steward-mounts-');
    const dataDir = path.join(root, 'data');
    const workspace = path.join(dataDir, 'workspaces/mine');
    const secret = path.join(workspace, 'secret');
    const token = path.join(root, '.netrc');
    for (const dir of [workspace, secret]) fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(token, 'machine x');
    const policy = policyOf({ workspaceDir: workspace, writable: [workspace], hidden: [dataDir, token, path.join(root, 'missing')], denied: [secret] });
    // Nothing shows the root folder: its .netrc and the data folder are simply absent.
    expect(mountArgs(policy)).toEqual(['--bind', workspace, workspace, '--tmpfs', secret]);
    // Readable, the root folder's .netrc is covered, and the data folder, but for the workspace inside it.
    expect(mountArgs({ ...policy, readable: [root] })).toEqual(['--ro-bind', root, root, '--tmpfs', dataDir, '--ro-bind', '/dev/null', token, '--bind', workspace, workspace, '--tmpfs', secret]);
  });

  it('makes the links that lead to what it shows, where nothing shown holds them', () => {
    const root = tempDir('steward-links-');
    const policy = policyOf({ readable: [root], links: [{ path: '/bin', target: 'usr/bin' }, { path: path.join(root, 'link'), target: '/elsewhere' }] });
    expect(mountArgs(policy)).toEqual(['--ro-bind', root, root, '--symlink', 'usr/bin', '/bin']);
  });

  it("binds a startup file that exists read-only over itself and pins the folders on its way; one that does not gets a placeholder bwrap makes, to be removed after", () => {
    const workspace = tempDir('steward-protect-');
    fs.mkdirSync(path.join(workspace, '.git/hooks'), { recursive: true });
    fs.writeFileSync(path.join(workspace, '.git/config'), '[core]\n');
    const entries = [
      { path: path.join(workspace, '.git/hooks'), kind: 'folder' as const, root: workspace },
      { path: path.join(workspace, '.git/config'), kind: 'file' as const, root: workspace },
      { path: path.join(workspace, '.mcp.json'), kind: 'file' as const, root: workspace },
      { path: path.join(workspace, '.claude/settings.json'), kind: 'file' as const, root: workspace },
      { path: path.join(workspace, '.claude/commands'), kind: 'folder' as const, root: workspace },
    ];
    const plan = mountPlanOf(policyOf({ workspaceDir: workspace, writable: [workspace], protected: entries }));
    expect(plan.args).toEqual([
      '--bind', workspace, workspace,
      '--bind', path.join(workspace, '.git'), path.join(workspace, '.git'),
      '--ro-bind', '/dev/null', path.join(workspace, '.mcp.json'),
      '--tmpfs', path.join(workspace, '.claude'), '--remount-ro', path.join(workspace, '.claude'),
      '--ro-bind', path.join(workspace, '.git/hooks'), path.join(workspace, '.git/hooks'),
      '--ro-bind', path.join(workspace, '.git/config'), path.join(workspace, '.git/config'),
    ]);
    expect(plan.placeholders).toEqual([
      { path: path.join(workspace, '.mcp.json'), kind: 'file' },
      { path: path.join(workspace, '.claude'), kind: 'folder' },
    ]);
    // Inside what the run may only read, or does not see, a startup file needs nothing.
    expect(mountArgs(policyOf({ workspaceDir: workspace, readable: [workspace], protected: entries }))).toEqual(['--ro-bind', workspace, workspace]);
  });

  it('removes a placeholder when the last sandbox using it closes, and only while it is still empty', async () => {
    const { holdPlaceholders, isPlaceholder, releasePlaceholders } = await import('../../src/main/core/sandbox/placeholders');
    const workspace = tempDir('steward-placeholders-');
    const [file, folder, written] = ['.mcp.json', '.claude', '.envrc'].map((name) => path.join(workspace, name));
    holdPlaceholders([file, folder, written]);
    holdPlaceholders([file]);
    fs.writeFileSync(file, '');
    fs.mkdirSync(folder);
    fs.writeFileSync(written, 'the user wrote this meanwhile');
    releasePlaceholders([file, folder, written]);
    // Another sandbox still has the file: it stays, and a new plan takes it for a placeholder still.
    expect([fs.existsSync(file), isPlaceholder(file), fs.existsSync(folder), isPlaceholder(folder)]).toEqual([true, true, false, false]);
    releasePlaceholders([file]);
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.readFileSync(written, 'utf8')).toBe('the user wrote this meanwhile');
  });

  it('refuses a startup file behind a link, which a run could replace, saying what to do', () => {
    const workspace = tempDir('steward-protect-');
    fs.symlinkSync('/elsewhere', path.join(workspace, '.vscode'));
    const policy = policyOf({ workspaceDir: workspace, writable: [workspace], protected: [{ path: path.join(workspace, '.vscode'), kind: 'folder', root: workspace }] });
    expect(() => mountArgs(policy)).toThrow(`The sandbox cannot protect ${workspace}/.vscode: ${workspace}/.vscode is a symbolic link, which a run could replace. Replace the link with what it points to, or add ${workspace}/.vscode to the instance's sandbox writeAllow to let runs change it.`);
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
  const data = '/Users/u/Library/Application Support/Steward';
  const agentHome = `${data}/agent-homes/ins_1`;
  const policy: SandboxPolicy = {
    workspaceDir: '/Users/u/ws',
    home: agentHome,
    readable: ['/Users/u/.nvm/versions/node/v22.12.0/lib/node_modules', '/Users/u/reference'],
    writable: ['/Users/u/ws', agentHome],
    links: [{ path: '/Users/u/.nvm/versions/node/v22.12.0/bin/claude', target: '../lib/node_modules/@anthropic-ai/claude-code/cli.js' }],
    hidden: ['/Users', '/Volumes', '/Users/u', '/Users/u/.ssh', '/Users/u/Library/Keychains', data, '/etc/master.passwd'],
    denied: ['/Users/u/ws/private'],
    protected: [
      { path: '/Users/u/ws/.git/hooks', kind: 'folder', root: '/Users/u/ws' },
      { path: '/Users/u/ws/.mcp.json', kind: 'file', root: '/Users/u/ws' },
    ],
    network: [],
    stewardPort: 7321,
  };
  const profile = seatbeltProfile(policy, { tmpDir: '/var/folders/x/T/run', proxyPort: 53000, ports: [7321] });
  const lines = profile.trim().split('\n');
  const line = (text: string) => {
    const index = lines.indexOf(text);
    expect(index, text).toBeGreaterThan(1);
    return index;
  };

  it("is made from a policy that, on macOS, hides where people's files are and lets the system be read", () => {
    const home = tempDir('steward-mac-home-');
    const made = sandboxPolicy({ sandbox: defaultSandbox, agent: { provider: 'command', preset: 'custom', command: 'x' }, env: {}, home, workspaceDir: path.join(home, 'ws'), dataDir: path.join(home, 'data'), agentHome: path.join(home, 'data/h'), otherWorkspaces: [], platform: 'darwin' });
    expect(made.hidden).toEqual(expect.arrayContaining(['/Users', '/Volumes', '/private/var/root', fs.realpathSync(home), path.join(fs.realpathSync(home), 'Library/Keychains')]));
    expect(made.readable).toEqual([]);
    expect(made.links).toEqual([]);
  });

  it("denies by default, hides where people's files are, gives back what the run may read and write, parents first", () => {
    expect(lines[0]).toBe('(version 1)');
    expect(lines[1]).toBe('(deny default)');
    const readAll = line('(allow file-read*)');
    const users = line('(deny file-read* file-write* (subpath "/Users"))');
    const home = line('(deny file-read* file-write* (subpath "/Users/u"))');
    const workspace = line('(allow file-read* file-write* (subpath "/Users/u/ws"))');
    const reference = line('(allow file-read* (subpath "/Users/u/reference"))');
    const ssh = line('(deny file-read* file-write* (subpath "/Users/u/.ssh"))');
    const dataHidden = line(`(deny file-read* file-write* (subpath "${data}"))`);
    const state = line(`(allow file-read* file-write* (subpath "${agentHome}"))`);
    const denied = line('(deny file-read* file-write* (subpath "/Users/u/ws/private"))');
    // Later rules win: each narrowing comes after what it narrows.
    expect(users).toBeGreaterThan(readAll);
    expect(home).toBeGreaterThan(users);
    expect(Math.min(workspace, reference, ssh)).toBeGreaterThan(home);
    expect(state).toBeGreaterThan(dataHidden);
    expect(denied).toBeGreaterThan(workspace);
    // What may only be read takes writes back, should it lie in something writable.
    expect(lines[reference + 1]).toBe('(deny file-write* (subpath "/Users/u/reference"))');
    expect(profile).toContain('(allow file-read* file-write* (subpath "/var/folders/x/T/run") (subpath "/private/var/folders/x/T/run"))');
    // The link that leads to the CLI is readable though the home is not.
    expect(line('(allow file-read* (literal "/Users/u/.nvm/versions/node/v22.12.0/bin/claude"))')).toBeGreaterThan(home);
    expect(profile).toContain('(deny file-read* file-write* (subpath "/etc/master.passwd") (subpath "/private/etc/master.passwd"))');
    expect(profile).not.toMatch(/allow file-read\* file-write\* \(subpath "\/Users\/u"\)/);
  });

  it('refuses writes to the startup files of the workspace, existing or not, and moving the folders on their way', () => {
    const workspace = line('(allow file-read* file-write* (subpath "/Users/u/ws"))');
    const hooks = line('(deny file-write* (subpath "/Users/u/ws/.git/hooks"))');
    const mcp = line('(deny file-write* (subpath "/Users/u/ws/.mcp.json"))');
    expect(Math.min(hooks, mcp)).toBeGreaterThan(workspace);
    expect(lines[hooks + 1]).toBe('(deny file-write-unlink file-write-create (literal "/Users/u/ws") (literal "/Users/u/ws/.git"))');
    expect(lines[mcp + 1]).toBe('(deny file-write-unlink file-write-create (literal "/Users/u/ws"))');
  });

  it('lets the network reach only the proxy and the named loopback ports', () => {
    expect(lines.filter((each) => each.includes('network'))).toEqual([
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
    const { destination, requestOf } = await import('../../src/main/core/sandbox/egress');
    const policy = sandboxPolicy({
      sandbox: { mode: 'sandbox', network: ['*'], readAllow: [], readDeny: [], writeAllow: [], envAllow: [] },
      agent: { provider: 'command', preset: 'custom', command: 'x' },
      env: {},
      home: '/home/u',
      workspaceDir: '/w',
      dataDir: '/d',
      agentHome: '/d/agent-homes/ins_1',
      otherWorkspaces: [],
      stewardPublicUrl: 'https://hooks.example.com',
    });
    const reach = { rules: policy.network, refused: policy.refused };
    expect(await destination(requestOf(new URL('https://hooks.example.com/api/webhooks/trigger/abc')), reach)).toEqual({
      refused: "it is Steward's own trigger listener, which a run reaches only through Steward's tools (/mcp)",
    });
    expect(await destination(requestOf(new URL('http://HOOKS.example.com.:8080/')), reach)).toMatchObject({ refused: expect.stringMatching(/own trigger listener/) });
  });
});

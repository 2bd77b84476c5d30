// What makes a sandbox unprivileged and bounded, as command lines and decisions: bwrap's arguments
// (no capability, no user namespace, an ordinary uid, the filter, sized tmpfs, hiding folders
// read-only), the launcher shell, the rlimits as dash and bash take them, and how a machine's
// cgroups are found (on folders laid out as the kernel lays them out; this machine's own are
// tried by test/sandbox/limits.test.ts).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bridgeScript, bubblewrapArgs, launcherScript, sandboxIdentity } from '../../src/main/core/sandbox/bubblewrap';
import { findLimitsMechanism, limitReachedText, limitsOf, limitsWords } from '../../src/main/core/sandbox/limits';
import type { SandboxPolicy } from '../../src/main/core/sandbox/policy';
import { tempDir } from '../support/core';

const onPath = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

describe('bubblewrap, unprivileged', () => {
  const root = tempDir('steward-confine-');
  const hidden = path.join(root, 'data');
  const workspaceDir = path.join(hidden, 'workspace');
  fs.mkdirSync(workspaceDir, { recursive: true });
  const policy: SandboxPolicy = { workspaceDir, home: workspaceDir, readable: ['/usr', '/bin', '/lib', '/etc', root], links: [], protected: [], writable: [workspaceDir], hidden: [hidden], denied: [], network: [], stewardPort: undefined };
  const bridges = { hostDir: path.join(root, 'bridges'), proxyPort: 3128, ports: [], socat: '/usr/bin/socat' };
  const args = bubblewrapArgs(policy, bridges, { uid: 1000, gid: 1000, disableUserns: true, tmpMb: 16 }, 'claude', ['-p']);
  const pairs = (flag: string) => args.flatMap((arg, index) => (arg === flag ? [args[index + 1]] : []));

  it('drops every capability, maps the agent to an ordinary uid, forbids user namespaces and loads the filter', () => {
    expect(args).toEqual(expect.arrayContaining(['--unshare-all', '--unshare-user', '--disable-userns']));
    expect(pairs('--cap-drop')).toEqual(['ALL']);
    expect(pairs('--uid')).toEqual(['1000']);
    expect(pairs('--gid')).toEqual(['1000']);
    expect(pairs('--seccomp')).toEqual(['9']);
    expect(args).not.toContain('--cap-add');
    // A bwrap before 0.8.0 has no --disable-userns: the filter alone refuses new user namespaces there.
    const older = bubblewrapArgs(policy, bridges, { uid: 1000, gid: 1000, disableUserns: false, tmpMb: 16 }, 'claude', ['-p']);
    expect(older).toEqual(args.filter((arg) => arg !== '--disable-userns'));
  });

  it('sizes /tmp and /dev/shm, and makes the hiding tmpfs and /dev read-only after everything is mounted in them', () => {
    expect(args.join(' ')).toContain(`--size ${16 * 1024 * 1024} --tmpfs /dev/shm`);
    expect(args.join(' ')).toContain(`--size ${16 * 1024 * 1024} --tmpfs /tmp`);
    const lastMount = Math.max(args.lastIndexOf('--bind'), args.lastIndexOf('--ro-bind'));
    expect(args.indexOf('--remount-ro')).toBeGreaterThan(lastMount);
    expect(pairs('--remount-ro')).toEqual([hidden, '/dev', '/']);
  });

  it('maps root to 1000 and a user to itself', () => {
    expect(sandboxIdentity(0, 0)).toEqual({ uid: 1000, gid: 1000 });
    expect(sandboxIdentity(1001, 1002)).toEqual({ uid: 1001, gid: 1002 });
  });

  it('launches through a shell that joins the cgroups first and hands bwrap the filter, quoting paths', () => {
    const script = launcherScript(["/sys/fs/cgroup/pids/o'k/run_1"], '/data/runs/run_1/seccomp.bpf', '/data/runs/run_1/bwrap-1.json');
    const lines = script.split('\n');
    expect(lines[0]).toMatch(/^echo \$\$ > '\/sys\/fs\/cgroup\/pids\/o'\\''k\/run_1\/cgroup\.procs' \|\| \{ .* exit 125; \}$/);
    expect(lines.at(-1)).toBe(`exec "$@" 9<'/data/runs/run_1/seccomp.bpf' 8>'/data/runs/run_1/bwrap-1.json'`);
    // A cgroup the shell cannot join stops the launch: nothing of the run starts outside its limits.
    const dir = tempDir('steward-launch-');
    const result = spawnSync('/bin/sh', ['-c', launcherScript([path.join(dir, 'missing')], '/dev/null', path.join(dir, 'info')), 'launch', 'echo', 'started']);
    expect({ status: result.status, stdout: result.stdout.toString() }).toEqual({ status: 125, stdout: '' });
  });

  it.each([['/bin/sh'], ['bash']].filter(([shell]) => onPath(shell)))('sets the rlimits with %s, soft and hard', (shell) => {
    const script = bridgeScript({ hostDir: '/x', proxyPort: undefined, ports: [], socat: 'socat' }, { processes: 77, memoryMb: 300 });
    const result = spawnSync(shell, ['-c', script, 'steward-sandbox', 'cat', '/proc/self/limits']);
    const limits = result.stdout.toString();
    expect(result.status, result.stderr.toString()).toBe(0);
    expect(limits).toMatch(/^Max processes\s+77\s+77\s/m);
    expect(limits).toMatch(new RegExp(`^Max data size\\s+${300 * 1024 * 1024}\\s+${300 * 1024 * 1024}\\s`, 'm'));
  });
});

describe('limits', () => {
  it('default what an instance does not set, and say how they are held and which one a run reached', () => {
    expect(limitsOf({})).toEqual({ processes: 512, memoryMb: 4096, tmpMb: 1024 });
    expect(limitsOf({ limits: { processes: 64, memoryMb: 4096, tmpMb: 1536 } })).toEqual({ processes: 64, memoryMb: 4096, tmpMb: 1536 });
    expect(limitsWords({ kind: 'cgroup1', memoryDir: '/m', pidsDir: '/p' })).toBe('limits by cgroup v1');
    expect(limitsWords({ kind: 'rlimit', processes: false })).toBe('limits by rlimit, no process limit as root');
    const limits = limitsOf({});
    expect(limitReachedText('memory', limits)).toBe("The run reached its memory limit, 4 GiB: raise the instance's sandbox limits (memoryMb) if it needs more.");
    expect(limitReachedText('processes', limits)).toMatch(/^The run reached its process limit, 512: /);
    expect(limitReachedText('tmp', { ...limits, tmpMb: 1536 })).toMatch(/^The run reached its \/tmp limit, 1536 MiB: /);
  });
});

/** A cgroup folder as the kernel shows one. */
function cgroupFolder(dir: string, files: Record<string, string> = {}): void {
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries({ 'cgroup.procs': '', ...files })) fs.writeFileSync(path.join(dir, name), content);
}

describe("a machine's cgroups", () => {
  const pid = 4242;

  it('are delegated (v2) where Steward may write its own cgroup and it has both controllers: Steward moves into a leaf of its own', () => {
    const root = tempDir('steward-cg2-');
    cgroupFolder(path.join(root, 'unified/system.slice/steward.service'), { 'cgroup.controllers': 'cpu io memory pids', 'cgroup.subtree_control': '' });
    const mechanism = findLimitsMechanism({
      cgroups: '0::/system.slice/steward.service\n',
      mountinfo: `35 25 0:30 / ${root}/unified rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n`,
      pid,
      uid: 1000,
    });
    const own = path.join(root, 'unified/system.slice/steward.service');
    expect(mechanism).toEqual({ kind: 'cgroup2', runsDir: path.join(own, 'steward-runs', String(pid)) });
    expect(fs.readFileSync(path.join(own, 'steward-daemon/cgroup.procs'), 'utf8')).toBe(String(pid));
    expect(fs.readFileSync(path.join(own, 'cgroup.subtree_control'), 'utf8')).toBe('+memory +pids');
    expect(fs.readFileSync(path.join(own, 'steward-runs', String(pid), 'cgroup.subtree_control'), 'utf8')).toBe('+memory +pids');
  });

  it('are v1 where v2 has no controllers and the memory and pids hierarchies are writable, in a container whose mounts show a subtree', () => {
    const root = tempDir('steward-cg1-');
    cgroupFolder(path.join(root, 'unified'), { 'cgroup.controllers': '' });
    cgroupFolder(path.join(root, 'memory/job'));
    cgroupFolder(path.join(root, 'pids'));
    // What a Steward that is gone left: removed. What a live process holds: kept.
    const left = path.join(root, 'pids/steward/999999999/run_old');
    fs.mkdirSync(left, { recursive: true });
    fs.mkdirSync(path.join(root, 'pids/steward', String(process.pid), 'run_live'), { recursive: true });
    const mechanism = findLimitsMechanism({
      cgroups: '8:pids:/\n4:memory:/ctr/job\n0::/\n',
      mountinfo: [
        `30 25 0:27 / ${root}/unified rw - cgroup2 cgroup2 rw`,
        `31 25 0:28 /ctr ${root}/memory rw,nosuid - cgroup cgroup rw,memory`,
        `32 25 0:29 / ${root}/pids rw,nosuid - cgroup cgroup rw,pids`,
        `33 25 0:30 / ${root}/cpu\\040set rw - cgroup cgroup rw,cpuset`,
      ].join('\n'),
      pid,
      uid: 0,
    });
    expect(mechanism).toEqual({ kind: 'cgroup1', memoryDir: path.join(root, 'memory/job/steward', String(pid)), pidsDir: path.join(root, 'pids/steward', String(pid)) });
    expect(fs.existsSync(path.dirname(left))).toBe(false);
    expect(fs.existsSync(path.join(root, 'pids/steward', String(process.pid), 'run_live'))).toBe(true);
  });

  it('are rlimits where no cgroup may be made, without a process limit for root', () => {
    const root = tempDir('steward-cg0-');
    // A hierarchy Steward may not write: its folders cannot be made.
    fs.writeFileSync(path.join(root, 'memory'), '');
    fs.writeFileSync(path.join(root, 'pids'), '');
    const host = { cgroups: '4:memory:/\n8:pids:/\n', mountinfo: `31 25 0:28 / ${root}/memory rw - cgroup cgroup rw,memory\n32 25 0:29 / ${root}/pids rw - cgroup cgroup rw,pids\n`, pid };
    expect(findLimitsMechanism({ ...host, uid: 1000 })).toEqual({ kind: 'rlimit', processes: true });
    expect(findLimitsMechanism({ ...host, uid: 0 })).toEqual({ kind: 'rlimit', processes: false });
  });
});

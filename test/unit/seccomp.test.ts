// The seccomp filter as the kernel would run it: a small classic-BPF interpreter (the subset a
// seccomp filter may use) runs the generated program on seccomp_data for each architecture, with
// system call numbers taken from the kernel's tables as written here, not from the generator's.
import { describe, expect, it } from 'vitest';
import { type SeccompArch, seccompFilter } from '../../src/main/core/sandbox/seccomp';

const archs = { x86_64: 0xc000003e, aarch64: 0xc00000b7, i386: 0x40000003, arm: 0x40000028 } as const;

/** From arch/x86/entry/syscalls/syscall_64.tbl and include/uapi/asm-generic/unistd.h. */
const numbers: Record<string, [number, number]> = {
  read: [0, 63],
  write: [1, 64],
  openat: [257, 56],
  execve: [59, 221],
  mount: [165, 40],
  umount2: [166, 39],
  pivot_root: [155, 41],
  move_mount: [429, 429],
  fsopen: [430, 430],
  mount_setattr: [442, 442],
  unshare: [272, 97],
  clone: [56, 220],
  clone3: [435, 435],
  setns: [308, 268],
  ptrace: [101, 117],
  keyctl: [250, 219],
  add_key: [248, 217],
  bpf: [321, 280],
  perf_event_open: [298, 241],
  finit_module: [313, 273],
  kexec_load: [246, 104],
  open_by_handle_at: [304, 265],
  userfaultfd: [323, 282],
  process_vm_writev: [311, 271],
  io_uring_setup: [425, 425],
  socket: [41, 198],
  socketpair: [53, 199],
  ioctl: [16, 29],
  connect: [42, 203],
};

const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const errno = (value: number) => 0x00050000 | value;

/** Runs the filter on one system call; args are 64-bit. */
function decide(filter: Buffer, arch: number, nr: number, args: bigint[] = []): number {
  const data = Buffer.alloc(64);
  data.writeUInt32LE(nr, 0);
  data.writeUInt32LE(arch, 4);
  args.forEach((arg, index) => data.writeBigUInt64LE(BigInt.asUintN(64, arg), 16 + 8 * index));
  let a = 0;
  for (let pc = 0; pc < filter.length / 8; ) {
    const code = filter.readUInt16LE(pc * 8);
    const jt = filter.readUInt8(pc * 8 + 2);
    const jf = filter.readUInt8(pc * 8 + 3);
    const k = filter.readUInt32LE(pc * 8 + 4);
    switch (code) {
      case 0x20: // ld [k]
        a = data.readUInt32LE(k);
        pc++;
        break;
      case 0x06: // ret k
        return k;
      case 0x15: // jeq
        pc += 1 + (a === k ? jt : jf);
        break;
      case 0x35: // jge
        pc += 1 + (a >= k ? jt : jf);
        break;
      case 0x45: // jset
        pc += 1 + ((a & k) !== 0 ? jt : jf);
        break;
      default:
        throw new Error(`unexpected instruction ${code.toString(16)} at ${pc}`);
    }
  }
  throw new Error('the filter ran off its end');
}

const CLONE_NEWNS = 0x00020000n;
const CLONE_NEWUSER = 0x10000000n;
const CLONE_NEWNET = 0x40000000n;
const CLONE_NEWTIME = 0x80n;
const forkFlags = 0x01200011n; // CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | SIGCHLD, as glibc's fork
const threadFlags = 0x003d0f00n; // CLONE_VM | FS | FILES | SIGHAND | THREAD | SYSVSEM | SETTLS | PARENT_SETTID | CHILD_CLEARTID, as pthread_create

describe.each(['x86_64', 'aarch64'] as SeccompArch[])('the seccomp filter on %s', (arch) => {
  const filter = seccompFilter(arch);
  const native = archs[arch];
  const nr = (name: string) => numbers[name][arch === 'x86_64' ? 0 : 1];
  const call = (name: string, ...args: bigint[]) => decide(filter, native, nr(name), args);

  it('fits the kernel: at most 4096 instructions, each 8 bytes', () => {
    expect(filter.length % 8).toBe(0);
    expect(filter.length / 8).toBeLessThan(4096);
  });

  it('lets ordinary calls through: files, exec, fork and threads, sockets of the internet and Unix', () => {
    for (const name of ['read', 'write', 'openat', 'execve', 'connect', 'socketpair']) expect(call(name), name).toBe(RET_ALLOW);
    expect(call('clone', forkFlags)).toBe(RET_ALLOW);
    expect(call('clone', threadFlags)).toBe(RET_ALLOW);
    expect(call('unshare', 0x200n)).toBe(RET_ALLOW); // CLONE_FS
    for (const family of [1n, 2n, 10n, 16n]) expect(call('socket', family, 1n, 0n), `family ${family}`).toBe(RET_ALLOW);
    expect(call('ioctl', 1n, 0x5401n)).toBe(RET_ALLOW); // TCGETS
  });

  it('refuses what changes mounts, namespaces, other processes, the keyring and the kernel', () => {
    for (const name of ['mount', 'umount2', 'pivot_root', 'move_mount', 'fsopen', 'mount_setattr', 'setns', 'ptrace', 'keyctl', 'add_key', 'bpf', 'perf_event_open', 'finit_module', 'kexec_load', 'open_by_handle_at', 'userfaultfd', 'process_vm_writev']) {
      expect(call(name), name).toBe(errno(1));
    }
  });

  it('refuses new namespaces by clone and unshare, whatever else the flags hold; clone3 and io_uring are absent', () => {
    expect(call('clone', forkFlags | CLONE_NEWUSER)).toBe(errno(1));
    expect(call('clone', forkFlags | CLONE_NEWNS)).toBe(errno(1));
    expect(call('clone', CLONE_NEWNET)).toBe(errno(1));
    expect(call('unshare', CLONE_NEWUSER)).toBe(errno(1));
    expect(call('unshare', CLONE_NEWTIME)).toBe(errno(1));
    expect(call('unshare', 0x200n | CLONE_NEWNS)).toBe(errno(1));
    // The high half of a 64-bit flags word is not where a namespace flag hides: the kernel truncates to int.
    expect(call('unshare', CLONE_NEWUSER | (1n << 40n))).toBe(errno(1));
    expect(call('clone3', 0n, 88n)).toBe(errno(38));
    expect(call('io_uring_setup', 8n, 0n)).toBe(errno(38));
  });

  it('refuses socket families beyond Unix, IPv4, IPv6 and netlink, and typing into a terminal', () => {
    for (const family of [17n, 38n, 40n, 0n, 3n]) expect(call('socket', family, 1n, 0n), `family ${family}`).toBe(errno(97)); // packet, alg, vsock
    expect(call('ioctl', 0n, 0x5412n)).toBe(errno(1)); // TIOCSTI
    expect(call('ioctl', 0n, 0x5412n | (1n << 32n))).toBe(errno(1));
  });

  it("kills a call made with another architecture's numbers", () => {
    const foreign = arch === 'x86_64' ? archs.i386 : archs.arm;
    expect(decide(filter, foreign, 1)).toBe(RET_KILL_PROCESS);
    expect(decide(filter, foreign, 21)).toBe(RET_KILL_PROCESS);
    if (arch === 'x86_64') expect(decide(filter, native, 0x40000000 | nr('mount'))).toBe(RET_KILL_PROCESS); // x32
  });
});

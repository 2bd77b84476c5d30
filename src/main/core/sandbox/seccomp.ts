// The seccomp filter every process of a Linux sandbox runs under: a classic-BPF program, generated
// here for x86_64 and aarch64 and handed to bubblewrap (`--seccomp FD`), that refuses the system
// calls an agent never needs and a way out would: changing mounts, new namespaces, tracing or
// reading other processes, the kernel keyring, BPF, perf, modules, kexec, file handles (which open
// files by inode, around the mounts), userfaultfd and io_uring (whose requests bypass this
// filter), and injecting input into a terminal. Everything else is allowed: the filter is a short
// deny list, not an allow list, so that any CLI and its tools run unchanged.
//
// Sockets: AF_UNIX stays allowed (the sandbox's bridges reach Steward's proxy through Unix sockets,
// and tools use them among themselves), AF_NETLINK too (getifaddrs, which Node's
// os.networkInterfaces uses, asks over it; without capabilities it changes nothing); any other
// family than those and IPv4/IPv6 is refused (AF_VSOCK would reach a VM's host, AF_PACKET and
// AF_ALG are attack surface nothing needs).
//
// A call made with another architecture's numbers (i386 on x86_64, arm32 on aarch64, x32) kills
// the process: this filter cannot tell what those numbers mean.

export type SeccompArch = 'x86_64' | 'aarch64';

/** The architectures the filter knows, by Node's name for them. */
export function seccompArch(nodeArch: string = process.arch): SeccompArch | undefined {
  if (nodeArch === 'x64') return 'x86_64';
  if (nodeArch === 'arm64') return 'aarch64';
  return undefined;
}

/** AUDIT_ARCH_* (linux/audit.h): what the kernel puts in seccomp_data.arch. */
const auditArch: Record<SeccompArch, number> = { x86_64: 0xc000003e, aarch64: 0xc00000b7 };

/** System call numbers (asm/unistd_64.h for x86_64, asm-generic/unistd.h for aarch64). */
const calls = {
  mount: [165, 40],
  umount2: [166, 39],
  pivot_root: [155, 41],
  chroot: [161, 51],
  open_tree: [428, 428],
  move_mount: [429, 429],
  fsopen: [430, 430],
  fsconfig: [431, 431],
  fsmount: [432, 432],
  fspick: [433, 433],
  mount_setattr: [442, 442],
  unshare: [272, 97],
  clone: [56, 220],
  clone3: [435, 435],
  setns: [308, 268],
  ptrace: [101, 117],
  process_vm_readv: [310, 270],
  process_vm_writev: [311, 271],
  keyctl: [250, 219],
  add_key: [248, 217],
  request_key: [249, 218],
  bpf: [321, 280],
  perf_event_open: [298, 241],
  init_module: [175, 105],
  finit_module: [313, 273],
  delete_module: [176, 106],
  kexec_load: [246, 104],
  kexec_file_load: [320, 294],
  open_by_handle_at: [304, 265],
  name_to_handle_at: [303, 264],
  userfaultfd: [323, 282],
  io_uring_setup: [425, 425],
  io_uring_enter: [426, 426],
  io_uring_register: [427, 427],
  socket: [41, 198],
  ioctl: [16, 29],
} as const satisfies Record<string, readonly [x86_64: number, aarch64: number]>;
export type SyscallName = keyof typeof calls;

export const syscallNumber = (name: SyscallName, arch: SeccompArch): number => calls[name][arch === 'x86_64' ? 0 : 1];

/** Refused outright with EPERM. */
export const refusedCalls: readonly SyscallName[] = [
  'mount', 'umount2', 'pivot_root', 'chroot', 'open_tree', 'move_mount', 'fsopen', 'fsconfig', 'fsmount', 'fspick', 'mount_setattr',
  'setns', 'ptrace', 'process_vm_readv', 'process_vm_writev', 'keyctl', 'add_key', 'request_key', 'bpf', 'perf_event_open',
  'init_module', 'finit_module', 'delete_module', 'kexec_load', 'kexec_file_load', 'open_by_handle_at', 'name_to_handle_at', 'userfaultfd',
];
/**
 * Answered ENOSYS, as a kernel without them would: clone3 (its flags are in memory the filter cannot
 * read; libc then falls back to clone, whose flags it can) and io_uring (runtimes fall back to threads).
 */
export const absentCalls: readonly SyscallName[] = ['clone3', 'io_uring_setup', 'io_uring_enter', 'io_uring_register'];

/** CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET (linux/sched.h). */
const cloneNamespaces = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000;
/** unshare also takes CLONE_NEWTIME, which clone's low byte (the exit signal) cannot carry. */
const unshareNamespaces = cloneNamespaces | 0x00000080;
/** AF_UNIX, AF_INET, AF_INET6, AF_NETLINK. */
export const allowedSocketFamilies = [1, 2, 10, 16] as const;
/** TIOCSTI (push input into a terminal) and TIOCLINUX (its console's selection, same effect). */
const terminalInjection = [0x5412, 0x541c] as const;

const EPERM = 1;
const ENOSYS = 38;
const EAFNOSUPPORT = 97;

const RET_KILL_PROCESS = 0x80000000;
const RET_ERRNO = 0x00050000;
const RET_ALLOW = 0x7fff0000;

// Classic BPF opcodes (linux/bpf_common.h).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;

// Offsets in struct seccomp_data: nr, arch, then six 64-bit arguments; the low half comes first on
// these little-endian machines, and every argument checked here is an int the kernel truncates.
const nrAt = 0;
const archAt = 4;
const argLowAt = (index: number) => 16 + 8 * index;

/** Where a jump goes: the next instruction, or a label further on. */
type Target = 0 | string;
interface Step {
  code: number;
  k: number;
  jt?: Target;
  jf?: Target;
  label?: string;
}

const load = (offset: number, label?: string): Step => ({ code: LD_W_ABS, k: offset, label });
const ret = (value: number, label?: string): Step => ({ code: RET_K, k: value >>> 0, label });
const jumpIf = (code: number, k: number, jt: Target, jf: Target = 0): Step => ({ code, k: k >>> 0, jt, jf });

function steps(arch: SeccompArch): Step[] {
  const nr = (name: SyscallName) => syscallNumber(name, arch);
  return [
    load(archAt),
    jumpIf(JEQ_K, auditArch[arch], 'native', 'kill'),
    load(nrAt, 'native'),
    // x32 calls carry the x86_64 arch with bit 30 set in their number: another table, refused.
    ...(arch === 'x86_64' ? [jumpIf(JGE_K, 0x40000000, 'kill')] : []),
    ...refusedCalls.map((name) => jumpIf(JEQ_K, nr(name), 'eperm')),
    ...absentCalls.map((name) => jumpIf(JEQ_K, nr(name), 'enosys')),
    jumpIf(JEQ_K, nr('clone'), 'clone'),
    jumpIf(JEQ_K, nr('unshare'), 'unshare'),
    jumpIf(JEQ_K, nr('socket'), 'socket'),
    jumpIf(JEQ_K, nr('ioctl'), 'ioctl', 'allow'),

    load(argLowAt(0), 'clone'),
    jumpIf(JSET_K, cloneNamespaces, 'eperm', 'allow'),
    load(argLowAt(0), 'unshare'),
    jumpIf(JSET_K, unshareNamespaces, 'eperm', 'allow'),
    load(argLowAt(0), 'socket'),
    ...allowedSocketFamilies.map((family) => jumpIf(JEQ_K, family, 'allow')),
    ret(RET_ERRNO | EAFNOSUPPORT),
    load(argLowAt(1), 'ioctl'),
    ...terminalInjection.map((request) => jumpIf(JEQ_K, request, 'eperm')),

    ret(RET_ALLOW, 'allow'),
    ret(RET_ERRNO | EPERM, 'eperm'),
    ret(RET_ERRNO | ENOSYS, 'enosys'),
    ret(RET_KILL_PROCESS, 'kill'),
  ];
}

/** The filter as the kernel takes it: struct sock_filter[] (u16 code, u8 jt, u8 jf, u32 k), little-endian. */
export function seccompFilter(arch: SeccompArch): Buffer {
  const program = steps(arch);
  const at = new Map(program.flatMap((step, index) => (step.label ? [[step.label, index] as const] : [])));
  const offset = (from: number, target: Target | undefined): number => {
    if (target === undefined || target === 0) return 0;
    const to = at.get(target);
    // Classic BPF jumps only forward, at most 255 instructions: a filter that breaks either is a bug here.
    if (to === undefined || to <= from || to - from - 1 > 255) throw new Error(`seccomp: no jump from ${from} to ${target}`);
    return to - from - 1;
  };
  const out = Buffer.alloc(program.length * 8);
  program.forEach((step, index) => {
    out.writeUInt16LE(step.code, index * 8);
    out.writeUInt8(offset(index, step.jt), index * 8 + 2);
    out.writeUInt8(offset(index, step.jf), index * 8 + 3);
    out.writeUInt32LE(step.k, index * 8 + 4);
  });
  return out;
}

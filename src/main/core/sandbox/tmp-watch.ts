// Whether a run filled its private /tmp (or /dev/shm). Each tmpfs lives in its sandbox's mount
// namespace, gone with it; so as soon as bwrap has mounted them (its info file, in the run's launch
// folder, names the sandbox's pid; the folders are taken once /proc/<pid>/root shows tmpfs of the
// run's size there), Steward opens both, and the open descriptors keep each tmpfs to be measured
// (statfs through /proc/self/fd) while the sandbox lives and once after it ended. "Full" is what
// the kernel says of the tmpfs, not a guess from an error message.
import fs from 'node:fs';
import path from 'node:path';

/** How often the held folders are measured, and how often a sandbox still being set up is looked at again. */
const measureEveryMs = 1_000;
const setupEveryMs = 10;
/** A sandbox whose folders cannot be taken by then is not watched (its limit still holds; only the reason would go unsaid). */
const setupForMs = 5_000;
/** statfs's f_type for tmpfs. */
const tmpfsMagic = 0x01021994;
const openDirectory = fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW;

interface Sandbox {
  pid: number;
  mountNamespace: number;
}

function infoOf(file: string): Sandbox | undefined {
  try {
    const info = JSON.parse(fs.readFileSync(file, 'utf8')) as { 'child-pid'?: unknown; 'mnt-namespace'?: unknown };
    const pid = info['child-pid'];
    const mountNamespace = info['mnt-namespace'];
    return typeof pid === 'number' && typeof mountNamespace === 'number' ? { pid, mountNamespace } : undefined;
  } catch {
    // not written yet, or bwrap failed before it could
    return undefined;
  }
}

/** Whether that sandbox still runs: the pid is the same process while it is in the same mount namespace. */
function alive(sandbox: Sandbox): boolean {
  try {
    return fs.statSync(`/proc/${sandbox.pid}/ns/mnt`).ino === sandbox.mountNamespace;
  } catch {
    return false;
  }
}

const statOf = (fd: number) => fs.statfsSync(`/proc/self/fd/${fd}`);
const isRunTmpfs = (fd: number, bytes: number) => {
  const stats = statOf(fd);
  return stats.type === tmpfsMagic && stats.blocks * stats.bsize === bytes;
};

/** Its /tmp and /dev/shm held open, once bwrap has mounted both; undefined while it has not yet. */
function holdFolders(sandbox: Sandbox, bytes: number): number[] | undefined {
  const fds: number[] = [];
  try {
    for (const folder of ['tmp', 'dev/shm']) {
      const fd = fs.openSync(`/proc/${sandbox.pid}/root/${folder}`, openDirectory);
      fds.push(fd);
      if (!isRunTmpfs(fd, bytes)) throw new Error('not mounted yet');
    }
    // Still the sandbox's process after the folders were opened: not those of a process that reused the pid.
    if (alive(sandbox)) return fds;
  } catch {
    // being set up, or gone
  }
  for (const fd of fds) fs.closeSync(fd);
  return undefined;
}

function full(fd: number): boolean {
  try {
    return statOf(fd).bavail === 0;
  } catch {
    return false;
  }
}

/** Watches the sandboxes whose info files appear in `launchDir`, each with tmpfs of `tmpMb`. */
export function watchTmp(launchDir: string, tmpMb: number): { full(): boolean; stop(): void } {
  const bytes = tmpMb * 1024 * 1024;
  const held = new Map<string, Sandbox & { fds: number[] }>();
  /** Info files seen, whose sandbox is not set up yet, and when they were first seen. */
  const settingUp = new Map<string, { sandbox: Sandbox | undefined; since: number }>();
  const done = new Set<string>();
  let seenFull = false;
  let setupTimer: NodeJS.Timeout | undefined;

  const measure = (name: string, sandbox: Sandbox & { fds: number[] }) => {
    if (sandbox.fds.some(full)) seenFull = true;
    // Measured once more after its end, above; then its tmpfs may go.
    if (alive(sandbox)) return;
    for (const fd of sandbox.fds) fs.closeSync(fd);
    held.delete(name);
    done.add(name);
  };
  const trySetUp = () => {
    for (const [name, pending] of settingUp) {
      pending.sandbox ??= infoOf(path.join(launchDir, name));
      const fds = pending.sandbox && holdFolders(pending.sandbox, bytes);
      if (pending.sandbox && fds) held.set(name, { ...pending.sandbox, fds });
      const over = Date.now() - pending.since > setupForMs || (pending.sandbox !== undefined && !alive(pending.sandbox));
      if (fds || over) {
        settingUp.delete(name);
        if (!fds) done.add(name);
      }
    }
    clearTimeout(setupTimer);
    setupTimer = settingUp.size > 0 ? setTimeout(trySetUp, setupEveryMs).unref() : undefined;
  };
  const notice = (name: string) => {
    if (!name.endsWith('.json') || done.has(name) || held.has(name) || settingUp.has(name)) return;
    settingUp.set(name, { sandbox: undefined, since: Date.now() });
    trySetUp();
  };
  const sample = () => {
    try {
      for (const name of fs.readdirSync(launchDir)) notice(name);
    } catch {
      // the run is closing
    }
    for (const [name, sandbox] of held) measure(name, sandbox);
  };
  let watcher: fs.FSWatcher | undefined;
  try {
    watcher = fs.watch(launchDir, (_event, name) => name && notice(name));
    watcher.on('error', () => undefined);
  } catch {
    // the interval alone, then
  }
  const timer = setInterval(sample, measureEveryMs).unref();
  return {
    full: () => {
      sample();
      return seenFull;
    },
    stop: () => {
      clearInterval(timer);
      clearTimeout(setupTimer);
      watcher?.close();
      for (const sandbox of held.values()) for (const fd of sandbox.fds) fs.closeSync(fd);
      held.clear();
    },
  };
}

// Whether a run filled its private /tmp (or /dev/shm): the tmpfs lives in the sandbox's mount
// namespace and is gone with it, so it is looked at while the run lasts, once a second, through
// /proc/<pid>/root of each sandbox the run started (bwrap writes that pid to its info file). A
// sample that finds one full is remembered; a tmpfs filled and emptied between two samples is
// missed, so this is "seen full", never a guess from an error message.
import fs from 'node:fs';
import path from 'node:path';

const everyMs = 1_000;
/** statfs's f_type for tmpfs. */
const tmpfsMagic = 0x01021994;

interface Launch {
  pid: number;
  mountNamespace: number;
}

function launchOf(file: string): Launch | undefined {
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

/** Whether that sandbox still runs: the pid is the same process if it is in the same mount namespace. */
function alive(launch: Launch): boolean {
  try {
    return fs.statSync(`/proc/${launch.pid}/ns/mnt`).ino === launch.mountNamespace;
  } catch {
    return false;
  }
}

function full(folder: string, bytes: number): boolean {
  try {
    const stats = fs.statfsSync(folder);
    return stats.type === tmpfsMagic && stats.blocks * stats.bsize === bytes && stats.bavail === 0;
  } catch {
    return false;
  }
}

/** Watches the sandboxes whose info files appear in `launchDir`, each with tmpfs of `tmpMb`. */
export function watchTmp(launchDir: string, tmpMb: number): { full(): boolean; stop(): void } {
  const bytes = tmpMb * 1024 * 1024;
  const ended = new Set<string>();
  let seenFull = false;
  const sample = () => {
    let names: string[];
    try {
      names = fs.readdirSync(launchDir).filter((name) => name.endsWith('.json') && !ended.has(name));
    } catch {
      return;
    }
    for (const name of names) {
      const launch = launchOf(path.join(launchDir, name));
      if (!launch) continue;
      if (!alive(launch)) {
        ended.add(name);
        continue;
      }
      if (full(`/proc/${launch.pid}/root/tmp`, bytes) || full(`/proc/${launch.pid}/root/dev/shm`, bytes)) seenFull = true;
    }
  };
  const timer = setInterval(sample, everyMs).unref();
  return {
    full: () => {
      if (!seenFull) sample();
      return seenFull;
    },
    stop: () => clearInterval(timer),
  };
}

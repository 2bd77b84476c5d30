// What of the machine itself a sandboxed run sees, read-only: on Linux the system's folders
// (programs, libraries, /etc, /opt), and nothing of the people on it (/home, /root, /srv, /mnt,
// /media, /var, /run: the sandbox's root is empty but for what is bound into it). /etc is shown
// without what only its owner or group may read (/etc/shadow, sudoers, SSH host keys, TLS private
// keys, a database server's pg_hba.conf): when Steward runs as root the sandbox's user is mapped to
// the files' owner and would read them. Which files those are is told by their mode, not by a list
// of names, in a scan that takes tens of milliseconds: it runs in the background, at most once a
// minute, and a run uses the last one (plus the names below, checked every time).
import fs from 'node:fs';
import path from 'node:path';

/** Top-level system folders, where they exist; those that are links (/bin → usr/bin) are made links inside. */
const linuxSystem = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt', '/nix', '/gnu', '/snap', '/run/current-system', '/var/lib/ca-certificates'];
/** What libraries read of /sys (CPU counts, devices), as Flatpak gives it; not the cgroup tree or the kernel's knobs. */
const linuxSys = ['/sys/block', '/sys/bus', '/sys/class', '/sys/dev', '/sys/devices'];

/** Secrets of /etc by name, hidden whatever their mode says (the scan finds them too, and more). */
const knownSecrets = ['shadow', 'shadow-', 'gshadow', 'gshadow-', 'master.passwd', 'sudoers', 'sudoers.d', 'security/opasswd', 'ssl/private', 'krb5.keytab'];

export interface SystemView {
  /** Folders bound read-only. */
  read: string[];
  /** Links made inside, so that paths through them resolve. */
  links: { path: string; target: string }[];
}

/** The system's folders a sandbox shows on `platform` (Linux; elsewhere the backend decides). */
export function systemView(platform: NodeJS.Platform = process.platform): SystemView {
  if (platform !== 'linux') return { read: [], links: [] };
  const view: SystemView = { read: [], links: [] };
  for (const folder of [...linuxSystem, ...linuxSys]) {
    try {
      const stat = fs.lstatSync(folder);
      if (stat.isSymbolicLink()) view.links.push({ path: folder, target: fs.readlinkSync(folder) });
      else if (stat.isDirectory()) view.read.push(folder);
    } catch {
      // not on this machine
    }
  }
  return view;
}

const etc = (() => {
  try {
    return fs.realpathSync('/etc');
  } catch {
    return '/etc';
  }
})();

/** Secrets by name that exist now, and the SSH host keys (their .pub halves are public). */
function namedSecrets(): string[] {
  const named = knownSecrets.map((name) => path.join(etc, name));
  let sshKeys: string[] = [];
  try {
    sshKeys = fs.readdirSync(path.join(etc, 'ssh')).filter((name) => /^ssh_host_.*key$/.test(name)).map((name) => path.join(etc, 'ssh', name));
  } catch {
    // no SSH server
  }
  return [...named, ...sshKeys].filter((file) => fs.existsSync(file));
}

const maxDepth = 6;
const maxEntries = 20_000;

/** Everything under /etc that others may not read: a file without o+r, a folder without o+rx (not entered). */
async function scanEtc(): Promise<string[]> {
  const found: string[] = [];
  let seen = 0;
  const walk = async (folder: string, depthLeft: number): Promise<void> => {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (++seen > maxEntries) return;
      if (entry.isSymbolicLink()) continue; // what it points to is judged where it is
      const file = path.join(folder, entry.name);
      let mode: number;
      try {
        mode = (await fs.promises.lstat(file)).mode;
      } catch {
        continue;
      }
      if (entry.isDirectory()) {
        if ((mode & 0o005) !== 0o005) found.push(file);
        else if (depthLeft > 0) await walk(file, depthLeft - 1);
      } else if ((mode & 0o004) === 0) {
        found.push(file);
      }
    }
  };
  await walk(etc, maxDepth);
  return found;
}

const rescanAfterMs = 60_000;
let scanned: { at: number; found: string[] } | undefined;
let scanning: Promise<string[]> | undefined;

function rescan(): Promise<string[]> {
  scanning ??= scanEtc()
    .then((found) => {
      scanned = { at: Date.now(), found };
      return found;
    })
    .finally(() => {
      scanning = undefined;
    });
  return scanning;
}

/** What of /etc a sandbox hides: the last scan's finds (waited for only the first time) and the known names. */
export async function etcSecrets(): Promise<string[]> {
  const last = scanned;
  if (last === undefined) await rescan();
  else if (Date.now() - last.at > rescanAfterMs) void rescan();
  return [...new Set([...(scanned?.found ?? []), ...namedSecrets()])];
}

/** Starts the first scan early (at startup), so that the first run does not wait for it. */
export function prepareEtcSecrets(): void {
  if (scanned === undefined) void rescan();
}

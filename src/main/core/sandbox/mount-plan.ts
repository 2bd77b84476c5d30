// A policy's paths as bubblewrap mounts. The sandbox's root is an empty tmpfs: what is bound into it
// is all a run sees. bwrap applies mounts in order, so they go parents first (and at one path:
// Steward's hiding, then what may be read, then written, then the protected startup files, then the
// user's denials); a hiding or a protection is applied only where it lies in something visible or
// writable, where it changes anything. Links come last, where nothing bound holds them.
//
// A protected startup file that exists is bound read-only over itself, and every folder between it
// and its writable folder is bound over itself too ("pinned"): a mount point cannot be renamed or
// removed, so the run cannot move `.git` aside and make a new one. One that does not exist gets a
// placeholder where its path first goes missing (an empty read-only file for a file, an empty
// read-only folder for a folder or a folder on the way), so that it cannot be created. bwrap makes
// the placeholder's mount point on the host, in the user's folder: it is removed when the last
// sandbox using it closes (placeholders.ts). A link on the way cannot be pinned (the run could
// replace it), so the run is refused with the remedy.
import fs from 'node:fs';
import path from 'node:path';
import { depth, isAtOrUnder } from './paths';
import { isPlaceholder } from './placeholders';
import type { ProtectedPath, SandboxPolicy } from './policy';

type Mount = { path: string; kind: 'hide' | 'read' | 'write' | 'pin' | 'deny' } | { path: string; kind: 'protect'; placeholder: 'file' | 'folder' | undefined };

const order: Record<Mount['kind'], number> = { hide: 0, read: 1, write: 2, pin: 2, protect: 3, deny: 4 };
const shows = (mount: Mount | undefined) => mount !== undefined && (mount.kind === 'read' || mount.kind === 'write' || mount.kind === 'pin' || (mount.kind === 'protect' && mount.placeholder === undefined));
const writes = (mount: Mount | undefined) => mount !== undefined && (mount.kind === 'write' || mount.kind === 'pin');

function kindOf(file: string): 'folder' | 'file' | undefined {
  try {
    return fs.statSync(file).isDirectory() ? 'folder' : 'file';
  } catch {
    return undefined;
  }
}

/** A run's sandbox cannot start: the message says why and what to do. */
export class SandboxRefused extends Error {}

/** How one startup file is protected: the folders on its way pinned, then itself or a placeholder. */
function protection(entry: ProtectedPath): Mount[] {
  const parts = path.relative(entry.root, entry.path).split(path.sep);
  const mounts: Mount[] = [];
  let current = entry.root;
  for (const [index, part] of parts.entries()) {
    current = path.join(current, part);
    const last = index === parts.length - 1;
    const wanted = last ? entry.kind : 'folder';
    // Another sandbox's placeholder is one here too, whatever the disk shows while it lives.
    if (isPlaceholder(current)) return [...mounts, { path: current, kind: 'protect', placeholder: wanted }];
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(current);
    } catch {
      return [...mounts, { path: current, kind: 'protect', placeholder: wanted }];
    }
    if (stat.isSymbolicLink()) {
      throw new SandboxRefused(
        `The sandbox cannot protect ${entry.path}: ${current} is a symbolic link, which a run could replace. Replace the link with what it points to, or add ${entry.path} to the instance's sandbox writeAllow to let runs change it.`,
      );
    }
    // A file on the way (a worktree's .git): nothing can be created below it while it stays, so it stays.
    if (last || !stat.isDirectory()) return [...mounts, { path: current, kind: 'protect', placeholder: undefined }];
    mounts.push({ path: current, kind: 'pin' });
  }
  return mounts;
}

export interface MountPlan {
  args: string[];
  /** Placeholders bwrap makes on the host (paths that did not exist). */
  placeholders: { path: string; kind: 'file' | 'folder' }[];
}

/** The mounts of the policy's paths, and the placeholders they make; paths that do not exist are left alone (nothing to show or hide). */
export function planMounts(policy: SandboxPolicy): MountPlan {
  const wanted: Mount[] = [
    ...policy.hidden.map((file): Mount => ({ path: file, kind: 'hide' })),
    ...policy.readable.map((file): Mount => ({ path: file, kind: 'read' })),
    ...policy.writable.map((file): Mount => ({ path: file, kind: 'write' })),
    ...policy.protected.flatMap(protection),
    ...policy.denied.map((file): Mount => ({ path: file, kind: 'deny' })),
  ].sort((a, b) => depth(a.path) - depth(b.path) || order[a.kind] - order[b.kind]);
  const done: Mount[] = [];
  /** What is at `file` so far: the deepest mount at or above it, the last of those at one path. */
  const at = (file: string) => done.reduce<Mount | undefined>((found, mount) => (isAtOrUnder(file, mount.path) && (found === undefined || depth(mount.path) >= depth(found.path)) ? mount : found), undefined);
  const args: string[] = [];
  const placeholders: MountPlan['placeholders'] = [];
  const seen = new Set<string>();
  for (const mount of wanted) {
    const key = `${mount.kind} ${mount.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const here = at(mount.path);
    if (mount.kind === 'pin') {
      // Only in a writable folder: read-only or hidden already, it needs nothing.
      if (!writes(here)) continue;
      args.push('--bind', mount.path, mount.path);
      done.push(mount);
      continue;
    }
    if (mount.kind === 'protect') {
      if (!writes(here)) continue;
      if (mount.placeholder === undefined) args.push('--ro-bind', mount.path, mount.path);
      else if (mount.placeholder === 'file') args.push('--ro-bind', '/dev/null', mount.path);
      else args.push('--tmpfs', mount.path, '--remount-ro', mount.path);
      if (mount.placeholder !== undefined) placeholders.push({ path: mount.path, kind: mount.placeholder });
      done.push(mount);
      continue;
    }
    const kind = kindOf(mount.path);
    if (kind === undefined) continue;
    // Inside a folder shown the same way already (node in /usr/bin), a bind adds nothing.
    if ((mount.kind === 'read' && here?.kind === 'read') || (mount.kind === 'write' && here?.kind === 'write' && here.path !== mount.path)) continue;
    if (mount.kind === 'read') args.push('--ro-bind', mount.path, mount.path);
    else if (mount.kind === 'write') args.push('--bind', mount.path, mount.path);
    else if (!shows(here)) continue;
    else args.push(...(kind === 'folder' ? ['--tmpfs', mount.path] : ['--ro-bind', '/dev/null', mount.path]));
    done.push(mount);
  }
  for (const link of policy.links) {
    if (seen.has(`link ${link.path}`) || done.some((mount) => isAtOrUnder(link.path, mount.path))) continue;
    seen.add(`link ${link.path}`);
    args.push('--symlink', link.target, link.path);
  }
  return { args, placeholders };
}

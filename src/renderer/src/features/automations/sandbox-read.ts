// Whether the runs of an instance can read a watched folder: a sandboxed instance reads its
// workspace, the system's folders and what its sandbox's readAllow and writeAllow name, less
// readDeny (src/main/core/sandbox/policy.ts). Said in the form, so a folder the agent cannot open is
// known before the first file lands. Paths are compared as written: ~ stays ~ here, since the
// renderer does not know the home folder, and a mix of ~/… and absolute paths is said with "may".
import type { Instance } from '../../../../shared/contract';

/** `~/a//b/` → `~/a/b`; `/x/./y` → `/x/y`. */
export function normalPath(value: string): string {
  const trimmed = value.trim();
  const parts = trimmed.split('/').filter((part, index) => (part !== '' && part !== '.') || index === 0);
  const joined = parts.join('/');
  return joined === '' ? '/' : joined;
}

const homeForm = (value: string) => value === '~' || value.startsWith('~/');

function isAtOrUnder(path: string, folder: string): boolean {
  if (folder === '/') return path.startsWith('/');
  return path === folder || path.startsWith(`${folder}/`);
}

/** Why runs of `instance` cannot read `folder`, in words; undefined when they can (or it is not known yet). */
export function unreadableFolderWords(folder: string, instance: Pick<Instance, 'sandbox' | 'workspaceDir'> | undefined): string | undefined {
  if (!instance || instance.sandbox.mode === 'off' || folder.trim() === '') return undefined;
  const path = normalPath(folder);
  const { readAllow = [], writeAllow = [], readDeny = [] } = instance.sandbox;
  const named = [...readAllow, ...writeAllow].map(normalPath);
  const given = [...named, normalPath(instance.workspaceDir)];
  const hidden = readDeny.map(normalPath).find((entry) => isAtOrUnder(path, entry));
  if (hidden) return `Runs of this instance cannot read ${folder.trim()}: its sandbox hides ${hidden}. Remove it from the instance's hidden folders, or watch another folder.`;
  if (given.some((entry) => isAtOrUnder(path, entry))) return undefined;
  // ~/x against /home/me/x cannot be told apart here: said as a doubt, not as a fact.
  const unsure = named.some((entry) => homeForm(entry) !== homeForm(path));
  return `Runs of this instance ${unsure ? 'may not be able to' : 'cannot'} read ${folder.trim()}: add it to the instance's folders (Also readable, in its sandbox).`;
}

// A watched configuration folder is applied with a person's full power (it can make an unsandboxed
// instance, or an event trigger that reads past every wall), so no sandboxed run may write into it:
// not inside Steward's data folder (the workspaces, the runs' own folders), not in or around any
// sandboxed instance's workspace or writeAllow. An instance whose sandbox is off already runs as
// the user, with the user's files: it gains nothing here.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Store } from '../store';
import { isAtOrUnder } from '../sandbox/paths';
import { resolvePath } from '../sandbox/policy';

const real = (file: string) => {
  try {
    return fs.realpathSync(file);
  } catch {
    return path.resolve(file);
  }
};

/** Why runs could write into `folder`, in words; undefined when none can. */
export function folderWriters(store: Store, dataDir: string, folder: string, home = os.homedir()): string | undefined {
  const target = real(folder);
  const overlaps = (writable: string) => isAtOrUnder(target, writable) || isAtOrUnder(writable, target);
  if (overlaps(real(dataDir))) return `${folder} is in or around Steward's data folder, where runs write.`;
  for (const instance of store.instances.list()) {
    if (instance.sandbox.mode === 'off') continue;
    const writable = [instance.workspaceDir, ...instance.sandbox.writeAllow].map((entry) => resolvePath(entry, home));
    const shared = writable.find(overlaps);
    if (shared) return `Runs of the instance "${instance.name}" can write in ${shared}, which is ${folder} or holds it or lies in it: a run could rewrite the configuration. Choose a folder no sandboxed run can write.`;
  }
  return undefined;
}

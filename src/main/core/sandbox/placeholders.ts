// The placeholders bwrap makes on the host for protected startup files that do not exist (an empty
// file or folder in the user's workspace, the mount point of what keeps the run from creating
// them), counted by the sandboxes using them: removed when the last one closes, and only while
// still empty. Two instances may share a workspace: one's placeholder is the other's too, since a
// mount point removed on the host would take the other sandbox's protection with it.
import fs from 'node:fs';

const users = new Map<string, number>();

/** Whether `file` is a placeholder a live sandbox uses. */
export const isPlaceholder = (file: string): boolean => users.has(file);

/** A sandbox opens with these placeholders. */
export function holdPlaceholders(files: string[]): void {
  for (const file of files) users.set(file, (users.get(file) ?? 0) + 1);
}

/** A sandbox closed: what no other uses is removed, if it is still the empty file or folder bwrap made. */
export function releasePlaceholders(files: string[]): void {
  for (const file of files) {
    const left = (users.get(file) ?? 1) - 1;
    if (left > 0) {
      users.set(file, left);
      continue;
    }
    users.delete(file);
    try {
      const stat = fs.lstatSync(file);
      if (stat.isFile() && stat.size === 0) fs.unlinkSync(file);
      else if (stat.isDirectory() && fs.readdirSync(file).length === 0) fs.rmdirSync(file);
    } catch {
      // gone already, or not ours to remove
    }
  }
}

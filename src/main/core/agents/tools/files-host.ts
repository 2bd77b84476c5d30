// The files tools' reads and writes done by Steward itself, for a run without a sandbox. A path was
// checked to lie in the workspace (files.ts), but the run may change the workspace meanwhile: each
// file is opened without following a link at its end and without blocking, and where the opened
// file really is (its /proc/self/fd link on Linux) is checked again before it is used. Only regular
// files are read or written, never a FIFO or a device.
import fs from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from './tool';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY } = fs.constants;

export const isInside = (root: string, file: string) => {
  const relative = path.relative(root, file);
  return !relative.startsWith('..') && !path.isAbsolute(relative);
};

/** Where an open file is now: the link the kernel keeps for it (Linux), or the path's real path elsewhere. */
async function whereOpen(handle: fs.FileHandle, file: string): Promise<string> {
  return process.platform === 'linux' ? fs.readlink(`/proc/self/fd/${handle.fd}`) : fs.realpath(file);
}

/** An opened file found outside the workspace, and where. */
class OutsideWorkspace extends ToolError {
  constructor(
    shown: string,
    readonly where: string,
  ) {
    super(`${shown} is outside the workspace.`);
  }
}

/** `file` opened and found inside `root`; `shown` names it in errors. */
async function openInside(root: string, file: string, shown: string, flags: number, mode?: number): Promise<{ handle: fs.FileHandle; where: string }> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, flags | O_NOFOLLOW | O_NONBLOCK, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new ToolError(`${shown} is a link that leads outside the workspace.`);
    throw error;
  }
  const where = await whereOpen(handle, file).catch(() => '');
  if (!isInside(root, where)) {
    await handle.close();
    throw new OutsideWorkspace(shown, where);
  }
  return { handle, where };
}

/** Its first `maxBytes`, and whether there was more. */
export async function readOnHost(root: string, file: string, shown: string, maxBytes: number): Promise<{ bytes: Buffer; more: boolean }> {
  const { handle } = await openInside(root, file, shown, O_RDONLY);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new ToolError(`${shown} is not a regular file.`);
    const buffer = Buffer.alloc(Math.min(stat.size, maxBytes) + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read) ({ bytesRead: read } = await handle.read(buffer, length, buffer.length - length, length));
    return { bytes: buffer.subarray(0, Math.min(length, maxBytes)), more: length > maxBytes };
  } finally {
    await handle.close();
  }
}

export async function writeOnHost(root: string, file: string, shown: string, content: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  // Made anew when it is not there (O_EXCL: not even as a link), so that one made outside can be taken back.
  let opened: { handle: fs.FileHandle; where: string };
  let created = true;
  try {
    opened = await openInside(root, file, shown, O_WRONLY | O_CREAT | O_EXCL, 0o644);
  } catch (error) {
    // Made outside, through a folder swapped for a link after the check: taken back, empty as it is.
    if (error instanceof OutsideWorkspace && error.where !== '') await fs.rm(error.where, { force: true });
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    created = false;
    opened = await openInside(root, file, shown, O_WRONLY);
  }
  const { handle } = opened;
  try {
    if (!(await handle.stat()).isFile()) throw new ToolError(`${shown} is not a regular file.`);
    await handle.truncate(0);
    await handle.write(content, 0, 'utf8');
  } catch (error) {
    if (created) await fs.rm(opened.where, { force: true });
    throw error;
  } finally {
    await handle.close();
  }
}

/** The folder's entries, folders ending with `/`. */
export async function listOnHost(root: string, folder: string, shown: string): Promise<string[]> {
  const { handle } = await openInside(root, folder, shown, O_RDONLY | O_DIRECTORY);
  try {
    // Read through the open folder itself where the platform allows it, not through its path again.
    const entries = await fs.readdir(process.platform === 'linux' ? `/proc/self/fd/${handle.fd}` : folder, { withFileTypes: true });
    return entries.map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name));
  } finally {
    await handle.close();
  }
}

// Files a run could have written (in its workspace, its CLI's state, its configuration folder), as
// Steward reads, copies and replaces them. Read: a file may be a link to a file of the user's, a
// FIFO that would block the event loop forever, a device, or huge; it is opened without following a
// link and without blocking, read only when it is a regular file, and only up to a cap; anything
// else reads as absent. Written where a run can write: never through a link it planted (a new file
// of a random name, opened exclusively, then renamed over the old).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const defaultCapBytes = 1024 * 1024;

/** Reads a regular file opened without following a link or blocking: `read` gets its descriptor and size. */
function withRegularFile<T>(file: string, read: (fd: number, size: number) => T | undefined): T | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stat = fs.fstatSync(fd);
    return stat.isFile() ? read(fd, stat.size) : undefined;
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** Up to `length` bytes from the start of `fd`. */
function readUpTo(fd: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  let filled = 0;
  for (let read = -1; read !== 0 && filled < length; filled += read) read = fs.readSync(fd, buffer, filled, length - filled, null);
  return buffer.subarray(0, filled);
}

/** The file's bytes, or undefined when it is missing, not a regular file, a link, or over `capBytes`. */
export function readRunWrittenBytes(file: string, capBytes = defaultCapBytes): Buffer | undefined {
  return withRegularFile(file, (fd, size) => {
    if (size > capBytes) return undefined;
    const read = readUpTo(fd, Math.min(size, capBytes) + 1);
    return read.length > capBytes ? undefined : read;
  });
}

/** The file's text, or undefined when it is missing, not a regular file, a link, or over `capBytes`. */
export function readRunWrittenFile(file: string, capBytes = defaultCapBytes): string | undefined {
  return readRunWrittenBytes(file, capBytes)?.toString('utf8');
}

/** The first `bytes` bytes of the file (a script's `#!` line), whatever its size; undefined as above. */
export function readRunWrittenHead(file: string, bytes: number): Buffer | undefined {
  return withRegularFile(file, (fd) => readUpTo(fd, bytes));
}

/** A new file that did not exist, not even as a link: O_EXCL refuses whatever is at the name. */
function writeNewFile(file: string, content: string | Buffer, mode: number): void {
  const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, mode);
  try {
    fs.writeFileSync(fd, content);
  } finally {
    fs.closeSync(fd);
  }
}

/** `file` replaced by `content` in a folder a run can write: what is at its name (a link too) is replaced, never written through. */
export function replaceRunReachableFile(file: string, content: string | Buffer, mode = 0o600): void {
  const partial = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  writeNewFile(partial, content, mode);
  try {
    fs.renameSync(partial, file);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
}

export interface CopyLimits {
  /** Files and folders, in all. */
  entries: number;
  bytes: number;
  depth: number;
}

const defaultCopyLimits: CopyLimits = { entries: 10_000, bytes: 64 * 1024 * 1024, depth: 16 };

/**
 * Copies what a run wrote at `from` to `to` when nothing is at `to` yet: folders and regular files
 * only (links, FIFOs, sockets and devices are left behind), each file as readRunWrittenBytes reads
 * it, created exclusively; within limits, past which the rest is left behind.
 */
export function copyRunWrittenTree(from: string, to: string, limits: CopyLimits = { ...defaultCopyLimits }): void {
  const stat = fs.lstatSync(from, { throwIfNoEntry: false });
  if (!stat || fs.lstatSync(to, { throwIfNoEntry: false }) || limits.entries <= 0) return;
  limits.entries--;
  if (stat.isFile()) {
    const bytes = readRunWrittenBytes(from, limits.bytes);
    if (bytes === undefined) return;
    limits.bytes -= bytes.length;
    writeNewFile(to, bytes, stat.mode & 0o777);
  } else if (stat.isDirectory() && limits.depth > 0) {
    fs.mkdirSync(to, { mode: stat.mode & 0o777 });
    const inner = { ...limits, depth: limits.depth - 1 };
    for (const name of fs.readdirSync(from)) copyRunWrittenTree(path.join(from, name), path.join(to, name), inner);
    limits.entries = inner.entries;
    limits.bytes = inner.bytes;
  }
}

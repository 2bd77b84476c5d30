// Reading a file a run could have written (in its workspace, or its CLI's state): it may be a link
// to a file of the user's, a FIFO that would block the event loop forever, a device, or huge. It is
// opened without following a link and without blocking, read only when it is a regular file, and
// only up to a cap; anything else reads as absent.
import fs from 'node:fs';

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

/** The file's text, or undefined when it is missing, not a regular file, a link, or over `capBytes`. */
export function readRunWrittenFile(file: string, capBytes = defaultCapBytes): string | undefined {
  return withRegularFile(file, (fd, size) => {
    if (size > capBytes) return undefined;
    const read = readUpTo(fd, Math.min(size, capBytes) + 1);
    return read.length > capBytes ? undefined : read.toString('utf8');
  });
}

/** The first `bytes` bytes of the file (a script's `#!` line), whatever its size; undefined as above. */
export function readRunWrittenHead(file: string, bytes: number): Buffer | undefined {
  return withRegularFile(file, (fd) => readUpTo(fd, bytes));
}

// Reading a file a run could have written (in its workspace, or its CLI's state): it may be a link
// to a file of the user's, a FIFO that would block the event loop forever, a device, or huge. It is
// opened without following a link and without blocking, read only when it is a regular file, and
// only up to a cap; anything else reads as absent.
import fs from 'node:fs';

const defaultCapBytes = 1024 * 1024;

/** The file's text, or undefined when it is missing, not a regular file, a link, or over `capBytes`. */
export function readRunWrittenFile(file: string, capBytes = defaultCapBytes): string | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || stat.size > capBytes) return undefined;
    const buffer = Buffer.alloc(Math.min(stat.size, capBytes) + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read) read = fs.readSync(fd, buffer, length, buffer.length - length, null);
    return length > capBytes ? undefined : buffer.subarray(0, length).toString('utf8');
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

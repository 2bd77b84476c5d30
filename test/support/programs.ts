// Whether a program is there, for requirements.ts and the end-to-end global setup (which runs in
// vitest's main process, so nothing here imports vitest).
import fs from 'node:fs';
import path from 'node:path';

export function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

export const onPath = (command: string) => (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir !== '' && executable(path.join(dir, command)));

/** Debian's Dovecot (dovecot-imapd), for the mail source's suite and benchmark. */
export const dovecotPath = '/usr/sbin/dovecot';

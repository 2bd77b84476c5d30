// Where a command is found on a PATH, as spawn would find it.
import fs from 'node:fs';
import path from 'node:path';

/** The executable `command` resolves to on `searchPath`, as spawn would find it; undefined when none. */
export function findExecutable(command: string, searchPath: string | undefined): string | undefined {
  const executable = (file: string) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  };
  if (command.includes('/')) return executable(command) ? command : undefined;
  for (const dir of (searchPath ?? '').split(path.delimiter)) {
    if (dir && executable(path.join(dir, command))) return path.join(dir, command);
  }
  return undefined;
}

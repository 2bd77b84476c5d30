// What an agent's command needs of the disk to run inside a sandbox, where the home folder is
// hidden: the executable it resolves to on its PATH, through every link on the way
// (`~/.nvm/versions/node/v22/bin/claude` → `../lib/node_modules/@anthropic-ai/claude-code/cli.js`),
// the installation around it (the outermost node_modules that holds it, where npm put its
// dependencies, or a Python virtualenv), and the interpreter its `#!` line names (node on the PATH,
// itself perhaps under ~/.nvm), all read-only. A custom command gets its resolved file's folder (a
// script's neighbours); the folders of its PATH are shown too (pathFolders). Never a folder that holds the home folder itself: that would show it all.
import path from 'node:path';
import fs from 'node:fs';
import { findExecutable } from '../agents/find-executable';
import { readRunWrittenHead } from '../run-written-file';
import { isAtOrUnder, unique } from './paths';

export interface Link {
  path: string;
  target: string;
}

export interface ExecutableFootprint {
  /** Files and folders to bind read-only (real paths). */
  read: string[];
  /** Links to make inside, so that the command's name and its `#!` path lead where they lead outside. */
  links: Link[];
}

const maxHops = 40;

/** The links met while resolving `file` (each at a real parent), and the real file it ends at; undefined when it does not resolve. */
export function resolveLinks(file: string): { links: Link[]; real: string } | undefined {
  const links: Link[] = [];
  let pending = path.resolve(file).split(path.sep).filter(Boolean);
  let resolved: string = path.sep;
  for (let hops = 0; pending.length > 0; ) {
    const part = pending.shift()!;
    if (part === '.') continue;
    if (part === '..') {
      resolved = path.dirname(resolved);
      continue;
    }
    const candidate = path.join(resolved, part);
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(candidate);
    } catch {
      return undefined;
    }
    if (!stat.isSymbolicLink()) {
      resolved = candidate;
      continue;
    }
    if (++hops > maxHops) return undefined;
    const target = fs.readlinkSync(candidate);
    links.push({ path: candidate, target });
    pending = [...target.split(path.sep).filter(Boolean), ...pending];
    if (path.isAbsolute(target)) resolved = path.sep;
  }
  return { links, real: resolved };
}

/** The installation a file belongs to: the outermost node_modules above it, or the virtualenv it is in. */
function installationOf(file: string): string | undefined {
  const parts = file.split(path.sep);
  const modules = parts.indexOf('node_modules');
  if (modules > 0) return parts.slice(0, modules + 1).join(path.sep);
  for (let dir = path.dirname(file), up = 0; up < 4 && dir !== path.dirname(dir); dir = path.dirname(dir), up++) {
    if (fs.existsSync(path.join(dir, 'pyvenv.cfg'))) return dir;
  }
  return undefined;
}

/** The program a `#!` line runs: its absolute path, or the word `env` is asked to find. */
export function shebangProgram(head: Buffer | undefined): { path: string } | { word: string } | undefined {
  if (head === undefined || head.subarray(0, 2).toString() !== '#!') return undefined;
  const words = head.toString('utf8').slice(2).split('\n')[0].trim().split(/\s+/).filter(Boolean);
  const [program, ...rest] = words;
  if (program === undefined) return undefined;
  if (path.basename(program) !== 'env') return { path: program };
  // env [-S] [-i] [NAME=value…] word: options and assignments come before the program.
  const word = rest.flatMap((arg) => (arg.startsWith('-S') && arg.length > 2 ? [arg.slice(2)] : [arg])).find((arg) => !arg.startsWith('-') && !arg.includes('='));
  return word === undefined ? undefined : { word };
}

/**
 * The footprint of the commands an agent runs (its CLI, or a custom command and the built-in
 * agent's MCP servers), found on `searchPath`. `wholeFolder`: a custom command's folder is its own.
 */
export function executableFootprint(commands: { command: string; wholeFolder: boolean }[], searchPath: string | undefined, home: string): ExecutableFootprint {
  const read: string[] = [];
  const links: Link[] = [];
  // A region that holds the home folder (or is `/`) would show everything: the file alone then.
  const safe = (region: string | undefined, file: string) => (region === undefined || isAtOrUnder(home, region) ? file : region);
  const add = (named: string, wholeFolder: boolean, interpreterToo: boolean) => {
    const resolved = resolveLinks(named);
    if (resolved === undefined) return;
    links.push(...resolved.links);
    const { real } = resolved;
    // From real paths only (the links' folders are real): a bind goes where the files are.
    const installation = [real, ...resolved.links.map((link) => link.path)].map(installationOf).find((found) => found !== undefined);
    read.push(safe(installation ?? (wholeFolder ? path.dirname(real) : undefined), real));
    if (installation !== undefined && !isAtOrUnder(real, installation)) read.push(real);
    if (!interpreterToo) return;
    const program = shebangProgram(readRunWrittenHead(real, 256));
    const interpreter = program && ('path' in program ? program.path : findExecutable(program.word, searchPath));
    if (interpreter !== undefined) add(interpreter, false, false);
  };
  for (const { command, wholeFolder } of commands) {
    const found = findExecutable(command, searchPath);
    if (found !== undefined) add(path.resolve(found), wholeFolder, true);
  }
  const realLinks = new Map(links.map((link) => [link.path, link]));
  return { read: unique(read), links: [...realLinks.values()] };
}

/**
 * The folders of the PATH a run is given, so that what it runs by name (a custom command's `cat`, a
 * tool in ~/.local/bin) is found inside as outside: program folders, never the home folder or what
 * holds it, nor a top-level folder (`/var`), which would show more than programs.
 */
export function pathFolders(searchPath: string | undefined, home: string): string[] {
  const folders: string[] = [];
  for (const entry of (searchPath ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(entry) || isAtOrUnder(home, path.resolve(entry)) || path.resolve(entry).split(path.sep).filter(Boolean).length < 2) continue;
    try {
      const real = fs.realpathSync(entry);
      if (fs.statSync(real).isDirectory() && !isAtOrUnder(home, real)) folders.push(real);
    } catch {
      // a PATH entry that does not exist
    }
  }
  return unique(folders);
}

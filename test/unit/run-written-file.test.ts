// A file a run wrote is read without following links, without blocking on a FIFO, and capped.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyRunWrittenTree, readRunWrittenFile, replaceRunReachableFile } from '../../src/main/core/run-written-file';
import { tempDir } from '../support/core';

describe('readRunWrittenFile', () => {
  it('reads a regular file, and nothing else: a link, a FIFO, a folder, a file over the cap', () => {
    const dir = tempDir('steward-run-file-');
    fs.writeFileSync(path.join(dir, 'settings.json'), '{"a":1}');
    fs.writeFileSync(path.join(dir, 'secret'), 'the user\'s secret');
    fs.symlinkSync(path.join(dir, 'secret'), path.join(dir, 'link.json'));
    execFileSync('mkfifo', [path.join(dir, 'fifo.json')]);
    fs.writeFileSync(path.join(dir, 'big.json'), 'x'.repeat(2048));
    expect(readRunWrittenFile(path.join(dir, 'settings.json'))).toBe('{"a":1}');
    expect(readRunWrittenFile(path.join(dir, 'link.json'))).toBeUndefined();
    // Would block the event loop forever with readFileSync.
    expect(readRunWrittenFile(path.join(dir, 'fifo.json'))).toBeUndefined();
    expect(readRunWrittenFile(dir)).toBeUndefined();
    expect(readRunWrittenFile(path.join(dir, 'big.json'), 1024)).toBeUndefined();
    expect(readRunWrittenFile(path.join(dir, 'missing.json'))).toBeUndefined();
  });
});

describe('replaceRunReachableFile', () => {
  it('replaces a link the run left at the name instead of writing through it', () => {
    const dir = tempDir('steward-run-file-');
    const outside = tempDir('steward-outside-');
    fs.writeFileSync(path.join(outside, 'bashrc'), 'the user\'s own');
    fs.symlinkSync(path.join(outside, 'bashrc'), path.join(dir, 'projects.json'));
    replaceRunReachableFile(path.join(dir, 'projects.json'), '{}');
    expect(fs.readFileSync(path.join(outside, 'bashrc'), 'utf8')).toBe('the user\'s own');
    expect(fs.lstatSync(path.join(dir, 'projects.json')).isFile()).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'projects.json'), 'utf8')).toBe('{}');
    expect(fs.readdirSync(dir)).toEqual(['projects.json']);
  });
});

describe('copyRunWrittenTree', () => {
  it('copies folders and regular files only, never onto something already there, a dangling link included', () => {
    const from = tempDir('steward-run-tree-');
    const into = tempDir('steward-kept-');
    const outside = tempDir('steward-outside-');
    fs.mkdirSync(path.join(from, 'commands'));
    fs.writeFileSync(path.join(from, 'commands/mine.toml'), 'prompt = "hi"');
    fs.writeFileSync(path.join(outside, 'secret'), 'secret');
    fs.symlinkSync(path.join(outside, 'secret'), path.join(from, 'commands/secret'));
    execFileSync('mkfifo', [path.join(from, 'commands/fifo')]);
    copyRunWrittenTree(path.join(from, 'commands'), path.join(into, 'commands'));
    expect(fs.readdirSync(path.join(into, 'commands'))).toEqual(['mine.toml']);
    fs.writeFileSync(path.join(from, 'id'), 'run');
    fs.symlinkSync(path.join(outside, 'made-through-link'), path.join(into, 'id'));
    copyRunWrittenTree(path.join(from, 'id'), path.join(into, 'id'));
    expect(fs.readdirSync(outside)).toEqual(['secret']);
  });
});

// A file a run wrote is read without following links, without blocking on a FIFO, and capped.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRunWrittenFile } from '../../src/main/core/run-written-file';
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

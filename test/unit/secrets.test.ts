// Sealed secrets: readable back with the data folder's key, useless without it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../../src/main/core/secrets';
import { tempDir } from '../support/core';

describe('secret box', () => {
  it('seals and opens, with a fresh nonce each time, and keeps its key in a 0600 file', () => {
    const dir = tempDir('steward-secrets-');
    const box = createSecretBox(dir);
    const sealed = box.seal('2abcNgrokToken');
    expect(sealed).toMatch(/^v1:/);
    expect(sealed).not.toContain('2abcNgrokToken');
    expect(box.seal('2abcNgrokToken')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('2abcNgrokToken');
    expect(fs.statSync(path.join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
    // A second box on the same folder (a restart) reads the same key.
    expect(createSecretBox(dir).open(sealed)).toBe('2abcNgrokToken');
  });

  it('refuses a tampered secret and one sealed under another key', () => {
    const box = createSecretBox(tempDir('steward-secrets-'));
    const sealed = box.seal('secret');
    const bytes = Buffer.from(sealed.slice(3), 'base64');
    bytes[bytes.length - 1] ^= 1;
    expect(() => box.open(`v1:${bytes.toString('base64')}`)).toThrow(/cannot be opened/);
    expect(() => createSecretBox(tempDir('steward-secrets-')).open(sealed)).toThrow(/cannot be opened/);
    expect(() => box.open('plain text')).toThrow(/not sealed by Steward/);
  });
});

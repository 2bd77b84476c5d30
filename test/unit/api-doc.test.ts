// docs/api.md is generated from the contract (scripts/api-doc.mjs): rendered again, in memory, it
// must equal the file, so that the reference cannot drift from the code. Then the file is read for
// what every operation's entry must hold.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { operations } from '../../src/shared/contract';
import { errorCodes } from '../../src/shared/errors';
import { root } from '../support/processes';

const apiDoc = path.join(root, 'docs/api.md');

describe('docs/api.md', () => {
  it('is what the contract renders now', () => {
    const check = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/api-doc.mjs'), '--check'], { cwd: root, encoding: 'utf8' });
    // The script says which line differs first; that sentence is the failure.
    if (check.status !== 0) expect.fail(check.stderr.trim() || `scripts/api-doc.mjs --check exited ${check.status}`);
  }, 60_000);

  it('gives every operation its method, path, key, fields and errors', () => {
    const text = fs.readFileSync(apiDoc, 'utf8');
    for (const operation of Object.values(operations)) {
      const start = text.indexOf(`\n### ${operation.name}\n`);
      expect(start, `${operation.name} has an entry`).toBeGreaterThan(0);
      const entry = text.slice(start, text.indexOf('\n### ', start + 1));
      expect(entry).toContain(`\`${operation.method} ${operation.path}\``);
      expect(entry).toContain(operation.auth ? `scope \`${operation.scope}\`` : '- **Key**: none');
      if (operation.auth) expect(entry).toContain(operation.runKey ? `\`runKey: ${operation.runKey}\`` : '`runKey` none');
      if (operation.auth) expect(entry).toContain('| 401 | `unauthorized` |');
      if (operation.auth && operation.scope !== 'read') expect(entry).toContain('| 403 | `forbidden` |');
      if (operation.path.includes('{id}') || operation.path.includes('{token}')) expect(entry).toContain('| 404 | `not_found` |');
      if (operation.output) expect(entry).toContain(`**Answer** ${operation.status}`);
    }
  });

  it('explains every error code', () => {
    const text = fs.readFileSync(apiDoc, 'utf8');
    const table = text.slice(text.indexOf('## Error codes'));
    for (const code of errorCodes) expect(table).toContain(`| \`${code}\` |`);
  });
});

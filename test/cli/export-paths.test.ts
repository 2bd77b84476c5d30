// `steward export -o DIR` writes what the answer names, and with --remote the answer is another
// Steward's: a hostile one must not write outside DIR. Its answer is played here by a Steward whose
// export names ../ and absolute paths beside good ones: nothing at all is written.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportCommand } from '../../src/main/cli/config';
import type { Steward } from '../../src/main/cli/open-steward';
import { tempDir } from '../support/temp';

const answering = (files: { path: string; text: string }[]): Steward => ({ call: (async () => ({ files })) as unknown as Steward['call'], daemonUrl: undefined, close: async () => {} });

describe('export into a folder', () => {
  it.each(['../escaped.yaml', 'automations/../../escaped.yaml', '/tmp/escaped.yaml', 'automations/.bashrc', 'automations/x.yaml/../../../escaped.yaml'])('writes nothing when the answer names %s', async (stray) => {
    const out = path.join(tempDir(), 'config');
    const files = [{ path: 'automations/good.yaml', text: 'kind: automation\n' }, { path: stray, text: 'pwned\n' }];
    await expect(exportCommand(answering(files), [], { out, remote: 'evil' }, () => {})).rejects.toThrow(`The export named a file "${stray}", which is not a path export makes: nothing was written.`);
    expect(fs.existsSync(out)).toBe(false);
    expect(fs.existsSync(path.join(path.dirname(out), 'escaped.yaml'))).toBe(false);
  });

  it('writes the paths export makes', async () => {
    const out = path.join(tempDir(), 'config');
    const written: string[] = [];
    await exportCommand(answering([{ path: 'instances/steward.yaml', text: 'kind: instance\nname: Steward\n' }]), [], { out, remote: undefined }, (text) => written.push(text));
    expect(fs.readFileSync(path.join(out, 'instances/steward.yaml'), 'utf8')).toBe('kind: instance\nname: Steward\n');
    expect(written).toEqual([`Wrote 1 file under ${out}.\n`]);
  });
});

// Red team 34, attacker 3 through the CLI: a pull request's checkout holds symlinks (git stores
// them) pointing at files of the user's that are not configuration: `steward apply -f CHECKOUT`
// (perhaps --remote, to a Steward someone else runs) must not read them and send their text.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyCommand } from '../../../src/main/cli/config';
import type { Steward } from '../../../src/main/cli/open-steward';
import { tempDir } from '../../support/temp';

const plan = { applied: false, changes: [], unchanged: 0, summary: 'nothing' };

function recording(): { steward: Steward; sent: string[] } {
  const sent: string[] = [];
  const steward: Steward = {
    call: (async (_name: string, raw: { body?: unknown }) => {
      sent.push(JSON.stringify(raw.body));
      return plan;
    }) as unknown as Steward['call'],
    daemonUrl: undefined,
    close: async () => {},
  };
  return { steward, sent };
}

describe('apply -f a checkout with links out of it', () => {
  it('sends no text of a file a symlink points at outside the folder, nor of a symlinked subfolder', async () => {
    const root = tempDir();
    const secret = path.join(root, 'id_rsa');
    fs.writeFileSync(secret, 'PRIVATE-KEY-MATERIAL-33aa\n');
    const secretDir = path.join(root, 'dotconfig');
    fs.mkdirSync(secretDir);
    fs.writeFileSync(path.join(secretDir, 'tokens.yaml'), 'token: PRIVATE-TOKEN-44bb\n');
    const checkout = path.join(root, 'checkout');
    fs.mkdirSync(path.join(checkout, 'automations'), { recursive: true });
    fs.writeFileSync(path.join(checkout, 'automations', 'ok.yaml'), 'kind: automation\nname: Ok\ncronExpression: "0 9 * * *"\nprompt: hi\n');
    fs.symlinkSync(secret, path.join(checkout, 'automations', 'key.yaml'));
    fs.symlinkSync('../../id_rsa', path.join(checkout, 'automations', 'relative.yml'));
    fs.symlinkSync(secretDir, path.join(checkout, 'webhooks'));
    const { steward, sent } = recording();
    await applyCommand(steward, { file: checkout, dryRun: true, prune: false, pruneAll: false, remote: 'Someone' }, () => {}, async () => '').catch(() => {});
    const all = sent.join('\n');
    expect(all).toContain('name: Ok');
    expect(all).not.toContain('PRIVATE-KEY-MATERIAL');
    expect(all).not.toContain('PRIVATE-TOKEN');
  });

  it('a symlink loop or a link to /dev/zero in the checkout neither hangs nor sends anything huge', async () => {
    const checkout = tempDir();
    fs.writeFileSync(path.join(checkout, 'ok.yaml'), 'kind: automation\nname: Ok\ncronExpression: "0 9 * * *"\nprompt: hi\n');
    fs.symlinkSync(checkout, path.join(checkout, 'loop'));
    fs.symlinkSync('/dev/zero', path.join(checkout, 'zero.yaml'));
    const { steward, sent } = recording();
    const started = Date.now();
    await applyCommand(steward, { file: checkout, dryRun: true, prune: false, pruneAll: false, remote: undefined }, () => {}, async () => '').catch(() => {});
    expect(Date.now() - started).toBeLessThan(5000);
    expect(sent.join('').length).toBeLessThan(1_000_000);
  }, 15_000);
});

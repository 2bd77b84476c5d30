// Red team: whose logins does Steward put in an instance's own home? A `custom` agent is no CLI of
// the user's: it must find neither Claude Code's nor Gemini CLI's login there; a stand-in for
// Claude Code may find Claude Code's (its own, by design) but not Gemini CLI's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lacks } from '../../support/requirements';
import { type Lab, fixture, leaked, openLab } from './lab';

const skip = lacks('sandbox');
let lab: Lab;
const texts: Record<string, string> = {};

beforeAll(async () => {
  if (skip) return;
  lab = await openLab();
  for (const preset of ['custom', 'claude-code'] as const) {
    const instance = await lab.instance({ provider: 'command', preset, command: fixture('redteam/agent-home-loot.sh'), env: { IS_SANDBOX: '1' } }, { mode: 'sandbox' }, `loot-${preset}`);
    texts[preset] = await lab.transcript(await lab.run(instance));
  }
  if (process.env.REDTEAM_VERBOSE) console.log(texts);
}, 60_000);
afterAll(async () => {
  await lab?.close();
});

const logins = (text: string) => leaked(lab, text).map((file) => file.replace(lab.home, '~'));

describe.skipIf(skip)("logins in an instance's own home", () => {
  it('the probes ran', () => {
    expect(texts.custom).toContain('== done');
    expect(texts['claude-code']).toContain('== done');
  });
  it('a custom agent finds no CLI login', () => {
    expect(logins(texts.custom)).toEqual([]);
  });
  it("Claude Code's stand-in finds its own login at most", () => {
    expect(logins(texts['claude-code']).filter((file) => file !== '~/.claude/.credentials.json')).toEqual([]);
  });
});

// Red team 34, attacker 1 end to end with real sandboxed runs: while its writeAllow still covers a
// folder that will later be the watched one, the agent hard-links a file of that folder into a
// place it keeps (a subfolder of writeAllow). The user then narrows writeAllow to that subfolder
// and chooses the folder: Steward's check passes (no sandboxed run can write *in* the folder), but
// the run still writes the folder's file through its own hard link. Its YAML must not be applied.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '../../../src/shared/contract';
import { type TestCore, startTestCore, tempDir } from '../../support/core';

let t: TestCore;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  t = await startTestCore();
});
afterAll(async () => {
  await t?.close();
});

async function runToEnd(instanceId: string): Promise<Run> {
  const run = (await t.api('POST', '/api/runs', { instanceId, prompt: 'go' })).body.run as Run;
  const started = Date.now();
  for (;;) {
    const now = (await t.api('GET', `/api/runs/${run.id}`)).body.run as Run;
    if (!['queued', 'starting', 'running', 'pending'].includes(now.status)) return now;
    expect(Date.now() - started, `run ${run.id} still ${now.status}`).toBeLessThan(30_000);
    await sleep(200);
  }
}

describe('a hard link kept from when writeAllow was wider', { timeout: 60_000 }, () => {
  it('does not let a sandboxed run write the watched folder', async () => {
    const root = tempDir();
    const shared = path.join(root, 'shared');
    const folder = path.join(shared, 'cfg');
    const keep = path.join(shared, 'keep');
    const ws = path.join(root, 'ws');
    fs.mkdirSync(folder, { recursive: true });
    fs.mkdirSync(keep);
    fs.mkdirSync(ws);
    fs.chmodSync(root, 0o755);
    fs.writeFileSync(path.join(folder, 'team.yaml'), 'kind: automation\nname: Team\ncronExpression: "0 9 * * *"\nprompt: hi\n');
    const escaped = 'kind: instance\nname: Escaped\nagent:\n  provider: command\n  preset: custom\n  command: "true"\nsandbox:\n  mode: "off"\n';
    // Run 1 links; run 2 writes in place (truncate and write keep the inode).
    const script = `if [ -e "${keep}/notes.yaml" ]; then printf '%s' '${escaped}' > "${keep}/notes.yaml"; echo wrote; else ln "${folder}/team.yaml" "${keep}/notes.yaml" && echo linked; fi`;
    const made = await t.api('POST', '/api/instances', {
      name: 'Boxed',
      agent: { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', script] },
      workspaceDir: ws,
      sandbox: { mode: 'sandbox', network: [], readAllow: [], readDeny: [], writeAllow: [shared], envAllow: [] },
    });
    expect(made.status, made.text).toBe(201);
    const boxed = made.body.instance;
    const first = await runToEnd(boxed.id);
    expect(first.status, JSON.stringify(first)).toBe('succeeded');
    expect(fs.statSync(path.join(keep, 'notes.yaml')).ino).toBe(fs.statSync(path.join(folder, 'team.yaml')).ino);

    // The user narrows writeAllow to the subfolder, then chooses the folder: accepted.
    const narrowed = await t.api('PATCH', `/api/instances/${boxed.id}`, { sandbox: { ...boxed.sandbox, writeAllow: [keep] } });
    expect(narrowed.status, narrowed.text).toBe(200);
    const chosen = await t.api('PUT', '/api/config', { folder });
    if (chosen.status !== 200) return; // refused: held
    // The folder's file has a second name the run may write: the folder is refused, and says why.
    const started = Date.now();
    const refusal = async (): Promise<{ message: string } | null> => (await t.api('GET', '/api/config')).body.config.error;
    let error = await refusal();
    while (!error) {
      expect(Date.now() - started).toBeLessThan(30_000);
      await sleep(200);
      error = await refusal();
    }
    expect(error.message).toMatch(/team\.yaml has 2 names \(hard links\)/);
    expect(((await t.api('GET', '/api/automations')).body.automations as { name: string }[]).map((each) => each.name)).not.toContain('Team');
    const second = await runToEnd(boxed.id);
    expect(second.status).toBe('succeeded');
    for (let look = 0; look < 8; look++) {
      await sleep(500);
      expect(((await t.api('GET', '/api/instances')).body.instances as { name: string }[]).map((each) => each.name), fs.readFileSync(path.join(folder, 'team.yaml'), 'utf8')).not.toContain('Escaped');
    }
    await t.api('PUT', '/api/config', { folder: null });
  });
});

// A resource that came from a file, changed in the app: written back into its file (its document
// replaced, the file's other documents and comments kept, and the folder's next apply a no-op), or
// detached (a prune leaves it be). One that came from an upload has no file here to write.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestCore, startTestCore, tempDir } from '../support/core';

let t: TestCore;
let folder: string;

const ok = async (response: Promise<{ status: number; body: unknown }>, status = 200) => {
  const answer = await response;
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer.body as Record<string, any>;
};

const shared = `# Our team's automations: reviewed in pull requests.
kind: automation
name: Nightly
cronExpression: "0 2 * * *"
prompt: Clean up the build cache.
---
# Keep this one weekly.
kind: automation
name: Weekly
cronExpression: "0 8 * * 1"
prompt: |
  Write the weekly report.
`;

beforeAll(async () => {
  t = await startTestCore();
  folder = tempDir();
  fs.writeFileSync(path.join(folder, 'team.yaml'), shared);
});

afterAll(async () => {
  await t?.close();
});

describe('a resource from a file', () => {
  it('is listed with its file, and written back with the change, the rest of the file kept', async () => {
    const file = path.join(folder, 'team.yaml');
    await ok(t.api('POST', '/api/config/apply', { files: [{ path: file, text: fs.readFileSync(file, 'utf8') }] }));
    const { config } = await ok(t.api('GET', '/api/config'));
    expect(config.managed.map((each: { kind: string; name: string; file: string }) => [each.kind, each.name, each.file])).toEqual([
      ['automation', 'Nightly', file],
      ['automation', 'Weekly', file],
    ]);
    const weekly = config.managed.find((each: { name: string }) => each.name === 'Weekly');
    await ok(t.api('PUT', `/api/automations/${weekly.id}`, { cronExpression: '0 9 * * 1', name: 'Weekly report' }));
    expect(await ok(t.api('POST', `/api/config/write-back/${weekly.id}`, {}))).toEqual({ file });
    const written = fs.readFileSync(file, 'utf8');
    expect(written).toBe(
      shared.replace('name: Weekly\ncronExpression: "0 8 * * 1"\nprompt: |\n  Write the weekly report.\n', 'name: Weekly report\ncronExpression: 0 9 * * 1\nprompt: |\n  Write the weekly report.\n'),
    );
    // Applying the file now changes nothing: the file and Steward agree.
    const again = await ok(t.api('POST', '/api/config/apply', { files: [{ path: file, text: written }], dryRun: true, prune: 'files' }));
    expect(again).toMatchObject({ changes: [], unchanged: 2 });
  });

  it('once detached, is no longer pruned with its file', async () => {
    const { config } = await ok(t.api('GET', '/api/config'));
    const nightly = config.managed.find((each: { name: string }) => each.name === 'Nightly');
    await ok(t.api('POST', `/api/config/detach/${nightly.id}`, {}), 204);
    const file = path.join(folder, 'team.yaml');
    const onlyWeekly = fs.readFileSync(file, 'utf8').split('---\n')[1];
    const plan = await ok(t.api('POST', '/api/config/apply', { files: [{ path: file, text: onlyWeekly }], dryRun: true, prune: 'files' }));
    expect(plan.changes).toEqual([]);
    expect((await ok(t.api('POST', `/api/config/detach/${nightly.id}`, {}), 404)).error.code).toBe('not_found');
  });

  it('from an upload, has no file here to write: the answer says to detach', async () => {
    await ok(t.api('POST', '/api/config/apply', { files: [{ path: 'uploaded.yaml', text: 'kind: webhook\nname: Uploaded\npromptTemplate: "{{payload}}"\n' }] }));
    const { config } = await ok(t.api('GET', '/api/config'));
    const uploaded = config.managed.find((each: { name: string }) => each.name === 'Uploaded');
    const refused = await ok(t.api('POST', `/api/config/write-back/${uploaded.id}`, {}), 404);
    expect(refused.error.message).toBe('uploaded.yaml is not a file here (it came from an upload or another machine): detach the webhook instead.');
  });
});

// Who owns a resource that came from the watched folder: a person who detaches it keeps it (the
// folder's next change leaves it be, and says so), and another file (an upload, a steward apply of
// another path) cannot take the folder's resources over; it is told to change them in the folder.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestCore, startTestCore, tempDir } from '../support/core';
import { waitFor } from '../support/wait';

let t: TestCore;
let folder: string;

const automation = (name: string, prompt: string) => `kind: automation\nname: ${name}\ncronExpression: "0 9 * * *"\nprompt: ${prompt}\n`;
const list = async () => (await t.api('GET', '/api/automations')).body as { automations: { id: string; name: string; prompt: string }[] };
const state = async () => ((await t.api('GET', '/api/config')).body as { config: { lastApplied: { summary: string; changes: { name: string; action: string }[] } | null; managed: { id: string; name: string; file: string; writable: boolean }[] } }).config;

beforeAll(async () => {
  t = await startTestCore();
  folder = tempDir();
  fs.writeFileSync(path.join(folder, 'evening.yaml'), automation('Evening', 'Wrap up the day.'));
  expect((await t.api('PUT', '/api/config', { folder })).status).toBe(200);
  await waitFor(async () => (await list()).automations.some((each) => each.name === 'Evening'), { what: 'the folder to be applied' });
});

afterAll(async () => {
  await t?.close();
});

describe('the watched folder and a person', () => {
  it('leaves a detached resource as the person made it, and says so', async () => {
    const evening = (await list()).automations.find((each) => each.name === 'Evening')!;
    expect((await state()).managed).toEqual([expect.objectContaining({ id: evening.id, file: path.join(folder, 'evening.yaml'), writable: true })]);
    await t.api('PUT', `/api/automations/${evening.id}`, { prompt: 'My own words.' });
    expect((await t.api('POST', `/api/config/detach/${evening.id}`, {})).status).toBe(204);
    fs.writeFileSync(path.join(folder, 'morning.yaml'), automation('Morning', 'Plan the day.'));
    const applied = await waitFor(async () => (await state()).lastApplied, { what: 'the next apply', until: (last) => last?.changes.some((change) => change.name === 'Morning') === true });
    expect(applied!.changes).toEqual([{ kind: 'automation', name: 'Morning', action: 'add' }]);
    expect(applied!.summary).toBe('1 to add; 1 unchanged. Left as it is, detached from the files: automation "Evening".');
    expect((await list()).automations.find((each) => each.name === 'Evening')!.prompt).toBe('My own words.');
    expect((await state()).managed.map((each) => each.name)).toEqual(['Morning']);
  });

  it("refuses another file taking over the folder's resources", async () => {
    const answer = await t.api('POST', '/api/config/apply', { files: [{ path: 'only-morning.yaml', text: automation('Morning', 'Another plan.') }] });
    expect(answer.status).toBe(400);
    expect((answer.body as { error: { message: string } }).error.message).toBe(
      `The configuration was not applied; nothing changed:\nonly-morning.yaml:2:7: automation "Morning": It comes from the watched folder (${path.join(folder, 'morning.yaml')}): change it there, or detach it in the app first.`,
    );
    expect((await list()).automations.find((each) => each.name === 'Morning')!.prompt).toBe('Plan the day.');
    // An upload's resource has no file here to write back.
    await t.api('POST', '/api/config/apply', { files: [{ path: 'uploaded.yaml', text: automation('Uploaded', 'Hi') }] });
    expect((await state()).managed.find((each) => each.name === 'Uploaded')).toMatchObject({ file: 'uploaded.yaml', writable: false });
  });
});

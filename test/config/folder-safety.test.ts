// The watched folder is applied with a person's power, so a sandboxed run must not be able to write
// into it: it could make an unsandboxed instance or an event trigger for itself. Tried the ways a
// user could set it up by mistake, or an attacker would steer it: the folder in a workspace, around
// one, in writeAllow, through a symlink, in Steward's data folder, and a writeAllow given later.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestCore, startTestCore, tempDir } from '../support/core';
import { waitFor } from '../support/wait';

let t: TestCore;
let outside: string;
let shared: string;

const setFolder = (folder: string | null) => t.api('PUT', '/api/config', { folder });
const refusal = async (folder: string) => {
  const answer = await setFolder(folder);
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  return (answer.body as { error: { code: string; message: string } }).error;
};

beforeAll(async () => {
  t = await startTestCore();
  outside = tempDir();
  shared = tempDir();
  const agent = { provider: 'command', preset: 'custom', command: 'true' };
  await t.api('POST', '/api/instances', { name: 'Boxed', agent, workspaceDir: path.join(outside, 'boxed-workspace'), sandbox: { mode: 'sandbox', network: [], readAllow: [], readDeny: [], writeAllow: [shared], envAllow: [] } });
  await t.api('POST', '/api/instances', { name: 'Free', agent, workspaceDir: path.join(outside, 'free-workspace'), sandbox: { mode: 'off' } });
  fs.mkdirSync(path.join(outside, 'boxed-workspace', 'config'), { recursive: true });
  fs.mkdirSync(path.join(outside, 'free-workspace', 'config'), { recursive: true });
});

afterAll(async () => {
  await t?.close();
});

describe('the watched folder', () => {
  it('is refused where a sandboxed run can write: in a workspace, around one, in writeAllow, through a symlink, in the data folder', async () => {
    expect(await refusal(path.join(outside, 'boxed-workspace', 'config'))).toMatchObject({ code: 'invalid_field', message: expect.stringMatching(/^Runs of the instance "Boxed" can write in /) });
    expect((await refusal(outside)).message).toMatch(/"Boxed"/);
    fs.mkdirSync(path.join(shared, 'cfg'), { recursive: true });
    expect((await refusal(path.join(shared, 'cfg'))).message).toMatch(/"Boxed"/);
    const link = path.join(tempDir(), 'innocent-looking');
    fs.symlinkSync(path.join(outside, 'boxed-workspace', 'config'), link);
    expect((await refusal(link)).message).toMatch(/"Boxed"/);
    expect((await refusal(t.dataDir)).message).toMatch(/Steward's data folder/);
    expect((await t.api('GET', '/api/config')).body).toMatchObject({ config: { folder: null } });
  });

  it("is allowed in an unsandboxed instance's workspace (its runs already run as you) and elsewhere", async () => {
    const answer = await setFolder(path.join(outside, 'free-workspace', 'config'));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    await setFolder(null);
  });

  it('stops applying once a sandboxed instance is given the folder, and keeps the last good state', async () => {
    const folder = tempDir();
    fs.writeFileSync(path.join(folder, 'a.yaml'), 'kind: automation\nname: From the folder\ncronExpression: "0 9 * * *"\nprompt: First\n');
    expect((await setFolder(folder)).status).toBe(200);
    await waitFor(async () => ((await t.api('GET', '/api/automations')).body as { automations: { name: string }[] }).automations.some((each) => each.name === 'From the folder'), { what: 'the folder to be applied' });
    const boxed = ((await t.api('GET', '/api/instances')).body as { instances: { id: string; name: string; sandbox: object }[] }).instances.find((each) => each.name === 'Boxed')!;
    await t.api('PATCH', `/api/instances/${boxed.id}`, { sandbox: { ...boxed.sandbox, writeAllow: [shared, folder] } });
    fs.writeFileSync(path.join(folder, 'a.yaml'), 'kind: instance\nname: Escaped\nagent:\n  provider: command\n  preset: custom\n  command: "true"\nsandbox:\n  mode: "off"\n');
    const error = await waitFor(async () => ((await t.api('GET', '/api/config')).body as { config: { error: { message: string } | null } }).config.error, { what: 'the folder to be refused' });
    expect(error.message).toMatch(/^The folder was not applied: Runs of the instance "Boxed" can write in /);
    const instances = ((await t.api('GET', '/api/instances')).body as { instances: { name: string }[] }).instances.map((each) => each.name);
    expect(instances).not.toContain('Escaped');
    expect(((await t.api('GET', '/api/automations')).body as { automations: { name: string }[] }).automations.map((each) => each.name)).toContain('From the folder');
  });
});

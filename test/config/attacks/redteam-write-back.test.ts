// Red team 34: write-back. A file swapped for a symlink (or its folder for one) between apply and
// write-back must not make Steward write outside; a file whose documents are crafted (document end
// markers, `---` in block text, flow documents, directives) keeps every other document byte for
// byte; and an agent whose run key may edit its own automation (runKey own) cannot craft a prompt
// that, written back, becomes more documents (an unsandboxed instance) at the next apply.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '../../../src/shared/contract';
import { type TestCore, startTestCore, tempDir } from '../../support/core';

let t: TestCore;
let runKey: string;

const managed = async () => (await t.api('GET', '/api/config')).body.config.managed as { id: string; kind: string; name: string; file: string }[];
const applyFile = async (file: string) => {
  const answer = await t.api('POST', '/api/config/apply', { files: [{ path: file, text: fs.readFileSync(file, 'utf8') }] });
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
};
const idOf = async (name: string) => (await managed()).find((each) => each.name === name)!.id;

beforeAll(async () => {
  t = await startTestCore();
  const boxed = await t.api('POST', '/api/instances', { name: 'Boxed', agent: { provider: 'command', preset: 'custom', command: 'sleep', args: ['600'] }, sandbox: { mode: 'sandbox' } });
  expect(boxed.status, boxed.text).toBe(201);
  const run = (await t.api('POST', '/api/runs', { instanceId: boxed.body.instance.id, prompt: 'a stranger wrote this' })).body.run as Run;
  runKey = t.core.services.apiKeys.createForRun(run);
});
afterAll(async () => {
  await t?.close();
});

describe('write-back through a link swapped in', () => {
  it('the file replaced by a symlink to a file outside: that file is not written', async () => {
    const root = tempDir();
    const folder = path.join(root, 'cfg');
    fs.mkdirSync(folder);
    const file = path.join(folder, 'swap.yaml');
    const doc = 'kind: automation\nname: Swapped\ncronExpression: "0 9 * * *"\nprompt: hi\n';
    fs.writeFileSync(file, doc);
    await applyFile(file);
    const id = await idOf('Swapped');
    await t.api('PUT', `/api/automations/${id}`, { prompt: 'changed in the app' });
    // The victim holds the same document, so "the file still holds it" would pass.
    const victim = path.join(root, 'victim.yaml');
    fs.writeFileSync(victim, `# precious, not Steward's\n${doc}`);
    fs.rmSync(file);
    fs.symlinkSync(victim, file);
    const answer = await t.api('POST', `/api/config/write-back/${id}`, {});
    expect(fs.readFileSync(victim, 'utf8'), `write-back answered ${answer.status}`).toBe(`# precious, not Steward's\n${doc}`);
  });

  it('the watched folder: a pull swaps a subfolder for a symlink (and breaks a file, so the last good state stays): write-back does not follow it out', async () => {
    const root = tempDir();
    const folder = path.join(root, 'cfg');
    fs.mkdirSync(path.join(folder, 'automations'), { recursive: true });
    const file = path.join(folder, 'automations', 'nested.yaml');
    const doc = 'kind: automation\nname: Nested\ncronExpression: "0 9 * * *"\nprompt: hi\n';
    fs.writeFileSync(file, doc);
    expect((await t.api('PUT', '/api/config', { folder })).status).toBe(200);
    const started = Date.now();
    while (!(await managed()).some((each) => each.name === 'Nested')) {
      expect(Date.now() - started).toBeLessThan(10_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const id = await idOf('Nested');
    // Another clone of the same repository, elsewhere on the machine (or any folder holding the file).
    const elsewhere = path.join(root, 'other-clone', 'automations');
    fs.mkdirSync(elsewhere, { recursive: true });
    fs.writeFileSync(path.join(elsewhere, 'nested.yaml'), doc);
    // The pull: automations/ becomes a symlink, and a broken file keeps the last good state in force.
    fs.rmSync(path.join(folder, 'automations'), { recursive: true });
    fs.symlinkSync(elsewhere, path.join(folder, 'automations'));
    fs.writeFileSync(path.join(folder, 'broken.yaml'), 'kind: automation\nname: "unterminated\n');
    while (!(await t.api('GET', '/api/config')).body.config.error) {
      expect(Date.now() - started).toBeLessThan(15_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await idOf('Nested')).toBe(id);
    await t.api('PUT', `/api/automations/${id}`, { prompt: 'changed in the app' });
    const answer = await t.api('POST', `/api/config/write-back/${id}`, {});
    await t.api('PUT', '/api/config', { folder: null });
    expect(fs.readFileSync(path.join(elsewhere, 'nested.yaml'), 'utf8'), `write-back answered ${answer.status} ${answer.text}`).toBe(doc);
  });

  it('the same, to a folder where the file does not exist: write-back makes no file there', async () => {
    const root = tempDir();
    const folder = path.join(root, 'cfg');
    fs.mkdirSync(path.join(folder, 'automations'), { recursive: true });
    const file = path.join(folder, 'automations', 'nested.yaml');
    const doc = 'kind: automation\nname: Nested2\ncronExpression: "0 9 * * *"\nprompt: hi\n';
    fs.writeFileSync(file, doc);
    expect((await t.api('PUT', '/api/config', { folder })).status).toBe(200);
    const started = Date.now();
    while (!(await managed()).some((each) => each.name === 'Nested2')) {
      expect(Date.now() - started).toBeLessThan(10_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const id = await idOf('Nested2');
    // Another clone of the same repository, elsewhere on the machine (or any folder holding the file).
    const elsewhere = path.join(root, 'other-clone', 'automations');
    fs.mkdirSync(elsewhere, { recursive: true });
    // The pull: automations/ becomes a symlink, and a broken file keeps the last good state in force.
    fs.rmSync(path.join(folder, 'automations'), { recursive: true });
    fs.symlinkSync(elsewhere, path.join(folder, 'automations'));
    fs.writeFileSync(path.join(folder, 'broken.yaml'), 'kind: automation\nname: "unterminated\n');
    while (!(await t.api('GET', '/api/config')).body.config.error) {
      expect(Date.now() - started).toBeLessThan(15_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await idOf('Nested2')).toBe(id);
    await t.api('PUT', `/api/automations/${id}`, { prompt: 'changed in the app' });
    const answer = await t.api('POST', `/api/config/write-back/${id}`, {});
    await t.api('PUT', '/api/config', { folder: null });
    expect(fs.existsSync(path.join(elsewhere, 'nested.yaml')), `write-back answered ${answer.status} ${answer.text}`).toBe(false);
  });

  it('the file replaced by a hard link to a file outside: that file is not written', async () => {
    const root = tempDir();
    const folder = path.join(root, 'cfg');
    fs.mkdirSync(folder);
    const file = path.join(folder, 'hard.yaml');
    const doc = 'kind: automation\nname: Hard\ncronExpression: "0 9 * * *"\nprompt: hi\n';
    fs.writeFileSync(file, doc);
    await applyFile(file);
    const id = await idOf('Hard');
    await t.api('PUT', `/api/automations/${id}`, { prompt: 'changed in the app' });
    const victim = path.join(root, 'victim-hard.yaml');
    fs.writeFileSync(victim, doc);
    fs.rmSync(file);
    fs.linkSync(victim, file);
    await t.api('POST', `/api/config/write-back/${id}`, {});
    expect(fs.readFileSync(victim, 'utf8')).toBe(doc);
  });
});

describe('a crafted file keeps its other documents', () => {
  const other = (name: string) => `kind: automation\nname: ${name}\ncronExpression: "0 9 * * *"\nprompt: hi\n`;
  it.each([
    ['a document end marker', (a: string, b: string) => `${other(a)}...\n---\n${b}`],
    ['--- inside a block prompt', (a: string, b: string) => `kind: automation\nname: ${a}\ncronExpression: "0 9 * * *"\nprompt: |\n  line\n  ---\n  kind: instance\n---\n${b}`],
    ['a comment that looks like a separator', (a: string, b: string) => `${other(a)}# ---\n# kind: instance\n---\n${b}`],
    ['flow documents', (a: string, b: string) => `{kind: automation, name: ${a}, cronExpression: "0 9 * * *", prompt: hi}\n--- {kind: automation, name: ${b.match(/name: (.*)/)![1]}, cronExpression: "0 9 * * *", prompt: hi}\n`],
    ['a directive', (a: string, b: string) => `%YAML 1.2\n---\n${other(a)}...\n%YAML 1.2\n---\n${b}`],
    ['separator with a trailing comment', (a: string, b: string) => `${other(a)}--- # next\n${b}`],
    ['CRLF line ends', (a: string, b: string) => `${other(a)}---\n${b}`.replace(/\n/g, '\r\n')],
    ['a BOM', (a: string, b: string) => `\ufeff${other(a)}---\n${b}`],
  ])('with %s: writing one back leaves the other byte for byte', async (what, craft) => {
    const tag = what.replace(/[^a-z]/gi, '').slice(0, 12);
    const a = `A ${tag}`;
    const b = `B ${tag}`;
    const folder = tempDir();
    const file = path.join(folder, 'crafted.yaml');
    const text = craft(a, other(b));
    fs.writeFileSync(file, text);
    await applyFile(file);
    const idA = await idOf(a);
    expect((await t.api('PUT', `/api/automations/${idA}`, { cronExpression: '0 7 * * *' })).status).toBe(200);
    const back = await t.api('POST', `/api/config/write-back/${idA}`, {});
    if (back.status !== 200) {
      // Refusing is fine; writing something else is not.
      expect(fs.readFileSync(file, 'utf8')).toBe(text);
      return;
    }
    const written = fs.readFileSync(file, 'utf8');
    // Everything the file says about B is as it was, and the file applies as Steward is now.
    const plan = await t.api('POST', '/api/config/apply', { files: [{ path: file, text: written }], dryRun: true });
    expect(plan.status, `${written}\n${plan.text}`).toBe(200);
    expect(plan.body.changes, written).toEqual([]);
    expect(written).toContain('0 7 * * *');
  });
});

describe('an agent edits its own automation, a person writes it back', () => {
  it.each([
    ['--- in the prompt', 'x\n---\nkind: instance\nname: Escaped\nagent:\n  provider: command\n  preset: custom\n  command: "true"\nsandbox:\n  mode: "off"\n'],
    ['... then ---', 'x\n...\n---\nkind: instance\nname: Escaped\n'],
    ['a prompt starting with ---', '---\nkind: instance\nname: Escaped\n'],
    ['unicode line separators', 'x\u2028---\u2028kind: instance\u2029name: Escaped'],
    ['carriage returns', 'x\r---\rkind: instance\rname: Escaped\r'],
    ['trailing spaces and tabs', 'x   \n\t---\t\nkind: instance  \n'],
    ['a NUL and escapes', 'x\u0000\u001b[2J---\nkind: instance'],
    ['indentation games', 'x\n  a\n b\nkind: instance\n'],
  ])('with %s: the file still holds exactly one document for it, and applies as no change', async (_what, prompt) => {
    const folder = tempDir();
    const file = path.join(folder, 'mine.yaml');
    const name = `Mine ${Math.random().toString(36).slice(2, 8)}`;
    fs.writeFileSync(file, `kind: automation\nname: ${name}\ninstance: Boxed\ncronExpression: "0 9 * * *"\nprompt: hi\n---\nkind: automation\nname: ${name} neighbour\ncronExpression: "0 9 * * *"\nprompt: hi\n`);
    await applyFile(file);
    const id = await idOf(name);
    const edit = await t.api('PUT', `/api/automations/${id}`, { prompt }, { authorization: `Bearer ${runKey}` });
    if (edit.status >= 400) return; // the run key may not, or the text is refused: held
    const back = await t.api('POST', `/api/config/write-back/${id}`, {});
    expect(back.status, back.text).toBe(200);
    const written = fs.readFileSync(file, 'utf8');
    const plan = await t.api('POST', '/api/config/apply', { files: [{ path: file, text: written }], dryRun: true });
    expect(plan.status, `${JSON.stringify(written)}\n${plan.text}`).toBe(200);
    expect(plan.body.changes, JSON.stringify(written)).toEqual([]);
    expect(plan.body.unchanged).toBe(2);
  });

  it('a name the agent gives its automation cannot add a document either', async () => {
    const folder = tempDir();
    const file = path.join(folder, 'named.yaml');
    fs.writeFileSync(file, 'kind: automation\nname: Named\ninstance: Boxed\ncronExpression: "0 9 * * *"\nprompt: hi\n');
    await applyFile(file);
    const id = await idOf('Named');
    for (const name of ['Named\n---\nkind: instance\nname: Escaped', 'Named # ---', "Named'\n---", 'Named: x']) {
      const edit = await t.api('PUT', `/api/automations/${id}`, { name }, { authorization: `Bearer ${runKey}` });
      if (edit.status >= 400) continue;
      const back = await t.api('POST', `/api/config/write-back/${id}`, {});
      expect(back.status, back.text).toBe(200);
      const written = fs.readFileSync(file, 'utf8');
      const plan = await t.api('POST', '/api/config/apply', { files: [{ path: file, text: written }], dryRun: true });
      expect(plan.status, `${JSON.stringify(written)}\n${plan.text}`).toBe(200);
      expect(plan.body.changes, JSON.stringify(written)).toEqual([]);
    }
  });
});

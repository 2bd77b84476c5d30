// Red team 34, attacker 1 on the filesystem: a sandboxed run that can write its workspace and its
// writeAllow tries to get YAML into the watched folder by every spelling of a path Steward might
// not see through: `..`, trailing slashes, `~`, a workspace or writeAllow that is a symlink to the
// folder, a symlink or a hard link inside the folder pointing at a file the run writes, a subfolder
// of the folder linked to a workspace, a workspace moved onto the folder later, and an instance the
// folder's own files make with its workspace in the folder. The unsandboxed instance `Escaped` must
// never appear. Run as root and as an ordinary user.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type TestCore, startTestCore, tempDir } from '../../support/core';

let t: TestCore;
let counter = 0;

const agent = { provider: 'command', preset: 'custom', command: 'true' };
const escaped = (name = 'Escaped') => `kind: instance\nname: ${name}\nagent:\n  provider: command\n  preset: custom\n  command: "true"\nsandbox:\n  mode: "off"\n`;
const harmless = (name: string) => `kind: automation\nname: ${name}\ncronExpression: "0 9 * * *"\nprompt: hi\n`;

const setFolder = (folder: string | null) => t.api('PUT', '/api/config', { folder });
const names = async () => ((await t.api('GET', '/api/instances')).body.instances as { name: string }[]).map((each) => each.name);
const automationNames = async () => ((await t.api('GET', '/api/automations')).body.automations as { name: string }[]).map((each) => each.name);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function boxed(extra: { workspaceDir?: string; writeAllow?: string[] }): Promise<string> {
  counter += 1;
  const made = await t.api('POST', '/api/instances', {
    name: `Boxed ${counter}`,
    agent,
    workspaceDir: extra.workspaceDir,
    sandbox: { mode: 'sandbox', network: [], readAllow: [], readDeny: [], writeAllow: extra.writeAllow ?? [], envAllow: [] },
  });
  expect(made.status, made.text).toBe(201);
  return made.body.instance.id as string;
}

/** The folder is refused now, or, if taken, what the run writes is never applied (waited for a few looks). */
async function neverApplied(folder: string, plant: () => void, name = 'Escaped'): Promise<void> {
  const chosen = await setFolder(folder);
  if (chosen.status !== 200) {
    expect(chosen.status, chosen.text).toBe(400);
    return;
  }
  if (process.env.RT34_DEBUG) console.log('accepted', folder, JSON.stringify((await t.api('GET', '/api/config')).body.config));
  plant();
  for (let look = 0; look < 8; look++) {
    await sleep(500);
    expect(await names(), `the folder ${folder} applied what a sandboxed run wrote`).not.toContain(name);
  }
  if (process.env.RT34_DEBUG) console.log('after', folder, JSON.stringify((await t.api('GET', '/api/config')).body.config));
}

beforeAll(async () => {
  t = await startTestCore();
});
afterEach(async () => {
  await setFolder(null);
  // Remove whatever a test made (Escaped included, should it have appeared).
  for (const instance of (await t.api('GET', '/api/instances')).body.instances as { id: string; name: string; isDefault?: boolean }[]) {
    if (instance.name !== 'Steward' && !instance.isDefault) await t.api('DELETE', `/api/instances/${instance.id}?force=true`);
  }
});
afterAll(async () => {
  await t?.close();
});

describe('the folder spelled another way', () => {
  it.each([
    ['with ..', (ws: string) => path.join(ws, 'other', '..', 'config').replace(`${path.sep}other${path.sep}..`, `${path.sep}other${path.sep}..`)],
    ['with a trailing slash', (ws: string) => `${path.join(ws, 'config')}/`],
    ['with a double slash', (ws: string) => `${ws}//config`],
    ['with a dot', (ws: string) => `${ws}/./config`],
    ['through /proc/self/root', (ws: string) => `/proc/self/root${ws}/config`],
    ['through /proc/self/cwd/.. games', (ws: string) => `/proc/self/root/../..${ws}/config`],
  ])('in a workspace, %s, is refused', async (_what, spell) => {
    const ws = path.join(tempDir(), 'ws');
    fs.mkdirSync(path.join(ws, 'config'), { recursive: true });
    fs.mkdirSync(path.join(ws, 'other'), { recursive: true });
    await boxed({ workspaceDir: ws });
    const folder = spell(ws);
    // Build the `..` spelling by hand: path.join would fold it.
    const raw = folder.includes('other') ? `${ws}/other/../config` : folder;
    await neverApplied(raw, () => fs.writeFileSync(path.join(ws, 'config', 'evil.yaml'), escaped()));
  });

  it('through a symlinked parent: /link/config where /link is the workspace', async () => {
    const root = tempDir();
    const ws = path.join(root, 'ws');
    fs.mkdirSync(path.join(ws, 'config'), { recursive: true });
    await boxed({ workspaceDir: ws });
    fs.symlinkSync(ws, path.join(root, 'link'));
    await neverApplied(path.join(root, 'link', 'config'), () => fs.writeFileSync(path.join(ws, 'config', 'evil.yaml'), escaped()));
  });
});

describe('a workspace or writeAllow spelled another way', () => {
  it('a workspace given as a symlink to the folder', async () => {
    const root = tempDir();
    const folder = path.join(root, 'cfg');
    fs.mkdirSync(folder);
    fs.symlinkSync(folder, path.join(root, 'ws-link'));
    await boxed({ workspaceDir: path.join(root, 'ws-link') });
    await neverApplied(folder, () => fs.writeFileSync(path.join(folder, 'evil.yaml'), escaped()));
  });

  it('a workspace given with .. that lands on the folder', async () => {
    const root = tempDir();
    const folder = path.join(root, 'cfg');
    fs.mkdirSync(folder);
    fs.mkdirSync(path.join(root, 'x'));
    await boxed({ workspaceDir: `${root}/x/../cfg` });
    await neverApplied(folder, () => fs.writeFileSync(path.join(folder, 'evil.yaml'), escaped()));
  });

  it('writeAllow as a symlink to the folder', async () => {
    const root = tempDir();
    const folder = path.join(root, 'cfg');
    fs.mkdirSync(folder);
    fs.symlinkSync(folder, path.join(root, 'allowed'));
    await boxed({ writeAllow: [path.join(root, 'allowed')] });
    await neverApplied(folder, () => fs.writeFileSync(path.join(folder, 'evil.yaml'), escaped()));
  });

  it('writeAllow as a symlink to a parent of the folder', async () => {
    const root = tempDir();
    const folder = path.join(root, 'parent', 'cfg');
    fs.mkdirSync(folder, { recursive: true });
    fs.symlinkSync(path.join(root, 'parent'), path.join(root, 'allowed'));
    await boxed({ writeAllow: [path.join(root, 'allowed')] });
    await neverApplied(folder, () => fs.writeFileSync(path.join(folder, 'evil.yaml'), escaped()));
  });

  it('writeAllow given with ~ (the home folder)', async () => {
    const home = os.homedir();
    const under = fs.mkdtempSync(path.join(home, '.steward-rt34-'));
    try {
      const folder = path.join(under, 'cfg');
      fs.mkdirSync(folder);
      await boxed({ writeAllow: [`~/${path.basename(under)}`] });
      await neverApplied(folder, () => fs.writeFileSync(path.join(folder, 'evil.yaml'), escaped()));
    } finally {
      fs.rmSync(under, { recursive: true, force: true });
    }
  });

  it('writeAllow with .. and a trailing slash', async () => {
    const root = tempDir();
    const folder = path.join(root, 'cfg');
    fs.mkdirSync(folder);
    fs.mkdirSync(path.join(root, 'y'));
    await boxed({ writeAllow: [`${root}/y/../cfg/`] });
    await neverApplied(folder, () => fs.writeFileSync(path.join(folder, 'evil.yaml'), escaped()));
  });

  it('writeAllow naming a path that does not exist yet, later made a symlink to the folder', async () => {
    const root = tempDir();
    const folder = path.join(root, 'cfg');
    fs.mkdirSync(folder);
    await boxed({ writeAllow: [path.join(root, 'later')] });
    const chosen = await setFolder(folder);
    expect(chosen.status, chosen.text).toBe(200);
    // A person (or a tool) makes the path later: the sandbox binds it at the next run.
    fs.symlinkSync(folder, path.join(root, 'later'));
    fs.writeFileSync(path.join(folder, 'evil.yaml'), escaped());
    for (let look = 0; look < 8; look++) {
      await sleep(500);
      expect(await names()).not.toContain('Escaped');
    }
  });
});

describe('links inside the folder', () => {
  it('a file in the folder that is a symlink to a file in a workspace', async () => {
    const root = tempDir();
    const ws = path.join(root, 'ws');
    const folder = path.join(root, 'cfg');
    fs.mkdirSync(ws);
    fs.mkdirSync(folder);
    await boxed({ workspaceDir: ws });
    fs.writeFileSync(path.join(ws, 'notes.yaml'), harmless('Looks harmless'));
    fs.symlinkSync(path.join(ws, 'notes.yaml'), path.join(folder, 'team.yaml'));
    await neverApplied(folder, () => fs.writeFileSync(path.join(ws, 'notes.yaml'), escaped()));
  });

  it('a subfolder of the folder that is a symlink to a workspace', async () => {
    const root = tempDir();
    const ws = path.join(root, 'ws');
    const folder = path.join(root, 'cfg');
    fs.mkdirSync(ws);
    fs.mkdirSync(folder);
    await boxed({ workspaceDir: ws });
    fs.symlinkSync(ws, path.join(folder, 'automations'));
    await neverApplied(folder, () => fs.writeFileSync(path.join(ws, 'evil.yaml'), escaped()));
  });

  it('a file in the folder hard-linked to a file in a workspace', async () => {
    const root = tempDir();
    const ws = path.join(root, 'ws');
    const folder = path.join(root, 'cfg');
    fs.mkdirSync(ws);
    fs.mkdirSync(folder);
    await boxed({ workspaceDir: ws });
    fs.writeFileSync(path.join(ws, 'notes.yaml'), harmless('Looks harmless'));
    fs.linkSync(path.join(ws, 'notes.yaml'), path.join(folder, 'team.yaml'));
    // The run writes its own file in place: the same inode is the folder's file.
    await neverApplied(folder, () => fs.writeFileSync(path.join(ws, 'notes.yaml'), escaped()));
  });

  it('a symlink in the folder to a file outside every workspace is not read (it could be anything)', async () => {
    const root = tempDir();
    const folder = path.join(root, 'cfg');
    const elsewhere = path.join(root, 'elsewhere.yaml');
    fs.mkdirSync(folder);
    fs.writeFileSync(elsewhere, harmless('From outside the folder'));
    fs.symlinkSync(elsewhere, path.join(folder, 'x.yaml'));
    const chosen = await setFolder(folder);
    if (chosen.status === 200) {
      await sleep(2500);
      expect(await automationNames()).not.toContain('From outside the folder');
    }
  });

  it('a symlink in the folder to /dev/zero or a FIFO does not stall the daemon', async () => {
    const root = tempDir();
    const folder = path.join(root, 'cfg');
    fs.mkdirSync(folder);
    fs.symlinkSync('/dev/zero', path.join(folder, 'zero.yaml'));
    const started = Date.now();
    const chosen = await setFolder(folder);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(chosen.status).toBeLessThan(500);
    await sleep(1500);
    const health = Date.now();
    expect((await t.api('GET', '/api/health')).status).toBe(200);
    expect(Date.now() - health).toBeLessThan(2000);
  });
});

describe('the folder made writable afterwards', () => {
  it('an instance whose workspace is moved onto the folder later', async () => {
    const root = tempDir();
    const folder = path.join(root, 'cfg');
    fs.mkdirSync(folder);
    const id = await boxed({ workspaceDir: path.join(root, 'ws') });
    expect((await setFolder(folder)).status).toBe(200);
    const moved = await t.api('PATCH', `/api/instances/${id}`, { workspaceDir: folder });
    if (moved.status >= 400) return;
    fs.writeFileSync(path.join(folder, 'evil.yaml'), escaped());
    for (let look = 0; look < 8; look++) {
      await sleep(500);
      expect(await names()).not.toContain('Escaped');
    }
  });

  it("the folder's own file makes a sandboxed instance whose workspace is the folder", async () => {
    const root = tempDir();
    const folder = path.join(root, 'cfg');
    fs.mkdirSync(folder);
    fs.writeFileSync(
      path.join(folder, 'trojan.yaml'),
      `kind: instance\nname: Trojan\nagent:\n  provider: command\n  preset: custom\n  command: "true"\nworkspaceDir: ${folder}\nsandbox:\n  mode: sandbox\n`,
    );
    expect((await setFolder(folder)).status).toBe(200);
    await sleep(2000);
    const trojanMade = (await names()).includes('Trojan');
    // If Trojan was made, its runs can now write the folder: the next change must not be applied.
    fs.writeFileSync(path.join(folder, 'evil.yaml'), escaped());
    for (let look = 0; look < 8; look++) {
      await sleep(500);
      expect(await names(), `Trojan made: ${trojanMade}`).not.toContain('Escaped');
    }
  });

  it('an upload (not the folder) makes a sandboxed instance writing into the watched folder', async () => {
    const root = tempDir();
    const folder = path.join(root, 'cfg');
    fs.mkdirSync(folder);
    expect((await setFolder(folder)).status).toBe(200);
    const upload = await t.api('POST', '/api/config/apply', {
      files: [{ path: 'upload.yaml', text: `kind: instance\nname: Helper\nagent:\n  provider: command\n  preset: custom\n  command: "true"\nsandbox:\n  mode: sandbox\n  writeAllow: ["${folder}"]\n` }],
    });
    expect(upload.status).toBeLessThan(500);
    fs.writeFileSync(path.join(folder, 'evil.yaml'), escaped());
    for (let look = 0; look < 8; look++) {
      await sleep(500);
      expect(await names()).not.toContain('Escaped');
    }
  });
});

describe('folders around everything', () => {
  it.each([['/'], ['/var'], ['/var/tmp'], [os.homedir()]])('%s (holding every workspace) is refused while a sandboxed instance has one under it', async (folder) => {
    const ws = path.join(tempDir(), 'ws');
    fs.mkdirSync(ws);
    await boxed({ workspaceDir: ws });
    if (!ws.startsWith(folder === '/' ? '/' : `${folder}/`)) return;
    expect((await setFolder(folder)).status).toBe(400);
  });
});

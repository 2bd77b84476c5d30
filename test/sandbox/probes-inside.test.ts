// What a run leaves in its workspace never runs outside when Steward checks the instance's agent.
// The probes (a preset's `--version`, an ACP agent's `initialize`) run at create, restart, agent
// change and every start; a run may have planted, before any of them, what the CLI or its launcher
// picks up from its working folder: a `node_modules/.bin/node` that `#!/usr/bin/env node` finds
// through a developer's relative PATH entry, a local bin that `npx` prefers. Each planted program
// writes a marker into a folder no sandbox may write: it must never appear, sandboxed or not.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { Instance } from '../../src/shared/contract';
import { type TestCore, startTestCore, tempDir } from '../support/core';
import { lacks } from '../support/requirements';
import { waitFor } from '../support/wait';

const skip = lacks('sandbox');
const acpFixture = path.resolve(import.meta.dirname, '../fixtures/agents/acp-agent.mjs');

let t: TestCore;
let bin: string;
let outside: string;

beforeAll(async () => {
  if (skip) return;
  t = await startTestCore({ clock: systemClock });
  outside = tempDir('steward-outside-');
  bin = tempDir('steward-probe-bin-');
  // CLIs as npm installs them: a script run by whatever `node` the PATH finds first.
  fs.writeFileSync(path.join(bin, 'fake-gemini'), '#!/usr/bin/env node\nconsole.log("0.61.0");\n', { mode: 0o755 });
  fs.writeFileSync(path.join(bin, 'scripted-acp'), `#!/usr/bin/env node\nimport(${JSON.stringify(acpFixture)});\n`, { mode: 0o755 });
});

afterAll(async () => {
  await t?.close();
});

/** A workspace as a run could have left it: `node_modules/.bin/<name>` for each name, each writing a marker outside when run. */
function plantedWorkspace(names: string[]): string {
  const workspace = tempDir('steward-planted-');
  fs.mkdirSync(path.join(workspace, 'node_modules/.bin'), { recursive: true });
  fs.writeFileSync(path.join(workspace, 'package.json'), '{"name": "planted", "private": true}\n');
  for (const name of names) {
    const marker = path.join(outside, `${path.basename(workspace)}-${name}`);
    const rest = name === 'node' ? `exec ${JSON.stringify(process.execPath)} "$@"` : 'exit 1';
    fs.writeFileSync(path.join(workspace, 'node_modules/.bin', name), `#!/bin/sh\nid -u > ${JSON.stringify(marker)}\n${rest}\n`, { mode: 0o755 });
  }
  return workspace;
}

const markersOf = (workspace: string) => fs.readdirSync(outside).filter((name) => name.startsWith(`${path.basename(workspace)}-`));

function probed(id: string): Promise<Instance> {
  const instance = async () => (await t.api('GET', `/api/instances/${id}`)).body.instance as Instance;
  return waitFor(instance, { what: `instance ${id} to be probed`, timeoutMs: 30_000, until: (current) => current.status !== 'provisioning' });
}

async function createProbed(agent: object, sandbox: object, workspaceDir: string): Promise<Instance> {
  const created = await t.api('POST', '/api/instances', { name: 'planted', agent, sandbox, workspaceDir });
  expect(created.status).toBe(201);
  return probed(created.body.instance.id);
}

async function restarted(instance: Instance): Promise<Instance> {
  expect((await t.api('POST', `/api/instances/${instance.id}/restart`)).status).toBe(202);
  return probed(instance.id);
}

// A developer's PATH with the project's bin folder first, as many set it.
const relativePath = () => `node_modules/.bin:${bin}:${process.env.PATH}`;

describe.skipIf(skip)('the probes of an instance', () => {
  for (const mode of ['sandbox', 'off'] as const) {
    it(`run a preset's --version away from the workspace (${mode}): a node planted in its node_modules/.bin never runs`, async () => {
      const workspace = plantedWorkspace(['node']);
      const agent = { provider: 'command', preset: 'gemini', command: path.join(bin, 'fake-gemini'), env: { PATH: relativePath() } };
      const instance = await createProbed(agent, { mode }, workspace);
      expect(instance).toMatchObject({ status: 'running', imageTag: expect.stringMatching(/^gemini@0\.61\.0 · /) });
      expect(instance.imageTag.endsWith(mode === 'sandbox' ? ')' : ' · host')).toBe(true);
      expect(await restarted(instance)).toMatchObject({ status: 'running' });
      expect(markersOf(workspace)).toEqual([]);
    });

    it(`start an ACP agent away from the workspace (${mode}): a node planted in its node_modules/.bin never runs`, async () => {
      const workspace = plantedWorkspace(['node']);
      const agent = { provider: 'acp', command: path.join(bin, 'scripted-acp'), env: { PATH: relativePath() } };
      const instance = await createProbed(agent, { mode }, workspace);
      expect(instance).toMatchObject({ status: 'running', imageTag: expect.stringMatching(/^acp:scripted-acp 1\.2\.3 · loads sessions · /) });
      expect(instance.imageTag.endsWith(mode === 'sandbox' ? ')' : ' · host')).toBe(true);
      expect(markersOf(workspace)).toEqual([]);
    });
  }

  it('start an ACP agent launched by npx away from the workspace: the local bin npx would prefer never runs', async () => {
    const workspace = plantedWorkspace(['steward-acp-agent']);
    const agent = { provider: 'acp', command: 'npx', args: ['--offline', 'steward-acp-agent'] };
    const instance = await createProbed(agent, { mode: 'sandbox' }, workspace);
    // npx finds no such package anywhere else, offline: the probe fails, and says so.
    expect(instance.status).toBe('error');
    expect(markersOf(workspace)).toEqual([]);
  });

  it('run a sandboxed probe inside the sandbox: what the probe runs cannot write outside', async () => {
    const escape = path.join(outside, 'probe-escaped');
    const script = path.join(bin, 'escaping-version');
    fs.writeFileSync(script, `#!/bin/sh\necho 1.0.0\necho escaped > ${JSON.stringify(escape)} 2>/dev/null\n`, { mode: 0o755 });
    const workspace = tempDir('steward-workspace-');
    const sandboxed = await createProbed({ provider: 'command', preset: 'goose', command: script }, { mode: 'sandbox' }, workspace);
    expect(sandboxed).toMatchObject({ status: 'running', imageTag: expect.stringMatching(/^goose@1\.0\.0 · sandbox/) });
    expect(fs.existsSync(escape)).toBe(false);
    // The same script on an instance whose sandbox is off does write it: the check can fail.
    const open = await createProbed({ provider: 'command', preset: 'goose', command: script }, { mode: 'off' }, tempDir('steward-workspace-'));
    expect(open).toMatchObject({ status: 'running', imageTag: 'goose@1.0.0 · host' });
    expect(fs.readFileSync(escape, 'utf8')).toBe('escaped\n');
  });

  it('leave no folder behind, and the folders of probes Steward stopped in the middle of are gone at its next start', async () => {
    await t.core.services.instances.idle();
    const probeDirs = (dataDir: string) => (fs.existsSync(path.join(dataDir, 'runs')) ? fs.readdirSync(path.join(dataDir, 'runs')).filter((name) => name.startsWith('probe-')) : []);
    expect(probeDirs(t.dataDir)).toEqual([]);
    const dataDir = tempDir('steward-data-');
    fs.mkdirSync(path.join(dataDir, 'runs/probe-ins_01KAAAAAAAAAAAAAAAAAAAAAAA-x1y2z3/cwd'), { recursive: true, mode: 0o700 });
    const again = await startTestCore({ clock: systemClock, dataDir });
    await again.core.services.instances.idle();
    expect(probeDirs(dataDir)).toEqual([]);
    await again.close();
  });
});

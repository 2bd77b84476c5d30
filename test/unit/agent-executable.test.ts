// What a sandbox shows of an agent's command, from the way people install CLIs: npm under ~/.nvm
// (a bin link into lib/node_modules, node beside it), a project's node_modules/.bin with hoisted
// dependencies behind a linked folder (this repository's .cache), a Python virtualenv, a custom
// script's folder; never a folder that holds the home itself.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { executableFootprint, resolveLinks, shebangProgram } from '../../src/main/core/sandbox/agent-executable';
import { tempDir } from '../support/core';

function file(at: string, text: string, mode = 0o755): string {
  fs.mkdirSync(path.dirname(at), { recursive: true });
  fs.writeFileSync(at, text, { mode });
  return at;
}

function link(at: string, target: string): void {
  fs.mkdirSync(path.dirname(at), { recursive: true });
  fs.symlinkSync(target, at);
}

describe("an agent command's footprint", () => {
  it('follows every link to the real file, recording each at its real folder', () => {
    const root = fs.realpathSync(tempDir('steward-links-'));
    file(path.join(root, 'real/pkg/cli.js'), '#!/usr/bin/env node\n');
    link(path.join(root, 'alias'), 'real');
    link(path.join(root, 'real/bin/cli'), '../pkg/cli.js');
    expect(resolveLinks(path.join(root, 'alias/bin/cli'))).toEqual({
      links: [
        { path: path.join(root, 'alias'), target: 'real' },
        { path: path.join(root, 'real/bin/cli'), target: '../pkg/cli.js' },
      ],
      real: path.join(root, 'real/pkg/cli.js'),
    });
    expect(resolveLinks(path.join(root, 'missing'))).toBeUndefined();
  });

  it('reads the program of a #! line, through env and its options', () => {
    const line = (text: string) => shebangProgram(Buffer.from(text));
    expect(line('#!/usr/bin/env node\nconsole.log(1)')).toEqual({ word: 'node' });
    expect(line('#!/usr/bin/env -S node --no-warnings\n')).toEqual({ word: 'node' });
    expect(line('#!/usr/bin/env NODE_OPTIONS=x node\n')).toEqual({ word: 'node' });
    expect(line('#! /opt/venv/bin/python3 -u\n')).toEqual({ path: '/opt/venv/bin/python3' });
    expect(line('\x7fELF')).toBeUndefined();
  });

  it('is, for a CLI npm put under ~/.nvm, its package folder, the link PATH finds it by, and the node its #! names', () => {
    const home = fs.realpathSync(tempDir('steward-home-'));
    const prefix = path.join(home, '.nvm/versions/node/v22.12.0');
    file(path.join(prefix, 'lib/node_modules/@anthropic-ai/claude-code/cli.js'), '#!/usr/bin/env node\n');
    link(path.join(prefix, 'bin/claude'), '../lib/node_modules/@anthropic-ai/claude-code/cli.js');
    file(path.join(prefix, 'bin/node'), 'a binary');
    file(path.join(home, 'notes/passwords.txt'), 'hunter2', 0o600);
    const footprint = executableFootprint([{ command: 'claude', wholeFolder: false }], `${prefix}/bin:/usr/bin`, home);
    expect(footprint.read).toEqual([path.join(prefix, 'lib/node_modules'), path.join(prefix, 'bin/node')]);
    expect(footprint.links).toEqual([{ path: path.join(prefix, 'bin/claude'), target: '../lib/node_modules/@anthropic-ai/claude-code/cli.js' }]);
  });

  it('is, for a project install (node_modules/.bin behind a linked folder), the whole node_modules with its hoisted dependencies', () => {
    const root = fs.realpathSync(tempDir('steward-project-'));
    file(path.join(root, 'main/.cache/clis/node_modules/@openai/codex/bin/codex.js'), '#!/bin/sh\n');
    file(path.join(root, 'main/.cache/clis/node_modules/@openai/codex-linux-x64/vendor/codex'), 'a binary');
    link(path.join(root, 'main/.cache/clis/node_modules/.bin/codex'), '../@openai/codex/bin/codex.js');
    link(path.join(root, 'checkout/.cache'), path.join(root, 'main/.cache'));
    const footprint = executableFootprint([{ command: 'codex', wholeFolder: false }], path.join(root, 'checkout/.cache/clis/node_modules/.bin'), '/home/nobody');
    expect(footprint.read).toEqual([path.join(root, 'main/.cache/clis/node_modules'), fs.realpathSync('/bin/sh')]);
    expect(footprint.links.map((each) => each.path)).toEqual(expect.arrayContaining([path.join(root, 'checkout/.cache'), path.join(root, 'main/.cache/clis/node_modules/.bin/codex')]));
  });

  it('is, for a tool in a virtualenv, the virtualenv, and its python wherever that leads', () => {
    const root = fs.realpathSync(tempDir('steward-venv-'));
    const venv = path.join(root, 'pipx/venvs/tool');
    file(path.join(venv, 'pyvenv.cfg'), 'home = /usr/bin\n', 0o644);
    file(path.join(venv, 'bin/tool'), `#!${venv}/bin/python\n`);
    link(path.join(venv, 'bin/python'), '/bin/sh');
    const footprint = executableFootprint([{ command: path.join(venv, 'bin/tool'), wholeFolder: false }], '', '/home/nobody');
    expect(footprint.read).toContain(venv);
    expect(footprint.read).toContain(fs.realpathSync('/bin/sh'));
  });

  it("is, for a custom command, its folder; but never a folder that holds the home: then the file alone", () => {
    const home = fs.realpathSync(tempDir('steward-home-'));
    file(path.join(home, 'agents/run.sh'), '#!/bin/sh\n');
    file(path.join(home, 'top.sh'), '#!/bin/sh\n');
    expect(executableFootprint([{ command: path.join(home, 'agents/run.sh'), wholeFolder: true }], '', home).read).toEqual([path.join(home, 'agents'), fs.realpathSync('/bin/sh')]);
    expect(executableFootprint([{ command: path.join(home, 'top.sh'), wholeFolder: true }], '', home).read).toEqual([path.join(home, 'top.sh'), fs.realpathSync('/bin/sh')]);
    expect(executableFootprint([{ command: 'no-such-command', wholeFolder: true }], '/usr/bin', home)).toEqual({ read: [], links: [] });
  });
});

// The core's own layers (eslint-rules/house.mjs, docs/development.md "Layers"): store at the
// bottom, the services over it, the runner and http over the services, the agents and the sandbox
// below the runner. A reach upward fails lint, by value or by type; a reach downward passes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { houseConfig } from '../../eslint-rules/house.mjs';

let root: string;

async function lint(path: string, text: string): Promise<string[]> {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } }, houseConfig],
  });
  const [result] = await eslint.lintFiles([path]);
  return (result?.messages ?? []).map((message) => `${message.ruleId ?? 'parse'}: ${message.message}`);
}

const core = 'src/main/core';
// A file in each place an import may name.
const targets = ['store/repositories/runs.ts', 'services/runs.ts', 'runner/runner.ts', 'http/app.ts', 'agents/events.ts', 'sandbox/policy.ts', 'scheduler/clock.ts', 'dispatch.ts', 'handlers.ts', 'operation-call.ts', 'index.ts'];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'steward-layers-'));
  for (const target of targets) {
    mkdirSync(dirname(join(root, core, target)), { recursive: true });
    writeFileSync(join(root, core, target), 'export type Thing = string;\nexport const thing = 1;\n');
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const badLayering = (layer: string, target: string) => expect.stringMatching(new RegExp(`^house/layers: Bad layering: ${layer}.*\\(${core}/${target.replace('.', '\\.')}\\)$`));

describe('the core\'s layers', () => {
  it('keep the store at the bottom: it reaches no folder above it, by value or by type', async () => {
    const text = [
      "import { thing } from '../../services/runs';",
      "import type { Thing } from '../../runner/runner';",
      "import { type Thing as Other } from '../../agents/events';",
      "export type Both = Thing | Other | typeof thing;",
    ].join('\n');
    expect(await lint(`${core}/store/repositories/automations.ts`, text)).toEqual([
      badLayering('core/store', 'services/runs.ts'),
      badLayering('core/store', 'runner/runner.ts'),
      badLayering('core/store', 'agents/events.ts'),
    ]);
  });

  it('keep the services below http and the wiring, by type too', async () => {
    const text = ["import type { Thing } from '../http/app';", "import { thing } from '../index';", 'export const both: Thing = String(thing);'].join('\n');
    expect(await lint(`${core}/services/automations.ts`, text)).toEqual([badLayering('core/services', 'http/app.ts'), badLayering('core/services', 'index.ts')]);
  });

  it('keep the agents and the sandbox below the runner, the services, http and the wiring', async () => {
    const agent = [
      "import { thing } from '../runner/runner';",
      "import type { Thing } from '../services/runs';",
      "export { thing as again } from '../http/app';",
      "import type { Thing as Door } from '../dispatch';",
      "type Map = typeof import('../handlers');",
      'export type All = Thing | Door | Map | typeof thing;',
    ].join('\n');
    expect(await lint(`${core}/agents/openai-agent.ts`, agent)).toEqual([
      badLayering('core/agents and core/sandbox', 'runner/runner.ts'),
      badLayering('core/agents and core/sandbox', 'services/runs.ts'),
      badLayering('core/agents and core/sandbox', 'http/app.ts'),
      badLayering('core/agents and core/sandbox', 'dispatch.ts'),
      badLayering('core/agents and core/sandbox', 'handlers.ts'),
    ]);
    expect(await lint(`${core}/sandbox/bubblewrap.ts`, "import type { Thing } from '../runner/runner';\nexport type Mine = Thing;\n")).toEqual([
      badLayering('core/agents and core/sandbox', 'runner/runner.ts'),
    ]);
  });

  it('let each layer reach down', async () => {
    const down = (from: string, imports: string[]) => lint(`${core}/${from}`, `${imports.map((path, index) => `import { thing as t${index} } from '${path}';`).join('\n')}\nexport const all = [${imports.map((_, index) => `t${index}`).join(', ')}];\n`);
    expect(await down('agents/tools/steward.ts', ['../../operation-call', '../../sandbox/policy', '../events'])).toEqual([]);
    expect(await down('sandbox/run.ts', ['../agents/events', '../store/repositories/runs'])).toEqual([]);
    expect(await down('services/approvals.ts', ['../store/repositories/runs', '../scheduler/clock', '../agents/events', '../sandbox/policy', './runs'])).toEqual([]);
    expect(await down('runner/retries.ts', ['../services/runs', '../agents/events', '../sandbox/policy', '../store/repositories/runs', '../dispatch'])).toEqual([]);
    expect(await down('http/routes.ts', ['../services/runs', '../runner/runner', '../handlers', '../dispatch'])).toEqual([]);
  });
});

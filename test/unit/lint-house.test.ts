// The lint configuration keeps the house's shape: files written to a temporary project with the
// repository's layout are linted with the house rules of eslint.config.js, and an import circle
// or an import against the layers is an error; a type-only import may close a circle (it is
// erased), but not reach against the layers (it still ties the lower layer to the upper one).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { houseConfig } from '../../eslint-rules/house.mjs';

let root: string;

function write(files: Record<string, string>) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

async function lint(path: string): Promise<string[]> {
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [{ files: ['**/*.ts', '**/*.tsx'], languageOptions: { parser: tseslint.parser } }, houseConfig],
  });
  const [result] = await eslint.lintFiles([path]);
  return (result?.messages ?? []).map((message) => `${message.ruleId ?? 'parse'}: ${message.message}`);
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'steward-lint-'));
  write({
    // A circle among values, and a pair that points back with a type only.
    'src/renderer/src/features/a/Editor.tsx': "import { Fields } from './Fields';\nexport const Editor = () => Fields;\n",
    'src/renderer/src/features/a/Fields.tsx': "import { Editor } from './Editor';\nexport const Fields = () => Editor;\n",
    'src/renderer/src/features/b/View.tsx': "import { label } from './label';\nexport type ViewProps = { label: string };\nexport const View = () => label;\n",
    'src/renderer/src/features/b/label.ts': "import type { ViewProps } from './View';\nexport const label: ViewProps['label'] = 'b';\n",
    // Layers: the contract reaching into the core, the core into the shell, the store into the services.
    'src/shared/contract.ts': "import { createCore } from '../main/core/index';\nimport type { Core } from '../main/core/index';\nexport const made: Core = createCore();\n",
    'src/main/core/index.ts': "import { tray } from '../shell/tray';\nimport { save } from './store/rows';\nexport type Core = { tray: string };\nexport const createCore = (): Core => ({ tray: tray + save });\n",
    'src/main/core/store/rows.ts': "import { notify } from '../services/notify';\nexport const save = notify;\n",
    'src/main/core/services/notify.ts': "export const notify = 'n';\n",
    'src/main/shell/tray.ts': "export const tray = 't';\n",
    'src/renderer/src/client.ts': "import type { Core } from '../../main/core/index';\nexport const load = () => import('../../main/core/index');\nexport type Client = Core;\n",
  });
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the house rules', () => {
  it('report a circle among values, on each side', async () => {
    const editor = await lint('src/renderer/src/features/a/Editor.tsx');
    expect(editor).toEqual([
      'house/no-cycle: Import circle: src/renderer/src/features/a/Editor.tsx → src/renderer/src/features/a/Fields.tsx → src/renderer/src/features/a/Editor.tsx. Break it (move the shared piece down, or import a type only).',
    ]);
    expect(await lint('src/renderer/src/features/a/Fields.tsx')).toHaveLength(1);
  });

  it('let a type-only import point back', async () => {
    expect(await lint('src/renderer/src/features/b/View.tsx')).toEqual([]);
    expect(await lint('src/renderer/src/features/b/label.ts')).toEqual([]);
  });

  it('report imports against the layers, type-only ones included', async () => {
    const sharedIntoCore = expect.stringMatching(/^house\/layers: Bad layering: src\/shared is the contract.*\(src\/main\/core\/index\.ts\)$/);
    expect(await lint('src/shared/contract.ts')).toEqual([sharedIntoCore, sharedIntoCore]);
    expect(await lint('src/main/core/index.ts')).toEqual([expect.stringMatching(/^house\/layers: Bad layering: src\/main\/core runs under plain Node.*\(src\/main\/shell\/tray\.ts\)$/)]);
    expect(await lint('src/main/core/store/rows.ts')).toEqual([expect.stringMatching(/^house\/layers: Bad layering: core\/store is the bottom.*\(src\/main\/core\/services\/notify\.ts\)$/)]);
    // A type and a dynamic import are still dependencies on the main process.
    const rendererIntoMain = expect.stringMatching(/^house\/layers: Bad layering: The renderer talks to the main process/);
    expect(await lint('src/renderer/src/client.ts')).toEqual([rendererIntoMain, rendererIntoMain]);
    expect(await lint('src/main/core/services/notify.ts')).toEqual([]);
  });
});

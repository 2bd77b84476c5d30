// The house's shape, checked by lint (docs/development.md, "Layers"): a local ESLint plugin with
// two rules. `house/layers` reports an import against the layers, type-only ones included: a type
// from above ties a lower layer to the one above it as surely as a value does. `house/no-cycle`
// reports a value import that closes an import circle; type-only imports (`import type`, or every
// specifier marked `type`) are erased by TypeScript, so they cannot close a circle at load time.
// Dynamic `import()` loads later, so it cannot close a circle either, but it must still respect
// the layers.
import { readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const core = 'src/main/core';

/**
 * Which repository paths (relative, `/`-separated) each layer may not import, by value or by type.
 * Inside the core, from the bottom up: store; services; runner and http over the services; agents
 * and sandbox below the runner; the wiring at the root (index.ts, handlers.ts, dispatch.ts) over all.
 */
export const layers = [
  {
    from: /^src\/shared\//,
    forbid: /^src\/(main|renderer|preload)\//,
    message: 'src/shared is the contract: it imports nothing of src/main, src/preload or src/renderer.',
  },
  {
    from: /^src\/main\/core\//,
    forbid: /^src\/(main\/(?!core\/)|renderer\/|preload\/)/,
    message: 'src/main/core runs under plain Node: it imports nothing of the Electron shell, the CLI or the renderer.',
  },
  {
    from: new RegExp(`^${core}/store/`),
    forbid: new RegExp(`^${core}/((services|http|runner|agents|sandbox|scheduler|remotes|tunnel)/|(index|handlers|dispatch|compose-services)\\.ts$)`),
    message: 'core/store is the bottom of the core: it imports nothing of the folders above it, nor the wiring at the root.',
  },
  {
    from: new RegExp(`^${core}/services/`),
    forbid: new RegExp(`^${core}/(http/|index\\.ts$)`),
    message: 'core/services sit below core/http and the wiring: they import nothing of core/http nor core/index.ts; what calls back up is handed down.',
  },
  {
    from: new RegExp(`^${core}/services/`),
    forbid: new RegExp(`^${core}/(runner/|(handlers|dispatch|compose-services)\\.ts$)`),
    message: 'core/services sit below core/runner and the wiring at the root: the runner calls the services, not the reverse; compose-services.ts builds them (operation-call.ts holds what a call takes).',
  },
  {
    from: new RegExp(`^${core}/(agents|sandbox)/`),
    forbid: new RegExp(`^${core}/((runner|services|http)/|(index|handlers|dispatch|compose-services)\\.ts$)`),
    message: 'core/agents and core/sandbox sit below core/runner: they import nothing of core/runner, core/services, core/http or the wiring at the root; what they call of Steward is handed down (operation-call.ts).',
  },
  {
    from: /^src\/renderer\//,
    forbid: /^src\/(main|preload)\//,
    message: 'The renderer talks to the main process through the contract only: it imports nothing of src/main or src/preload.',
  },
];

const extensions = ['', '.ts', '.tsx', '.mts', '.js', '.mjs', '/index.ts', '/index.tsx'];

function isFile(path) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The file a relative specifier names, or undefined for packages and unresolvable paths. */
export function resolveImport(importer, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(importer), specifier);
  for (const extension of extensions) if (isFile(base + extension)) return base + extension;
  if (base.endsWith('.js') && isFile(base.slice(0, -3) + '.ts')) return base.slice(0, -3) + '.ts';
  return undefined;
}

function isTypeOnlyDeclaration(node) {
  if (node.importKind === 'type' || node.exportKind === 'type') return true;
  const specifiers = node.specifiers ?? [];
  return (
    specifiers.length > 0 &&
    specifiers.every((specifier) => specifier.importKind === 'type' || specifier.exportKind === 'type')
  );
}

// The value imports of files on disk, parsed with TypeScript and kept per modification time.
const graphCache = new Map();

function valueImportsOnDisk(file) {
  let mtime;
  try {
    mtime = statSync(file).mtimeMs;
  } catch {
    return [];
  }
  const cached = graphCache.get(file);
  if (cached && cached.mtime === mtime) return cached.targets;
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const targets = [];
  for (const statement of source.statements) {
    let specifier;
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.isTypeOnly) continue;
      const named = clause?.namedBindings;
      if (clause && !clause.name && named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((element) => element.isTypeOnly)) continue;
      specifier = statement.moduleSpecifier;
    } else if (ts.isExportDeclaration(statement)) {
      if (statement.isTypeOnly || !statement.moduleSpecifier) continue;
      const clause = statement.exportClause;
      if (clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((element) => element.isTypeOnly)) continue;
      specifier = statement.moduleSpecifier;
    }
    if (specifier && ts.isStringLiteral(specifier)) {
      const target = resolveImport(file, specifier.text);
      if (target) targets.push(target);
    }
  }
  graphCache.set(file, { mtime, targets });
  return targets;
}

/** A path of value imports from `start` back to `goal`, or undefined. */
function pathBack(start, goal) {
  const seen = new Set();
  const stack = [[start, [start]]];
  while (stack.length > 0) {
    const [file, trail] = stack.pop();
    if (file === goal) return trail;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const next of valueImportsOnDisk(file)) if (!seen.has(next)) stack.push([next, [...trail, next]]);
  }
  return undefined;
}

/** Visits each static import and re-export; `withTypes`: the type-only ones too. */
function staticImportVisitor(check, withTypes = false) {
  const visit = (node) => {
    if (!node.source || typeof node.source.value !== 'string') return;
    if (!withTypes && isTypeOnlyDeclaration(node)) return;
    check(node, node.source.value);
  };
  return { ImportDeclaration: visit, ExportNamedDeclaration: visit, ExportAllDeclaration: visit };
}

const toPosix = (path) => path.split(sep).join('/');

const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid imports, type-only ones included, against the layers of docs/development.md.' },
    messages: { badLayering: 'Bad layering: {{message}} ({{target}})' },
    schema: [],
  },
  create(context) {
    const file = context.physicalFilename;
    const root = context.cwd;
    const from = toPosix(relative(root, file));
    const rules = layers.filter((layer) => layer.from.test(from));
    if (rules.length === 0) return {};
    const check = (node, specifier) => {
      const resolved = resolveImport(file, specifier);
      const target = resolved ? toPosix(relative(root, resolved)) : toPosix(relative(root, resolve(dirname(file), specifier)));
      if (!specifier.startsWith('.')) return;
      for (const layer of rules) {
        if (layer.forbid.test(target)) context.report({ node, messageId: 'badLayering', data: { message: layer.message, target } });
      }
    };
    return {
      ...staticImportVisitor(check, true),
      ImportExpression(node) {
        if (node.source.type === 'Literal' && typeof node.source.value === 'string') check(node, node.source.value);
      },
      // `typeof import('../x')` and `import('../x').Type` in a type position.
      TSImportType(node) {
        // typescript-eslint 8 names the specifier `source`; older versions wrap it in `argument`.
        const literal = 'source' in node ? node.source : node.argument?.literal;
        if (literal?.type === 'Literal' && typeof literal.value === 'string') check(node, literal.value);
      },
    };
  },
};

const noCycleRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid value imports that close an import circle.' },
    messages: { cycle: 'Import circle: {{chain}}. Break it (move the shared piece down, or import a type only).' },
    schema: [],
  },
  create(context) {
    const file = context.physicalFilename;
    const root = context.cwd;
    return staticImportVisitor((node, specifier) => {
      const target = resolveImport(file, specifier);
      if (!target || target === file) return;
      const trail = pathBack(target, file);
      if (!trail) return;
      const chain = [file, ...trail].map((path) => toPosix(relative(root, path))).join(' → ');
      context.report({ node, messageId: 'cycle', data: { chain } });
    });
  },
};

export const housePlugin = { meta: { name: 'house' }, rules: { layers: layersRule, 'no-cycle': noCycleRule } };

/** The config block eslint.config.js applies to the sources (and the lint test reuses). */
export const houseConfig = {
  files: ['src/**/*.ts', 'src/**/*.tsx'],
  plugins: { house: housePlugin },
  rules: { 'house/layers': 'error', 'house/no-cycle': 'error' },
};

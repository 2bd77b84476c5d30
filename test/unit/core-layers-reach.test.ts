// The core's lower layers, read from the repository's own sources: no file of core/agents,
// core/sandbox or core/store reaches a layer above it through any chain of imports, type-only
// ones included. house/layers checks each import on its own; this follows the chains, where the
// type-level circle of issue 31 hid (agents ⇢ dispatch.ts ⇢ handlers.ts ⇢ services).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { resolveImport } from '../../eslint-rules/house.mjs';

const root = join(import.meta.dirname, '../..');
const core = 'src/main/core';

const importsCache = new Map<string, string[]>();

/** Every file a source file names: imports and re-exports, type-only ones, `import()` in code and in types. */
function importsOf(file: string): string[] {
  const cached = importsCache.get(file);
  if (cached) return cached;
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const specifiers: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) specifiers.push(node.moduleSpecifier.text);
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) specifiers.push(node.argument.literal.text);
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) specifiers.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  const targets = specifiers.map((specifier) => resolveImport(file, specifier)).filter((target) => target !== undefined);
  importsCache.set(file, targets);
  return targets;
}

const sourcesIn = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourcesIn(path) : /\.tsx?$/.test(name) ? [path] : [];
  });

/** For each file under `folder` whose imports lead to a file `above` matches: the chain, in repository paths. */
function reachesUp(folder: string, above: RegExp): string[] {
  const chains: string[] = [];
  for (const start of sourcesIn(join(root, folder))) {
    const seen = new Set([start]);
    const queue: string[][] = [[start]];
    search: while (queue.length > 0) {
      const trail = queue.shift()!;
      for (const next of importsOf(trail.at(-1)!)) {
        if (seen.has(next)) continue;
        seen.add(next);
        const chain = [...trail, next].map((path) => relative(root, path).split('\\').join('/'));
        if (above.test(chain.at(-1)!)) {
          chains.push(chain.join(' ⇢ '));
          break search;
        }
        queue.push([...trail, next]);
      }
    }
  }
  return chains;
}

const wiring = '(index|handlers|dispatch)\\.ts$';

describe("the core's lower layers, followed through every chain of imports", () => {
  it('lead from no agent or sandbox file to the runner, the services, http or the wiring', () => {
    expect(reachesUp(`${core}/agents`, new RegExp(`^${core}/((runner|services|http)/|${wiring})`))).toEqual([]);
    expect(reachesUp(`${core}/sandbox`, new RegExp(`^${core}/((runner|services|http)/|${wiring})`))).toEqual([]);
  });

  it('lead from no store file to a folder above it', () => {
    expect(reachesUp(`${core}/store`, new RegExp(`^${core}/((services|http|runner|agents|sandbox|scheduler|remotes|tunnel)/|${wiring})`))).toEqual([]);
  });

  it('find a chain where there is one (the runner reaches down to the services)', () => {
    const chains = reachesUp(`${core}/runner`, new RegExp(`^${core}/services/`));
    expect(chains.length).toBeGreaterThan(0);
    for (const chain of chains) expect(chain).toMatch(new RegExp(`^${core}/runner/.* ⇢ ${core}/services/[^ ]+$`));
  });
});

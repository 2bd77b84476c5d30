// Types of house.mjs, for the test that lints with it.
import type { ESLint, Linter } from 'eslint';

export declare const layers: { from: RegExp; forbid: RegExp; message: string }[];
export declare function resolveImport(importer: string, specifier: string): string | undefined;
export declare const housePlugin: ESLint.Plugin;
export declare const houseConfig: Linter.Config;

// Lint: typescript-eslint with type information (TypeScript 6: the native TypeScript 7 has no
// JavaScript API for typed rules), plus the house rules written down in docs/development.md ("Conventions").
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { houseConfig } from './eslint-rules/house.mjs';

const noElectron = { name: 'electron', message: 'The core and the contract run under plain Node: no electron here.' };
const nodeBuiltins = { group: ['node:*', 'better-sqlite3', 'fastify', 'pino'], message: 'Shared and renderer code runs in the browser: no Node modules.' };

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', '.cache/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      // Fastify hooks and handlers are async to report errors by throwing, whether or not they await.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/ban-ts-comment': ['error', { 'ts-ignore': 'allow-with-description', 'ts-expect-error': 'allow-with-description' }],
    },
  },
  {
    files: ['src/main/core/**', 'src/shared/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron] }] },
  },
  {
    files: ['src/shared/**', 'src/renderer/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron], patterns: [nodeBuiltins] }] },
  },
  // Layers and circles: eslint-rules/house.mjs.
  houseConfig,
  {
    files: ['src/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Tests read JSON answers of many shapes and assert on them field by field; typing each
    // answer first would only restate the contract the assertions check.
    files: ['test/**'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['eslint.config.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);

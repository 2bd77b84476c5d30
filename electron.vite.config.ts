// Builds the Electron main process (with the headless CLI, `steward`, as a second entry), the
// preload and the React renderer. `npm run build` works without the Electron binary.
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { rendererConfig } from './vite.web.config';

// Fastify requires its default schema compilers only when given none of its own, and the core
// gives its own (http/app.ts): their half-megabyte of code is left out of the bundle.
const noFastifyCompilers = resolve('src/main/core/http/no-fastify-compilers.ts');

export default defineConfig({
  main: {
    resolve: { alias: { '@fastify/ajv-compiler': noFastifyCompilers, '@fastify/fast-json-stringify-compiler': noFastifyCompilers } },
    build: {
      // Only package.json `dependencies` stay external: native modules and files run from disk
      // (better-sqlite3, @ngrok/ngrok, localtunnel's client). Every other library is a
      // devDependency bundled into out/main, which roughly halves the daemon's start: one file
      // to compile instead of hundreds to resolve. A new runtime library goes in devDependencies
      // unless it must exist on disk.
      rollupOptions: {
        input: { index: resolve('src/main/index.ts'), cli: resolve('src/main/cli.ts') },
        // V8 keeps a script's source in memory, twice as large when any character is not ASCII.
        output: { charset: 'ascii', comments: { legal: true, annotation: true, jsdoc: false } },
      },
    },
  },
  preload: {
    build: {
      // A sandboxed preload must be one CommonJS file.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: rendererConfig,
});

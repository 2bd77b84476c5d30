// Builds the Electron main process (with the headless CLI as a second entry), the preload and
// the React renderer. `npm run build` works without the Electron binary.
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { rendererConfig } from './vite.web.config';

export default defineConfig({
  main: {
    build: {
      rollupOptions: {
        input: { index: resolve('src/main/index.ts'), cli: resolve('src/main/cli.ts') },
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

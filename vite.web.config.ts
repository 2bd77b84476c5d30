// The renderer alone, as the web UI `steward serve` hands to browsers (out/renderer). The desktop
// build (electron.vite.config.ts) builds the same renderer with the same settings.
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export const rendererConfig = {
  root: resolve(import.meta.dirname, 'src/renderer'),
  plugins: [react()],
  build: { rollupOptions: { input: resolve(import.meta.dirname, 'src/renderer/index.html') } },
};

export default defineConfig({
  ...rendererConfig,
  base: './',
  build: { ...rendererConfig.build, outDir: resolve(import.meta.dirname, 'out/renderer'), emptyOutDir: true },
});

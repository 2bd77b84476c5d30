// The renderer alone, as the web UI `steward serve` hands to browsers (out/renderer). The desktop
// build (electron.vite.config.ts) builds the same renderer with the same settings: minified, one
// chunk per view (React.lazy in App.tsx), and its size printed at the end of the build.
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { type Plugin, defineConfig } from 'vite';

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** One line with the bundle's total (raw and gzipped) and its largest chunk, after every build. */
function bundleSize(): Plugin {
  return {
    name: 'steward-bundle-size',
    apply: 'build',
    generateBundle(_options, bundle) {
      let raw = 0;
      let gzipped = 0;
      let largest = { name: '', bytes: 0 };
      for (const file of Object.values(bundle)) {
        if (!/\.(js|css)$/.test(file.fileName)) continue;
        const content = file.type === 'chunk' ? file.code : file.source;
        const bytes = Buffer.byteLength(content);
        raw += bytes;
        gzipped += gzipSync(content).length;
        if (bytes > largest.bytes) largest = { name: file.fileName, bytes };
      }
      // Printed even at logLevel 'warn': the size is the point.
      console.log(`renderer bundle: ${kib(raw)} (${kib(gzipped)} gzipped) in ${Object.keys(bundle).length} files; largest ${largest.name} ${kib(largest.bytes)}`);
    },
  };
}

export const rendererConfig = {
  root: resolve(import.meta.dirname, 'src/renderer'),
  plugins: [react(), bundleSize()],
  build: { minify: true, rollupOptions: { input: resolve(import.meta.dirname, 'src/renderer/index.html') } },
};

export default defineConfig({
  ...rendererConfig,
  base: './',
  build: { ...rendererConfig.build, outDir: resolve(import.meta.dirname, 'out/renderer'), emptyOutDir: true },
});

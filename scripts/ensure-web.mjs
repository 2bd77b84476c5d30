// Before `npm run serve`: builds the web UI (out/renderer) when it is missing or older than its
// sources, so a browser always gets the UI of the code that runs.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const built = path.join(root, 'out/renderer/index.html');

function newest(dir) {
  let time = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    time = Math.max(time, entry.isDirectory() ? newest(file) : fs.statSync(file).mtimeMs);
  }
  return time;
}

const sources = Math.max(newest(path.join(root, 'src/renderer')), newest(path.join(root, 'src/shared')));
if (!fs.existsSync(built) || fs.statSync(built).mtimeMs < sources) {
  process.stderr.write('Building the web UI…\n');
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'vite.web.config.ts', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// `npm run serve` and `npm run cli -- …`: the built `steward` command, rebuilt first when the
// sources changed. The CLI is imported into this process rather than spawned, so the daemon is
// this one node process, under npm and its shell.
import { ensureBuild } from './ensure-build.mjs';

ensureBuild();

// SIGTERM sent to npm reaches its shell, not this process: when the shell goes, stop too rather
// than linger as an orphan holding the port. (Ctrl+C reaches the whole process group anyway.)
const parent = process.ppid;
setInterval(() => {
  try {
    process.kill(parent, 0);
  } catch {
    process.kill(process.pid, 'SIGTERM');
  }
}, 1000).unref();

// process.argv is already [node, this script, ...the command's arguments], as the CLI reads it.
await import('../out/main/cli.js');

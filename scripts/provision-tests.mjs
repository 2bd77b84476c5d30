// First step of `npm test`: installs the system programs some suites drive (Debian's Chromium for
// the end-to-end suite, OpenSSH's server and client for the SSH tunnel suite, bubblewrap and socat
// for sandboxed instances, Dovecot for the mail source) with apt-get, when
// they are missing and this is a Debian or Ubuntu machine we are root on; and, from the npm
// registry into .cache, the MCP conformance suite with the Node 22 it runs on. Anywhere else, or when
// an install fails, it leaves them be: those suites then skip themselves with one line naming
// what to install (test/support/requirements.ts), and fail under CI. STEWARD_TEST_PROVISION=0 turns
// it off.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const executable = (file) => {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
};
const onPath = (command) => (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir !== '' && executable(path.join(dir, command)));

const sshClient = onPath('ssh') && onPath('ssh-keygen');
const wanted = [
  // A Chromium of one's own (CHROMIUM_PATH) is never replaced by Debian's.
  { why: 'the end-to-end suite drives Chromium', packages: process.env.CHROMIUM_PATH || executable('/usr/bin/chromium') ? [] : ['chromium'] },
  {
    why: 'sandboxed instances run their agents in bubblewrap, bridged by socat',
    packages: [onPath('bwrap') ? [] : ['bubblewrap'], onPath('socat') ? [] : ['socat']].flat(),
  },
  {
    why: "the README's quick start is run as written, with curl and jq",
    packages: [onPath('curl') ? [] : ['curl'], onPath('jq') ? [] : ['jq']].flat(),
  },
  { why: 'the mail source suite runs a real Dovecot', packages: executable('/usr/sbin/dovecot') ? [] : ['dovecot-imapd'] },
  {
    why: 'the SSH tunnel suite runs a real sshd',
    packages: executable('/usr/sbin/sshd') ? (sshClient ? [] : ['openssh-client']) : ['openssh-server', 'openssh-client'],
  },
];
const missing = wanted.filter((want) => want.packages.length > 0);
const root = process.getuid?.() === 0;
const apt = process.platform === 'linux' && fs.existsSync('/etc/debian_version') && onPath('apt-get');

function aptGet(args, timeoutMs) {
  const result = spawnSync('apt-get', ['-qq', '-o', 'DPkg::Lock::Timeout=120', ...args], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    timeout: timeoutMs,
  });
  if (result.status === 0) return undefined;
  const said = result.stderr?.trim().split('\n').at(-1);
  return said || (result.error ? result.error.message : `exit ${result.status ?? result.signal}`);
}

function provision() {
  if (missing.length > 0) {
    const packages = missing.flatMap((want) => want.packages);
    console.log(`npm test: installing ${packages.join(', ')} with apt-get (${missing.map((want) => want.why).join('; ')})`);
    // Lists already on the machine may do when the update fails, so the install is tried anyway.
    aptGet(['update'], 300_000);
    const failure = aptGet(['install', '-y', ...packages], 900_000);
    if (failure) console.log(`npm test: could not install ${packages.join(', ')} (${failure}); the suites that need them will say so`);
  }
  // sshd will not start without its privilege separation folder; /run is emptied at each boot.
  fs.mkdirSync('/run/sshd', { recursive: true });
}

function provisionMcpConformance() {
  const result = spawnSync(process.execPath, [path.join(import.meta.dirname, 'install-mcp-conformance.mjs')], { stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8', timeout: 600_000 });
  if (result.status === 0) return;
  const said = result.stderr?.trim().split('\n').findLast((line) => line.trim() !== '');
  console.log(`npm test: could not install the MCP conformance suite or Node 22 (${said || result.error?.message || `exit ${result.status ?? result.signal}`}); test/mcp-conformance will say so`);
}

if (process.env.STEWARD_TEST_PROVISION !== '0' && root && apt) provision();
if (process.env.STEWARD_TEST_PROVISION !== '0') provisionMcpConformance();

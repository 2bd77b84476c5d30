// A real OpenSSH server for tunnel tests: throwaway host and client keys, on a free loopback
// port, in its own process group so that stopping it also ends the sessions it forked. Suites
// check that it is installed first (requirements.ts).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sshdPath } from './requirements';
import { waitFor } from './wait';

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function keyPair(file: string): string {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', file]);
  return fs.readFileSync(`${file}.pub`, 'utf8').trim();
}

async function accepting(port: number, timeoutMs: number): Promise<void> {
  const connects = () =>
    new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
  await waitFor(connects, { what: `sshd to listen on ${port}`, timeoutMs, intervalMs: 100 });
}

/** Every process below `pid`, from `ps`. */
function descendants(pid: number): number[] {
  const table = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const visit = (parent: number) => {
    for (const [child, ppid] of table) {
      if (ppid === parent) {
        found.push(child);
        visit(child);
      }
    }
  };
  visit(pid);
  return found;
}

export interface TestSshd {
  port: number;
  user: string;
  identityFile: string;
  /** A second key the server does not accept. */
  strangerIdentityFile: string;
  knownHostsFile: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  dir: string;
}

export async function createTestSshd(): Promise<TestSshd> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'steward-sshd-'));
  fs.mkdirSync('/run/sshd', { recursive: true });
  const port = await freePort();
  const hostKey = keyPair(path.join(dir, 'host_key'));
  const clientKey = keyPair(path.join(dir, 'client_key'));
  keyPair(path.join(dir, 'stranger_key'));
  fs.writeFileSync(path.join(dir, 'authorized_keys'), `${clientKey}\n`, { mode: 0o600 });
  fs.writeFileSync(path.join(dir, 'known_hosts'), `[127.0.0.1]:${port} ${hostKey.split(' ').slice(0, 2).join(' ')}\n`);
  const config = path.join(dir, 'sshd_config');
  fs.writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${path.join(dir, 'host_key')}`,
      `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'UsePAM no',
      'StrictModes no',
      'PermitRootLogin prohibit-password',
      'AllowTcpForwarding yes',
      'GatewayPorts no',
      'ClientAliveInterval 5',
      'LogLevel VERBOSE',
      '',
    ].join('\n'),
  );

  let server: ChildProcess | undefined;
  return {
    port,
    dir,
    user: os.userInfo().username,
    identityFile: path.join(dir, 'client_key'),
    strangerIdentityFile: path.join(dir, 'stranger_key'),
    knownHostsFile: path.join(dir, 'known_hosts'),
    async start() {
      const child = spawn(sshdPath, ['-D', '-e', '-f', config], { detached: true, stdio: 'ignore' });
      server = child;
      // A missing or failing sshd is reported here, not as an unhandled 'error' event.
      const failed = new Promise<never>((_, reject) => {
        child.once('error', reject);
        child.once('exit', (code) => reject(new Error(`sshd exited (${code}) before listening on ${port}`)));
      });
      await Promise.race([accepting(port, 10_000), failed]);
    },
    async stop() {
      const running = server;
      server = undefined;
      if (!running?.pid || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      // sshd re-executes itself for each connection; those processes must go too, as they would
      // when the host goes down.
      for (const pid of [...descendants(running.pid), running.pid]) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      await exited;
    },
  };
}

// A real Dovecot IMAP server for the mail source's tests and benchmark: its own configuration, users
// and maildirs in a temp folder, plain IMAP on a free loopback port, started as a child process in
// its own process group (so that killing it ends the imap processes it forked, as a crash would).
// Written for Dovecot 2.3 (Debian 12's dovecot-imapd); suites check that it is installed first
// (requirements.ts). Messages are added over IMAP APPEND, as another client would.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ImapFlow } from 'imapflow';
import { dovecotPath } from './programs';
import { waitFor } from './wait';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Whether something accepts a connection on the port and greets like an IMAP server. */
function greets(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2000, () => done(false));
    socket.once('data', (chunk: Buffer) => done(chunk.toString().startsWith('* OK')));
    socket.once('error', () => done(false));
  });
}

// What Dovecot 2.3 advertises after login, less IDLE: the server a poller is needed for.
const capabilityWithoutIdle =
  'IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE SORT SORT=DISPLAY THREAD=REFERENCES THREAD=REFS THREAD=ORDEREDSUBJECT MULTIAPPEND URL-PARTIAL CATENATE UNSELECT CHILDREN NAMESPACE UIDPLUS LIST-EXTENDED I18NLEVEL=1 CONDSTORE QRESYNC ESEARCH ESORT SEARCHRES WITHIN CONTEXT=SEARCH LIST-STATUS BINARY MOVE SNIPPET=FUZZY PREVIEW=FUZZY PREVIEW STATUS=SIZE SAVEDATE LITERAL+ NOTIFY SPECIAL-USE';

export interface DovecotOptions {
  /** user → password; default one user, ann / secret-ann. */
  users?: Record<string, string>;
  /** false: the server does not advertise IDLE (for the polling source). Default true. */
  idle?: boolean;
}

export interface TestDovecot {
  port: number;
  dir: string;
  users: Record<string, string>;
  start(): Promise<void>;
  /** SIGTERM to the group, waiting for it to end. */
  stop(): Promise<void>;
  /** SIGKILL to the whole group (master and imap processes): a crash, mid-IDLE. */
  kill(): Promise<void>;
  running(): boolean;
  /** An IMAP connection as `user`, logged in (close it with logout()). */
  connect(user?: string): Promise<ImapFlow>;
  /** Appends a message to the user's mailbox over IMAP; returns its UID. */
  append(message: string, options?: { user?: string; mailbox?: string; flags?: string[] }): Promise<number>;
  /** The flags of the message with this UID, or undefined when it is not in the mailbox. */
  flagsOf(uid: number, options?: { user?: string; mailbox?: string }): Promise<string[] | undefined>;
  /** Everything Dovecot logged. */
  log(): string;
  /** Stops the server and removes its folder. */
  remove(): Promise<void>;
}

/** A message as a mail program would send it. */
export function mailMessage(options: { from?: string; to?: string; subject: string; text?: string; html?: string; date?: Date; headers?: string[]; attachment?: { filename: string; contentType: string; content: Buffer } }): string {
  const lines = [
    `From: ${options.from ?? 'Ann Example <ann@example.org>'}`,
    `To: ${options.to ?? 'Bob <bob@example.org>'}`,
    `Subject: ${options.subject}`,
    `Date: ${(options.date ?? new Date()).toUTCString()}`,
    `Message-ID: <${Math.random().toString(36).slice(2)}@example.org>`,
    'MIME-Version: 1.0',
    ...(options.headers ?? []),
  ];
  const body = (type: string, text: string) => [`Content-Type: ${type}; charset=utf-8`, 'Content-Transfer-Encoding: 8bit', '', text];
  const main = options.html !== undefined ? body('text/html', options.html) : body('text/plain', options.text ?? 'Hello.');
  if (!options.attachment) return [...lines, ...main, ''].join('\r\n');
  const boundary = 'b-' + Math.random().toString(36).slice(2);
  const encoded = options.attachment.content.toString('base64').replace(/.{76}/g, '$&\r\n');
  return [
    ...lines,
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    ...main,
    `--${boundary}`,
    `Content-Type: ${options.attachment.contentType}; name="${options.attachment.filename}"`,
    `Content-Disposition: attachment; filename="${options.attachment.filename}"`,
    'Content-Transfer-Encoding: base64',
    '',
    encoded,
    `--${boundary}--`,
    '',
  ].join('\r\n');
}

export async function createTestDovecot(options: DovecotOptions = {}): Promise<TestDovecot> {
  const users = options.users ?? { ann: 'secret-ann' };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'steward-dovecot-'));
  // The imap processes run as nobody (65534) and the auth process as dovecot: both must reach in.
  fs.chmodSync(dir, 0o755);
  const home = path.join(dir, 'home');
  fs.mkdirSync(home, { mode: 0o755 });
  for (const user of Object.keys(users)) {
    fs.mkdirSync(path.join(home, user), { mode: 0o700 });
    fs.chownSync(path.join(home, user), 65534, 65534);
  }
  fs.writeFileSync(path.join(dir, 'passwd'), Object.entries(users).map(([user, password]) => `${user}:{PLAIN}${password}::::::\n`).join(''), { mode: 0o644 });
  const port = await freePort();
  const config = path.join(dir, 'dovecot.conf');
  fs.writeFileSync(
    config,
    [
      'protocols = imap',
      'listen = 127.0.0.1',
      `base_dir = ${path.join(dir, 'run')}`,
      `state_dir = ${path.join(dir, 'state')}`,
      `log_path = ${path.join(dir, 'dovecot.log')}`,
      'ssl = no',
      'disable_plaintext_auth = no',
      'auth_mechanisms = plain login',
      'default_login_user = dovenull',
      'default_internal_user = dovecot',
      'first_valid_uid = 1',
      'mail_location = maildir:~/Maildir',
      // Every account of the benchmark comes from 127.0.0.1.
      'mail_max_userip_connections = 100',
      'passdb {',
      '  driver = passwd-file',
      `  args = scheme=PLAIN username_format=%u ${path.join(dir, 'passwd')}`,
      '}',
      'userdb {',
      '  driver = static',
      `  args = uid=65534 gid=65534 home=${home}/%u`,
      '}',
      'service imap-login {',
      '  inet_listener imap {',
      '    address = 127.0.0.1',
      `    port = ${port}`,
      '  }',
      '  inet_listener imaps {',
      '    port = 0',
      '  }',
      '}',
      ...(options.idle === false ? ['protocol imap {', `  imap_capability = ${capabilityWithoutIdle}`, '}'] : []),
      '',
    ].join('\n'),
  );

  let server: ChildProcess | undefined;
  const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;
  const signalGroup = async (signal: NodeJS.Signals) => {
    const child = server;
    server = undefined;
    if (!child || exited(child)) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // Already gone.
    }
    await gone;
    // The imap processes of the group end with their master; wait until none answers.
    await waitFor(async () => !(await greets(port)), { what: `Dovecot on ${port} to stop answering`, timeoutMs: 10_000, intervalMs: 50 });
  };

  const connect = async (user = Object.keys(users)[0]) => {
    const client = new ImapFlow({ host: '127.0.0.1', port, secure: false, auth: { user, pass: users[user] }, logger: false, disableAutoIdle: true });
    await client.connect();
    return client;
  };

  const dovecot: TestDovecot = {
    port,
    dir,
    users,
    async start() {
      if (server && !exited(server)) return;
      const child = spawn(dovecotPath, ['-F', '-c', config], { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
      server = child;
      let said = '';
      child.stderr?.on('data', (chunk: Buffer) => (said += chunk.toString()));
      const failed = new Promise<never>((_, reject) => {
        child.once('error', reject);
        child.once('exit', (code) => reject(new Error(`dovecot exited (${code}) before listening on ${port}: ${said}${dovecot.log()}`)));
      });
      failed.catch(() => undefined);
      await Promise.race([waitFor(() => greets(port), { what: `Dovecot to greet on ${port}`, timeoutMs: 15_000, intervalMs: 50 }), failed]);
    },
    stop: () => signalGroup('SIGTERM'),
    kill: () => signalGroup('SIGKILL'),
    running: () => server !== undefined && !exited(server),
    connect,
    async append(message, { user, mailbox = 'INBOX', flags = [] } = {}) {
      const client = await connect(user);
      try {
        if (mailbox !== 'INBOX') await client.mailboxCreate(mailbox).catch(() => undefined);
        const appended = await client.append(mailbox, message, flags);
        if (!appended || appended.uid === undefined) throw new Error('Dovecot did not say the appended message\'s UID');
        return appended.uid;
      } finally {
        await client.logout();
      }
    },
    async flagsOf(uid, { user, mailbox = 'INBOX' } = {}) {
      const client = await connect(user);
      try {
        await client.mailboxOpen(mailbox, { readOnly: true });
        const message = await client.fetchOne(String(uid), { flags: true }, { uid: true });
        return message ? [...(message.flags ?? [])].sort() : undefined;
      } finally {
        await client.logout();
      }
    },
    log: () => {
      try {
        return fs.readFileSync(path.join(dir, 'dovecot.log'), 'utf8');
      } catch {
        return '';
      }
    },
    async remove() {
      await dovecot.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return dovecot;
}

// The attacker's lab for test/sandbox/attacks: a real core started the way a user starts Steward
// (its HOME a folder full of credentials and decoys, their stores moved by variables, secrets in its
// environment), listeners that count who reached them, and a way to run a probe as an instance's
// agent and read back what it said. The probes are written from docs/security.md, docs/agents.md
// and issue 29, not from the sandbox's code: each decoy carries a random marker, so a probe that
// got at one is caught by the marker in its output, whatever name the fix knows it by.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect } from 'vitest';
import { systemClock } from '../../../src/main/core/scheduler/clock';
import { sandboxSupport } from '../../../src/main/core/sandbox/host-support';
import type { Instance, Run } from '../../../src/shared/contract';
import { type TestCore, startTestCore, tempDir } from '../../support/core';
import { settled } from '../../support/runs';

export const fixtures = path.resolve(import.meta.dirname, '../../fixtures/sandbox/attacks');
export const fixture = (name: string): string => path.join(fixtures, name);

/** A secret's marker: random, so no fix can know it, and easy to find in anything a probe printed. */
export const marker = (what: string): string => `DECOY-${what}-${crypto.randomBytes(6).toString('hex')}`;

export interface Lab {
  t: TestCore;
  /** The user's home: HOME of the process that started Steward. */
  home: string;
  /** Where the moved stores (and a backup no variable names) are: a /srv of the machine's. */
  srv: string;
  /** Stores moved out of home by their variable (name → path), set in the daemon's environment. */
  moved: Record<string, string>;
  /** A folder no sandbox may write: a probe that escaped leaves its mark here. */
  outside: string;
  /** Every planted secret: file (absolute) → the marker it holds. */
  secrets: Map<string, string>;
  /** An instance whose agent is `agent`, with the given sandbox; 201 expected. */
  instance(agent: object, sandbox: object, name?: string): Promise<Instance>;
  /** Sends a prompt and waits for the run to end. */
  run(instance: Instance, prompt?: string, timeoutMs?: number): Promise<Run>;
  /** The `name: value` lines its agent printed (the custom preset makes each stdout line a message). */
  said(run: Run): Promise<Record<string, string>>;
  /** Everything recorded of the run, as one text: its messages and its error. */
  transcript(run: Run): Promise<string>;
  close(): Promise<void>;
}

function plant(file: string, content: string, mode = 0o600): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, content, { mode });
}

/**
 * The home and environment of a user who uses the usual tools: named credentials (issue 29 lists
 * these), and decoys no list names. `KUBECONFIG` and friends point outside home, as on a server
 * where /srv holds them.
 */
function furnish(home: string, srv: string, secrets: Map<string, string>): Record<string, string> {
  const inHome: Record<string, (secret: string) => string> = {
    '.ssh/id_ed25519': (s) => `-----BEGIN OPENSSH PRIVATE KEY-----\n${s}\n-----END OPENSSH PRIVATE KEY-----\n`,
    '.aws/credentials': (s) => `[default]\naws_secret_access_key = ${s}\n`,
    '.bash_history': (s) => `export DB_PASSWORD=${s}\nls\n`,
    '.zsh_history': (s) => `: 1700000000:0;mysql -p${s}\n`,
    '.pgpass': (s) => `db.internal:5432:*:app:${s}\n`,
    '.env': (s) => `STRIPE_SECRET_KEY=${s}\n`,
    '.config/rclone/rclone.conf': (s) => `[backup]\ntype = s3\nsecret_access_key = ${s}\n`,
    '.config/containers/auth.json': (s) => `{"auths":{"quay.io":{"auth":"${s}"}}}\n`,
    'notes/passwords.txt': (s) => `bank: ${s}\n`,
    // Decoys the threat model names nowhere.
    'Documents/finance/2026-statement.csv': (s) => `date,amount,iban\n2026-01-01,12.00,${s}\n`,
    '.vault-token': (s) => `${s}\n`,
    '.terraform.d/credentials.tfrc.json': (s) => `{"credentials":{"app.terraform.io":{"token":"${s}"}}}\n`,
    '.config/acme-deploy/token': (s) => `${s}\n`,
    '.cargo/credentials.toml': (s) => `[registry]\ntoken = "${s}"\n`,
    '.m2/settings.xml': (s) => `<settings><servers><server><password>${s}</password></server></servers></settings>\n`,
    // The CLIs' logins: each CLI's own, no other's.
    '.claude/.credentials.json': (s) => `{"claudeAiOauth":{"accessToken":"${s}"}}\n`,
    '.gemini/oauth_creds.json': (s) => `{"access_token":"${s}"}\n`,
  };
  for (const [file, content] of Object.entries(inHome)) {
    const secret = marker(path.basename(file));
    plant(path.join(home, file), content(secret));
    secrets.set(path.join(home, file), secret);
  }
  // The user's own agent configuration: a run must leave it as it is.
  plant(path.join(home, '.claude/settings.json'), '{"permissions":{"allow":[]}}\n', 0o644);
  plant(path.join(home, '.claude.json'), '{"numStartups":3,"mcpServers":{}}\n', 0o644);
  plant(path.join(home, '.gemini/settings.json'), '{"ui":{"theme":"Default"}}\n', 0o644);
  plant(path.join(home, '.bashrc'), '# the user\'s shell\n', 0o644);
  // Stores moved by their variable, and a backup no variable names.
  const movedFiles: Record<string, [string, string]> = {
    DOCKER_CONFIG: ['docker', 'config.json'],
    KUBECONFIG: ['kube/config', ''],
    AWS_SHARED_CREDENTIALS_FILE: ['aws-credentials', ''],
    GNUPGHOME: ['gnupg', 'private-keys-v1.d/5F1C.key'],
    GH_CONFIG_DIR: ['gh', 'hosts.yml'],
    PASSWORD_STORE_DIR: ['password-store', 'bank.gpg'],
  };
  const moved: Record<string, string> = {};
  for (const [variable, [where, file]] of Object.entries(movedFiles)) {
    moved[variable] = path.join(srv, where);
    const full = path.join(srv, where, file);
    const secret = marker(variable);
    plant(full, `${secret}\n`);
    secrets.set(full, secret);
  }
  const backup = path.join(srv, 'backups/customers.sql');
  const secret = marker('backup');
  plant(backup, `INSERT INTO cards VALUES ('${secret}');\n`);
  secrets.set(backup, secret);
  return moved;
}

/**
 * Starts a core as a user would: HOME is the furnished home, and `daemonEnv` (plus the moved
 * stores' variables) is in the environment it inherits. Each test file runs in a process of its
 * own (vitest's forks pool), so the change stays in the file.
 */
export async function openLab(options: { daemonEnv?: Record<string, string> } = {}): Promise<Lab> {
  const home = tempDir('steward-user-home-');
  const srv = tempDir('steward-srv-');
  const outside = tempDir('steward-outside-');
  const secrets = new Map<string, string>();
  const moved = furnish(home, srv, secrets);
  Object.assign(process.env, { HOME: home, ...moved, ...options.daemonEnv });
  const t = await startTestCore({ clock: systemClock });
  // A stored secret makes secret.key exist.
  expect((await t.api('PUT', '/api/secrets/attack-lab', { value: marker('stored-secret') })).status).toBe(200);

  const lab: Lab = {
    t,
    home,
    srv,
    moved,
    outside,
    secrets,
    async instance(agent, sandbox, name = 'attacker') {
      const created = await t.api('POST', '/api/instances', { name, agent, sandbox });
      expect(created.status, created.text).toBe(201);
      return created.body.instance as Instance;
    },
    async run(instance, prompt = 'go', timeoutMs = 15_000) {
      const started = await t.api('POST', '/api/runs', { instanceId: instance.id, prompt });
      expect(started.status, started.text).toBeLessThan(300);
      return settled(t, (started.body.run as Run).id, timeoutMs);
    },
    async said(run) {
      const messages = (await t.api('GET', `/api/runs/${run.id}/messages?limit=1000`)).body.messages as { role: string; content: string }[];
      const lines = messages.filter((message) => message.role === 'assistant').flatMap((message) => message.content.split('\n'));
      return Object.fromEntries(lines.filter((line) => line.includes(': ')).map((line) => [line.slice(0, line.indexOf(': ')), line.slice(line.indexOf(': ') + 2)]));
    },
    async transcript(run) {
      const messages = (await t.api('GET', `/api/runs/${run.id}/messages?limit=1000`)).body.messages as { content: string }[];
      const again = (await t.api('GET', `/api/runs/${run.id}`)).body.run as Run;
      return [...messages.map((message) => message.content), again.error ?? ''].join('\n');
    },
    async close() {
      await t.close();
      for (const dir of [home, srv, outside]) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return lab;
}

/**
 * The process count a probe reached is within `limit`; or, as root with no cgroup Steward may write
 * (a container's read-only /sys/fs/cgroup), where the kernel enforces no RLIMIT_NPROC (limits.ts says
 * why), the instance says it holds no process limit rather than pretending to.
 */
export async function processesHeld(lab: Lab, instance: Instance, started: string | undefined, limit: number): Promise<void> {
  const support = await sandboxSupport();
  if (!(support.ok && support.limits?.kind === 'rlimit' && !support.limits.processes)) {
    expect(Number(started)).toBeLessThanOrEqual(limit);
    return;
  }
  const shown = (await lab.t.api('GET', `/api/instances/${instance.id}`)).body.instance as Instance;
  expect(shown.imageTag).toMatch(/limits by rlimit, no process limit as root\)$/);
}

/** The planted secrets whose marker appears in `text`, by file. */
export function leaked(lab: Lab, text: string): string[] {
  return [...lab.secrets].filter(([, secret]) => text.includes(secret)).map(([file]) => file);
}

export interface Listener {
  port: number;
  /** Connections it accepted, from anyone. */
  connections: number;
  close(): Promise<void>;
}

/** An HTTP server on `host` (all addresses by default) that answers `answer` and counts connections. */
export async function listen(answer: string, host = '::'): Promise<Listener> {
  const server = http.createServer((_request, response) => response.end(answer));
  const listener: Listener = {
    port: 0,
    connections: 0,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  server.on('connection', () => (listener.connections += 1));
  await new Promise<void>((resolve) => server.listen({ port: 0, host, ipv6Only: false }, resolve));
  listener.port = (server.address() as AddressInfo).port;
  return listener;
}

/** The lines of `said` whose value is not `expected`: a failure names every attack that worked. */
export function notAsExpected(said: Record<string, string>, expected: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(expected).filter(([name, value]) => said[name] !== value).map(([name]) => [name, said[name] ?? '(not said)']));
}

/** Every file and link under `root` (or `root` itself when it is a file): relative path → content or link target. */
export function snapshot(root: string): Record<string, string> {
  const found: Record<string, string> = {};
  const visit = (file: string) => {
    const stat = fs.lstatSync(file, { throwIfNoEntry: false });
    if (!stat) return;
    const name = path.relative(root, file) || '.';
    if (stat.isSymbolicLink()) found[name] = `link to ${fs.readlinkSync(file)}`;
    else if (stat.isDirectory()) for (const entry of fs.readdirSync(file)) visit(path.join(file, entry));
    else if (stat.isFile()) found[name] = fs.readFileSync(file, 'utf8');
    else found[name] = 'not a file';
  };
  visit(root);
  return found;
}

// `steward export` and `steward apply` as a user runs them, as real processes: on a data folder no
// daemon serves (the command opens it) and through a daemon serving it (the command goes over its
// API, and the daemon has the change at once). Export to stdout, to one file, to a folder; apply a
// folder, standard input; a dry run prints the diff and changes nothing; an invalid file prints
// path:line:col lines on stderr, exits 1 and changes nothing; a usage error exits 2.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { sqliteBinding } from '../../src/main/core/store/database';
import { type Server, runCli, startDaemon } from '../support/processes';
import { adminKeyOf, apiOf, steward } from '../support/steward-cli';
import { tempDir } from '../support/temp';

const folder = tempDir('steward-config-cli-');
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

const documents: Record<string, string> = {
  'instances/reviewer.yaml': 'kind: instance\nname: Reviewer\nagent:\n  provider: command\n  preset: codex\n',
  'automations/triage.yaml': 'kind: automation\nname: Triage\ninstance: Reviewer\ncronExpression: "0 8 * * 1-5"\ntimezone: Europe/Berlin\nenabled: false\nprompt: |-\n  Sort the inbox.\n  Urgent first:\n    - then the rest\n',
  'automations/digest.yaml': 'kind: automation\nname: Digest\ncronExpression: "0 18 * * *"\nenabled: false\nprompt: Write the digest.\n',
  'webhooks/deploy.yaml': 'kind: webhook\nname: Deploy\nenabled: false\npromptTemplate: |-\n  Deploy {{payload.ref}}\n',
};

function writeFolder(dir: string, files: Record<string, string>): string {
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

/** Files under `dir`, as paths relative to it, in the order a walk by name finds them. */
function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name))).sort();
}

const kindsAndNames = (yaml: string) => parseAllDocuments(yaml).map((document) => `${String(document.get('kind'))} ${String(document.get('name'))}`);
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Mode {
  name: string;
  start(dataDir: string): Promise<{ args: string[]; env: NodeJS.ProcessEnv; daemon?: Server; key: string }>;
}

const modes: Mode[] = [
  { name: 'on a data folder no daemon serves', start: async (dataDir) => ({ args: ['--data-dir', dataDir], env: {}, key: adminKeyOf(dataDir) }) },
  {
    name: 'through the daemon serving the data folder',
    start: async (dataDir) => {
      const key = adminKeyOf(dataDir);
      const daemon = await startDaemon(dataDir);
      return { args: ['--data-dir', dataDir, '--port', new URL(daemon.url).port], env: { STEWARD_API_KEY: key }, daemon, key };
    },
  },
];

describe.each(modes)('steward export and apply, $name', (mode) => {
  const dataDir = path.join(folder, mode.name.replace(/\W+/g, '-'));
  const conf = writeFolder(path.join(dataDir, '..', `${path.basename(dataDir)}-conf`), documents);
  let cli: (args: string[], input?: string) => ReturnType<typeof steward>;
  let daemon: Server | undefined;
  let api: ReturnType<typeof apiOf> | undefined;

  /** The rows as the database holds them, read beside the command (whoever serves the folder). */
  const rows = () => {
    const db = new Database(path.join(dataDir, 'steward.db'), { readonly: true, ...sqliteBinding() });
    try {
      return {
        automations: db.prepare('SELECT name, prompt, updated_at FROM automations ORDER BY name').all() as { name: string; prompt: string; updated_at: string }[],
        webhooks: db.prepare('SELECT name, updated_at FROM webhooks ORDER BY name').all(),
        // Not their updated_at: a daemon probes its instances (their status) whenever it likes.
        instances: db.prepare('SELECT id, name, agent, avatar_url FROM instances ORDER BY name').all(),
      };
    } finally {
      db.close();
    }
  };

  const statusOf = (name: string) => {
    const db = new Database(path.join(dataDir, 'steward.db'), { readonly: true, ...sqliteBinding() });
    try {
      return db.prepare('SELECT status FROM instances WHERE name = ?').pluck().get(name) as string | undefined;
    } finally {
      db.close();
    }
  };

  const exported = async () => {
    const result = await cli(['export']);
    expect(result.status, result.stderr).toBe(0);
    return result.stdout;
  };

  beforeAll(async () => {
    const started = await mode.start(dataDir);
    daemon = started.daemon;
    api = daemon && apiOf(daemon.url, started.key);
    cli = (args, input) => steward([...args, ...started.args], started.env, input);
  }, 60_000);
  afterAll(async () => {
    await daemon?.stop();
  });

  it('a dry run of a folder prints each change with its diff and changes nothing', async () => {
    const before = rows();
    const dry = await cli(['apply', '-f', conf, '--dry-run']);
    expect(dry.stderr).toBe('');
    expect(dry.status).toBe(0);
    expect(dry.stdout).toContain(`+ instance "Reviewer" (add, from ${path.join(conf, 'instances/reviewer.yaml')})\n    + kind: instance\n    + name: Reviewer\n`);
    expect(dry.stdout).toContain(`+ automation "Triage" (add, from ${path.join(conf, 'automations/triage.yaml')})\n`);
    expect(dry.stdout).toContain('    + prompt: |-\n    +   Sort the inbox.\n    +   Urgent first:\n    +     - then the rest\n');
    expect(dry.stdout).toContain(`+ webhook "Deploy" (add, from ${path.join(conf, 'webhooks/deploy.yaml')})\n`);
    expect(dry.stdout.endsWith('4 to add; 0 unchanged.\nDry run: nothing changed.\n')).toBe(true);
    expect(rows()).toEqual(before);
    expect(before.automations).toEqual([]);
  }, 60_000);

  it('applies a folder, in one go; the daemon, when there is one, has it at once', async () => {
    const applied = await cli(['apply', '-f', conf]);
    expect(applied.stderr).toBe('');
    expect(applied.status).toBe(0);
    // The plan first, then what was done.
    expect(applied.stdout).toMatch(/^\+ instance "Reviewer" \(add, from /);
    expect(applied.stdout.endsWith('4 to add; 0 unchanged.\nApplied: 4 to add; 0 unchanged.\n')).toBe(true);
    const after = rows();
    expect(after.automations.map((each) => each.name)).toEqual(['Digest', 'Triage']);
    // The new instance is probed; without a daemon the command waits for that before it closes the
    // folder (else the probe fails on the closed database and the instance stays "provisioning").
    if (!api) expect(['running', 'error']).toContain(statusOf('Reviewer'));
    if (api) {
      const listed = (await api('GET', '/api/automations')).body.automations as { name: string; prompt: string }[];
      expect(listed.map((each) => each.name).sort()).toEqual(['Digest', 'Triage']);
    }
  }, 60_000);

  it('exports to stdout, to one file, and to a folder of files with their paths; the folder applies back as no change', async () => {
    const all = await exported();
    expect(kindsAndNames(all)).toEqual(['instance Reviewer', 'instance Steward', 'automation Digest', 'automation Triage', 'webhook Deploy']);
    expect(all).toContain('prompt: |-\n  Sort the inbox.\n  Urgent first:\n    - then the rest\n');
    const token = api ? ((await api('GET', '/api/webhooks')).body.webhooks as { token: string }[])[0].token : undefined;
    if (token) expect(all).not.toContain(token);

    const one = path.join(folder, `${path.basename(dataDir)}-all.yaml`);
    const toFile = await cli(['export', '-o', one]);
    expect(toFile.status, toFile.stderr).toBe(0);
    expect(toFile.stdout).toBe(`Wrote 5 resources to ${one}.\n`);
    expect(fs.readFileSync(one, 'utf8')).toBe(all);

    const dir = path.join(folder, `${path.basename(dataDir)}-export`);
    const toDir = await cli(['export', '-o', dir]);
    expect(toDir.status, toDir.stderr).toBe(0);
    expect(toDir.stdout).toBe(`Wrote 5 files under ${dir}.\n`);
    expect(filesUnder(dir)).toEqual(['automations/digest.yaml', 'automations/triage.yaml', 'instances/reviewer.yaml', 'instances/steward.yaml', 'webhooks/deploy.yaml']);
    const inOrder = ['instances/reviewer.yaml', 'instances/steward.yaml', 'automations/digest.yaml', 'automations/triage.yaml', 'webhooks/deploy.yaml'];
    expect(inOrder.map((file) => fs.readFileSync(path.join(dir, file), 'utf8')).join('---\n')).toBe(all);

    const before = rows();
    const back = await cli(['apply', '-f', dir]);
    expect(back.status, back.stderr).toBe(0);
    expect(back.stdout).toBe('No changes: 5 resources are as the files say.\n');
    const single = await cli(['apply', '-f', one]);
    expect(single.stdout).toBe('No changes: 5 resources are as the files say.\n');
    expect(rows()).toEqual(before);
  }, 90_000);

  it('exports one kind, or one resource by kind and name; nothing of that name is an error', async () => {
    const automations = await cli(['export', 'automation']);
    expect(automations.status, automations.stderr).toBe(0);
    expect(kindsAndNames(automations.stdout)).toEqual(['automation Digest', 'automation Triage']);
    const triage = await cli(['export', 'automation', 'Triage']);
    expect(kindsAndNames(triage.stdout)).toEqual(['automation Triage']);
    const none = await cli(['export', 'automation', 'Nobody']);
    expect(none.status).toBe(1);
    expect(none.stderr).toBe('steward: Nothing to export: no automation named "Nobody".\n');
    expect(none.stdout).toBe('');
  }, 60_000);

  it('applies standard input (-f -), saying where it came from', async () => {
    const changed = documents['automations/triage.yaml'].replace('Sort the inbox.', 'Sort the inbox, twice.');
    const result = await cli(['apply', '-f', '-'], changed);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('~ automation "Triage" (change, from (stdin))\n');
    expect(result.stdout).toContain('    -   Sort the inbox.\n');
    expect(result.stdout).toContain('    +   Sort the inbox, twice.\n');
    expect(result.stdout.endsWith('Applied: 1 to change; 0 unchanged.\n')).toBe(true);
    expect(rows().automations.find((each) => each.name === 'Triage')!.prompt).toBe('Sort the inbox, twice.\nUrgent first:\n  - then the rest');
  }, 60_000);

  it('refuses invalid files with path:line:col lines on stderr, exit 1, and changes nothing, even what the valid files say', async () => {
    const before = rows();
    const all = await exported();
    const bad = writeFolder(path.join(folder, `${path.basename(dataDir)}-bad`), {
      'a-syntax.yaml': 'kind: automation\nname: Digest\nprompt: Write: it\n',
      'b-unknown.yaml': 'kind: automation\nname: Triage\ncronExpression: "0 8 * * *"\ncolour: blue\nprompt: x\n',
      'c-cron.yaml': 'kind: automation\nname: Third\ncronExpression: "0 25 * * *"\nprompt: x\n',
      'd-valid.yaml': 'kind: automation\nname: Valid one\ncronExpression: "0 8 * * *"\nprompt: x\n',
    });
    const refused = await cli(['apply', '-f', bad]);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toBe('');
    const lines = refused.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('steward: The configuration was not applied; nothing changed:');
    expect(lines[1]).toMatch(new RegExp(`^${escaped(path.join(bad, 'a-syntax.yaml'))}:3:9: \\S`));
    expect(lines[2]).toBe(`${path.join(bad, 'b-unknown.yaml')}:4:1: unknown field "colour" for automation`);
    expect(lines[3]).toMatch(new RegExp(`^${escaped(path.join(bad, 'c-cron.yaml'))}:3:17: automation "Third": \\S`));
    expect(lines).toHaveLength(4);
    expect(rows()).toEqual(before);
    expect(await exported()).toBe(all);

    const fromStdin = await cli(['apply', '-f', '-', '--dry-run'], 'kind: automation\nname: Triage\ncronExpression: "0 8 * * *"\n\nprompt: x\nretries: 3\n');
    expect(fromStdin.status).toBe(1);
    expect(fromStdin.stderr).toContain('\n(stdin):6:1: unknown field "retries" for automation\n');
    expect(rows()).toEqual(before);
  }, 60_000);

  it('exits 2 on a usage error, with the usage, and changes nothing', async () => {
    const before = rows();
    const empty = fs.mkdtempSync(path.join(folder, 'empty-'));
    const cases: [string[], string][] = [
      [['apply'], 'apply needs -f PATH'],
      [['apply', '-f', conf, '--prune', '--prune-all'], 'Give --prune or --prune-all, not both.'],
      [['apply', conf], `apply takes its files with -f PATH, not "${conf}".`],
      [['apply', '-f', path.join(folder, 'no-such-file.yaml')], `${path.join(folder, 'no-such-file.yaml')}: no such file or folder.`],
      [['apply', '-f', empty], `${empty} holds no .yaml or .yml files.`],
      [['export', 'automations'], 'export takes a kind (instance, automation, webhook) and a name, not "automations".'],
      [['apply', '-f', conf, '--force'], "Unknown option '--force'"],
    ];
    const results = await Promise.all(cases.map(([args]) => cli(args)));
    for (const [index, [args, message]] of cases.entries()) {
      const result = results[index];
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toContain(message);
      expect(result.stderr, args.join(' ')).toContain('Usage: steward <command> [options]');
      expect(result.stdout, args.join(' ')).toBe('');
    }
    expect(rows()).toEqual(before);
  }, 90_000);
});

describe('steward apply beside a daemon it has no admin key for', () => {
  it('refuses, saying which key it needs, and changes nothing; a runs or read key is refused', async () => {
    const dataDir = path.join(folder, 'keyless');
    const key = adminKeyOf(dataDir);
    const scoped = (scope: string) => runCli(['keys', 'create', '--name', scope, '--scope', scope, '--data-dir', dataDir]).trim().split('\n').at(-1)!;
    const [runsKey, readKey] = [scoped('runs'), scoped('read')];
    const daemon = await startDaemon(dataDir);
    try {
      const conf = writeFolder(path.join(folder, 'keyless-conf'), documents);
      const port = new URL(daemon.url).port;
      const result = await steward(['apply', '-f', conf, '--data-dir', dataDir, '--port', port]);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`on ${daemon.url}: set STEWARD_API_KEY to an admin API key of it`);
      const wrong = await steward(['apply', '-f', conf, '--data-dir', dataDir, '--port', port], { STEWARD_API_KEY: `${key.slice(0, -4)}xxxx` });
      expect(wrong.status).toBe(1);
      expect(wrong.stderr).toContain('refused STEWARD_API_KEY');
      // Only an admin key applies or exports: a run's key, or a read-only one, is refused.
      const [runs, read] = await Promise.all([
        steward(['apply', '-f', conf, '--data-dir', dataDir, '--port', port], { STEWARD_API_KEY: runsKey }),
        steward(['export', '--data-dir', dataDir, '--port', port], { STEWARD_API_KEY: readKey }),
      ]);
      expect(runs.status).toBe(1);
      expect(runs.stdout).toBe('');
      const refusal = `steward: The Steward on ${daemon.url} refused STEWARD_API_KEY: it must be an admin API key of that Steward (steward keys create --name NAME).\n`;
      expect(runs.stderr).toBe(refusal);
      expect(read.status).toBe(1);
      expect(read.stdout).toBe('');
      expect(read.stderr).toBe(refusal);
      const automations = (await apiOf(daemon.url, key)('GET', '/api/automations')).body.automations;
      expect(automations).toEqual([]);
    } finally {
      await daemon.stop();
    }
  }, 60_000);
});

// kill -9 during an apply: a real `steward serve` with 50 automations from a first apply gets a
// big change (3,000 added, the 50 changed) and is killed while the request is in flight, at
// several delays up to the time such a request takes here. Restarted on the same data folder, its
// export is exactly the old one or exactly the new one, never a mix, and its database is intact.
// An apply that was answered before the kill is kept.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteBinding } from '../../src/main/core/store/database';
import { type Server, startDaemon } from '../support/processes';
import { adminKeyOf, apiOf, exportText } from '../support/steward-cli';
import { tempDir } from '../support/temp';

const folder = tempDir('steward-apply-kill-');
const template = path.join(folder, 'template');
const daemons: Server[] = [];
let key: string;
let oldExport: string;
let newExport: string;
let typicalMs: number;
let checkMs: number;

const automation = (i: number, version: string) => `kind: automation\nname: Job ${String(i).padStart(4, '0')}\ncronExpression: "${i % 60} 9 * * *"\nenabled: false\nprompt: |-\n  Job ${i}, ${version}.\n  Say what changed.\n`;

/** `count` automations in files of 500 documents each (an apply takes at most 2,000 files). */
function files(count: number, version: string): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  for (let start = 0; start < count; start += 500) {
    const texts = Array.from({ length: Math.min(500, count - start) }, (_, k) => automation(start + k, version));
    out.push({ path: `automations/part-${start}.yaml`, text: texts.join('---\n') });
  }
  return out;
}

const first = files(50, 'first version');
const big = files(3050, 'second version');

async function daemonOn(dataDir: string): Promise<{ server: Server; api: ReturnType<typeof apiOf> }> {
  const server = await startDaemon(dataDir);
  daemons.push(server);
  return { server, api: apiOf(server.url, key) };
}

const copyOf = (name: string) => {
  const dir = path.join(folder, name);
  fs.cpSync(template, dir, { recursive: true });
  return dir;
};

function killed(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (server.process.exitCode !== null || server.process.signalCode !== null) return resolve();
    server.process.once('exit', () => resolve());
    server.process.kill('SIGKILL');
  });
}

/** The database as the restarted daemon left it: intact, and how many automations it holds. */
function inspect(dataDir: string): { integrity: string; automations: number } {
  const db = new Database(path.join(dataDir, 'steward.db'), { readonly: true, ...sqliteBinding() });
  try {
    return { integrity: db.pragma('integrity_check', { simple: true }) as string, automations: db.prepare('SELECT count(*) FROM automations').pluck().get() as number };
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  // The state every run starts from: 50 automations from a first apply, the daemon stopped cleanly.
  key = adminKeyOf(template);
  const { server, api } = await daemonOn(template);
  expect((await api('POST', '/api/config/apply', { files: first })).body.summary).toBe('50 to add; 0 unchanged.');
  await server.stop();

  // The old state and the new one, and how long the big apply takes here, on a copy left alone
  // (a copy, as each run's: the default instance's workspace stays in the template's folder, so
  // its export names it).
  const reference = await daemonOn(copyOf('reference'));
  oldExport = await exportText(reference.api);
  // How long reading and checking the files takes before the transaction begins: the same files
  // with one invalid document more are refused after that (and change nothing).
  const checking = Date.now();
  const refused = await reference.api('POST', '/api/config/apply', { files: [...big, { path: 'automations/zz-invalid.yaml', text: 'kind: automation\nname: Broken\nprompt: x\ncolour: blue\n' }] });
  checkMs = Date.now() - checking;
  expect(refused.status, refused.text).toBe(400);
  expect(await exportText(reference.api)).toBe(oldExport);
  const started = Date.now();
  const answer = await reference.api('POST', '/api/config/apply', { files: big });
  typicalMs = Date.now() - started;
  expect(answer.status, answer.text).toBe(200);
  expect(answer.body.summary).toBe('3000 to add, 50 to change; 0 unchanged.');
  newExport = await exportText(reference.api);
  await reference.server.stop();
}, 120_000);

afterAll(async () => {
  await Promise.all(daemons.map((daemon) => killed(daemon)));
  fs.rmSync(folder, { recursive: true, force: true });
});

describe('kill -9 while an apply is in flight', () => {
  it('the two states differ in every automation, and the new one holds 3,050', () => {
    expect(oldExport).not.toBe(newExport);
    expect(oldExport.match(/^kind: automation$/gm)).toHaveLength(50);
    expect(newExport.match(/^kind: automation$/gm)).toHaveLength(3050);
    expect(newExport).not.toContain('first version');
    console.log(`the big apply took ${typicalMs} ms here (load ${fs.readFileSync('/proc/loadavg', 'utf8').trim()})`);
  });

  // Five delays from 50 ms to the time the request took: one early, one while the files are read
  // and checked, three in the transaction (after the check's time), the last near the answer.
  const delays = () => [50, checkMs / 2, checkMs + (typicalMs - checkMs) * 0.3, checkMs + (typicalMs - checkMs) * 0.6, typicalMs * 0.95].map(Math.round);
  const phase = (delay: number) => (delay < checkMs ? 'reading and checking' : 'in the transaction, going by the times measured');

  it('leaves exactly the old state or exactly the new one, and an intact database, whenever the kill lands', async () => {
    const outcomes: string[] = [];
    for (const [run, delay] of delays().entries()) {
      const dataDir = copyOf(`run-${run}`);
      const { server, api } = await daemonOn(dataDir);
      const seen: { answered: number | 'no answer' } = { answered: 'no answer' };
      const sent = api('POST', '/api/config/apply', { files: big }).then(
        (response) => void (seen.answered = response.status),
        () => undefined,
      );
      await new Promise((resolve) => setTimeout(resolve, delay));
      await killed(server);
      await sent;
      const { answered } = seen;

      const again = await daemonOn(dataDir);
      const text = await exportText(again.api);
      const state = text === oldExport ? 'old' : text === newExport ? 'new' : 'a mix';
      const { integrity, automations } = inspect(dataDir);
      outcomes.push(`run ${run + 1}: killed after ${delay} ms, ${phase(delay)} (${answered === 'no answer' ? 'no answer' : `answered ${answered}`}) → ${state} state, ${automations} automations, integrity ${integrity}`);
      expect(state, outcomes.at(-1)).not.toBe('a mix');
      expect(integrity).toBe('ok');
      expect(automations).toBe(state === 'old' ? 50 : 3050);
      // An apply answered 200 was committed: a kill after it loses nothing.
      if (answered === 200) expect(state).toBe('new');
      await again.server.stop();
    }
    console.log(`the big apply took ${typicalMs} ms, ${checkMs} ms of them reading and checking\n${outcomes.join('\n')}`);
  }, 300_000);

  it('keeps an apply that was answered, however soon after the answer the daemon is killed', async () => {
    const dataDir = copyOf('answered');
    const { server, api } = await daemonOn(dataDir);
    const answer = await api('POST', '/api/config/apply', { files: big });
    expect(answer.status, answer.text).toBe(200);
    await killed(server);
    const again = await daemonOn(dataDir);
    expect(await exportText(again.api)).toBe(newExport);
    expect(inspect(dataDir)).toEqual({ integrity: 'ok', automations: 3050 });
    await again.server.stop();
  }, 120_000);
});

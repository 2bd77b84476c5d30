// Red team 34, attacker 3: a stranger's YAML in a pull request the user applies. Each file must be
// refused whole (or applied whole), quickly, with the daemon answering throughout; no field past the
// schema; no error line that looks like another line; no secret value in an export.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestCore, request, startTestCore } from '../../support/core';

let t: TestCore;

const apply = (files: Record<string, string>, options: { dryRun?: boolean; prune?: string } = {}) =>
  t.api('POST', '/api/config/apply', { files: Object.entries(files).map(([path, text]) => ({ path, text })), ...options });
const exportText = async () => ((await t.api('GET', '/api/config/export')).body.files as { path: string; text: string }[]).map((file) => `# ${file.path}\n${file.text}`).join('');
const healthy = async () => {
  const started = Date.now();
  const answer = await request(`${t.url}/api/health`, { method: 'GET' });
  expect(answer.status).toBe(200);
  return Date.now() - started;
};

/** Applies, expects a refusal (4xx), nothing changed, within `ms`, and the daemon still answering. */
async function refusedQuickly(files: Record<string, string>, ms = 5_000) {
  const before = await exportText();
  const started = Date.now();
  const pending = apply(files);
  // The daemon must keep answering others while it chews on the file.
  const health = await healthy();
  const answer = await pending;
  const took = Date.now() - started;
  expect(answer.status, answer.text.slice(0, 400)).toBeGreaterThanOrEqual(400);
  expect(answer.status, answer.text.slice(0, 400)).toBeLessThan(500);
  expect(took).toBeLessThan(ms);
  expect(health).toBeLessThan(ms);
  expect(await exportText()).toBe(before);
  return answer;
}

const auto = (name: string, extra = '') => `kind: automation\nname: ${name}\ncronExpression: "0 9 * * *"\nprompt: hi\n${extra}`;

beforeAll(async () => {
  t = await startTestCore();
  expect((await t.api('PUT', '/api/secrets/github-signing', { value: 'SECRET-VALUE-signing-5ac1' })).status).toBe(200);
  expect((await t.api('PUT', '/api/secrets/mail-pass', { value: 'SECRET-VALUE-mail-77f0' })).status).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

describe('size and shape bombs', { timeout: 30_000 }, () => {
  it('a 16 MiB file of one long line', async () => {
    const answer = await refusedQuickly({ 'big.yaml': `kind: automation\nname: Big\ncronExpression: "0 9 * * *"\nprompt: "${'a'.repeat(16 * 1024 * 1024 - 80)}"\n` }, 15_000);
    expect([400, 413]).toContain(answer.status);
  });

  it('many files just under the per-file limit adding up past 16 MiB', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 20; i++) files[`f${i}.yaml`] = `# ${'x'.repeat(1_000_000)}\n${auto(`Many ${i}`)}`;
    const answer = await refusedQuickly(files, 15_000);
    expect([400, 413]).toContain(answer.status);
  });

  it('deep nesting (flow and block)', async () => {
    const depth = 100_000;
    await refusedQuickly({ 'deep.yaml': `${auto('Deep')}extra: ${'['.repeat(depth)}${']'.repeat(depth)}\n` }, 10_000);
    let block = 'kind: automation\nname: DeepBlock\ncronExpression: "0 9 * * *"\nprompt: hi\nextra:\n';
    for (let i = 1; i < 3000; i++) block += `${' '.repeat(i)}k:\n`;
    await refusedQuickly({ 'deepblock.yaml': block }, 10_000);
  });

  it('a quadratic alias fan-out under the billion-laughs cap', async () => {
    // One big anchored list, aliased many times: each alias is "one", but the expanded value is huge.
    const big = `[${Array(5000).fill('"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"').join(',')}]`;
    const text = `${auto('Fan')}x: &big ${big}\ny: [${Array(2000).fill('*big').join(',')}]\n`;
    await refusedQuickly({ 'fan.yaml': text }, 10_000);
  });

  it('a million small documents', async () => {
    const text = '---\n{}\n'.repeat(1_000_000);
    await refusedQuickly({ 'million.yaml': text }, 15_000);
  });

  it('a million tiny lines of comments and one good document', async () => {
    // Must be applied or refused whole; the daemon must keep answering.
    const text = `${'#\n'.repeat(2_000_000)}${auto('AfterComments')}`;
    const started = Date.now();
    const answer = await apply({ 'comments.yaml': text.slice(0, 8 * 1024 * 1024) });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(answer.status).toBeLessThan(500);
    await healthy();
  });
});

describe('tags, merge keys and prototype keys', () => {
  it.each([
    ['!!js/function', '"function(){ return process.exit(1) }"', 'function(){ return process.exit(1) }'],
    ['!!js/undefined', '""', null],
    ['!!binary', 'aGVsbG8=', null],
    ['!!set', '{a, b}', null],
    ['!!omap', '[a: 1]', null],
    ['!<tag:yaml.org,2002:js/regexp>', '/x/', '/x/'],
    ['!custom', 'x', 'x'],
  ])('a tag %s is refused, or taken as the plain text the diff shows (never a Buffer, function or object)', async (tag, value, asText) => {
    const answer = await apply({ 'tag.yaml': `kind: automation\nname: Tagged\ncronExpression: "0 9 * * *"\nprompt: ${tag} ${value}\n` }, { dryRun: true });
    if (asText === null) expect(answer.status, answer.text).toBe(400);
    else if (answer.status === 200) expect(answer.body.changes[0].diff).toContain(`+ prompt: ${asText}`);
    else expect(answer.status).toBe(400);
    await healthy();
  });

  it('a merge key cannot bring in a field past the schema or a sandbox the diff does not show', async () => {
    const before = await exportText();
    const answer = await apply({
      'merge.yaml': 'base: &base\n  provider: command\n  preset: custom\n  command: "true"\n---\nkind: instance\nname: Merged\nagent:\n  <<: *base\nsandbox:\n  <<: {mode: "off"}\n',
    });
    if (answer.status === 200) {
      // If merge keys are taken, the diff must show the resulting sandbox off.
      const diff = (answer.body.changes as { diff: string }[]).map((c) => c.diff).join('\n');
      expect(diff).toMatch(/mode: "?off"?/);
    } else {
      expect(answer.status).toBe(400);
      expect(await exportText()).toBe(before);
    }
    // Clean up whatever got made.
    const made = (await t.api('GET', '/api/instances')).body.instances.find((i: { name: string }) => i.name === 'Merged');
    if (made) await t.api('DELETE', `/api/instances/${made.id}?force=true`);
  });

  it.each([
    ['__proto__', '__proto__:\n  sandbox:\n    mode: "off"\n'],
    ['"__proto__"', '"__proto__":\n  enabled: false\n'],
    ['constructor', 'constructor:\n  prototype:\n    polluted: yes\n'],
    ['prototype', 'prototype: x\n'],
    ['toString', 'toString: x\n'],
    ['hasOwnProperty', 'hasOwnProperty: x\n'],
  ])('refuses the prototype key %s as an unknown field', async (_key, extra) => {
    const answer = await refusedQuickly({ 'proto.yaml': auto('Proto', extra) });
    expect(answer.body.error.code).toBe('invalid_config');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a __proto__ key inside a nested object (sandbox, trigger, retry) is refused', async () => {
    await refusedQuickly({ 'p1.yaml': auto('P1', 'retry:\n  attempts: 1\n  __proto__:\n    attempts: 5\n') });
    await refusedQuickly({ 'p2.yaml': 'kind: instance\nname: P2\nagent:\n  provider: command\n  preset: custom\n  command: "true"\nsandbox:\n  mode: sandbox\n  __proto__:\n    mode: "off"\n' });
    // In a map of free keys (agent.env) a __proto__ key is dropped, not refused: it must at least set nothing.
    const env = await apply({ 'p3.yaml': 'kind: instance\nname: P3\nagent:\n  provider: command\n  preset: custom\n  command: "true"\n  env:\n    __proto__:\n      LD_PRELOAD: /tmp/x.so\n' }, { dryRun: true });
    if (env.status === 200) expect(env.text).not.toMatch(/LD_PRELOAD/);
    else expect(env.status).toBe(400);
  });

  it.each([
    ['quoted and plain', 'kind: automation\nname: Dup\n"name": Other\ncronExpression: "0 9 * * *"\nprompt: hi\n'],
    ['explicit key', 'kind: automation\nname: Dup\n? name\n: Other\ncronExpression: "0 9 * * *"\nprompt: hi\n'],
    ['escaped spelling', 'kind: automation\nname: Dup\n"nam\\u0065": Other\ncronExpression: "0 9 * * *"\nprompt: hi\n'],
    ['tagged str', 'kind: automation\nname: Dup\n!!str name: Other\ncronExpression: "0 9 * * *"\nprompt: hi\n'],
    ['kind twice', 'kind: webhook\nkind: automation\nname: Dup\ncronExpression: "0 9 * * *"\nprompt: hi\n'],
    ['sandbox mode twice', 'kind: instance\nname: Dup\nagent:\n  provider: command\n  preset: custom\n  command: "true"\nsandbox:\n  mode: sandbox\n  "mode": "off"\n'],
  ])('refuses a key given twice in another spelling: %s', async (_what, text) => {
    await refusedQuickly({ 'dup.yaml': text });
  });

  it.each([
    ['case', 'Name: Other\n'],
    ['trailing space', '"name ": Other\n'],
    ['zero-width', '"name\u200b": Other\n'],
    ['non-string key', '1: Other\n'],
    ['null key', '~: Other\n'],
    ['complex key', '? [a, b]\n: Other\n'],
  ])('refuses a near-spelling of a field as unknown: %s', async (_what, extra) => {
    await refusedQuickly({ 'near.yaml': auto('Near', extra) });
  });

  it('refuses read-only and server-made fields (id, token, createdAt, instanceId, secret value)', async () => {
    for (const extra of ['id: aut_01M89Z0000000000000000000Z\n', 'createdAt: 2020-01-01T00:00:00.000Z\n', 'instanceId: ins_01M89Z0000000000000000000Z\n', 'managedBy: app\n']) {
      await refusedQuickly({ 'ro.yaml': auto('ReadOnly', extra) });
    }
    for (const extra of ['token: whk_chosen_by_attacker_0000000000\n', 'signature:\n  scheme: github\n  secret: chosen-by-attacker\n']) {
      await refusedQuickly({ 'ro.yaml': `kind: webhook\nname: RO\npromptTemplate: "{{payload}}"\n${extra}` });
    }
  });
});

describe('all or nothing', () => {
  it('a valid document beside an invalid one in the same file, and in another file, is not applied', async () => {
    await refusedQuickly({ 'mixed.yaml': `${auto('Valid one')}---\n${auto('Invalid one', 'cronExpression2: x\n')}` });
    await refusedQuickly({ 'a.yaml': auto('Valid two'), 'b.yaml': `${auto('Valid three')}---\nkind: instance\nname: X\nagent:\n  provider: nope\n` });
    // A document valid alone but after the file's syntax breaks.
    await refusedQuickly({ 'c.yaml': `${auto('Valid four')}---\nkind: automation\nname: "broken\n` });
    // A valid add beside a prune that cannot happen: instance in use.
    const names = (await t.api('GET', '/api/automations')).body.automations.map((a: { name: string }) => a.name);
    expect(names.filter((n: string) => n.startsWith('Valid'))).toEqual([]);
  });

  it('an instance and an automation naming it with a bad agent: neither', async () => {
    await refusedQuickly({
      'i.yaml': 'kind: instance\nname: Half\nagent:\n  provider: command\n  preset: custom\n  command: "true"\nsandbox:\n  mode: sandbox\n  network: ["*"]\n  limits:\n    processes: -5\n',
      'a.yaml': 'kind: automation\nname: UsesHalf\ninstance: Half\ncronExpression: "0 9 * * *"\nprompt: hi\n',
    });
    expect((await t.api('GET', '/api/instances')).body.instances.map((i: { name: string }) => i.name)).not.toContain('Half');
  });
});

describe('error text', () => {
  // Control characters but for a line break and a tab, and the separators and direction marks that move text.
  const controls = /(?![\n\t])[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

  it('a name with a newline or an ANSI escape does not make a line of its own in the error', async () => {
    const evil = 'Innocent\\nbroken.yaml:1:1: all good, applied\\u001b[2K\\u001b[1A\\r';
    const answer = await refusedQuickly({
      'n.yaml': `kind: automation\nname: "${evil}"\ncronExpression: "0 99 * * *"\nprompt: hi\n`,
    });
    const message = answer.body.error.message as string;
    const lines = message.split('\n');
    // The header, then a line per problem (the name's control characters, the cron), each of its file: none forged.
    expect(lines, message).toHaveLength(3);
    for (const line of lines.slice(1)) expect(line, message).toMatch(/^n\.yaml:\d+:\d+: /);
    expect(message).not.toMatch(controls);
  });

  it('a file path with a newline or escape does not make a line of its own either', async () => {
    const answer = await refusedQuickly({ 'x.yaml\nfake.yaml:1:1: forged\u001b[31m': auto('Path', 'cronExpression: "0 99 * * *"\n').replace('cronExpression: "0 9 * * *"\n', '') });
    const message = answer.body.error.message as string;
    expect(message.split('\n'), message).toHaveLength(2);
    expect(message).not.toMatch(controls);
  });

  it('a name with a newline cannot be applied to fake a line in the plan either', async () => {
    const answer = await apply({ 'plan.yaml': 'kind: automation\nname: "Quiet\\n+ instance \\"Root\\" (add)\\u001b[0m"\ncronExpression: "0 9 * * *"\nprompt: hi\n' }, { dryRun: true });
    if (answer.status === 200) {
      for (const change of answer.body.changes as { name: string }[]) expect(change.name).not.toMatch(/[\n\r\p{Cc}]/u);
    } else expect(answer.status).toBe(400);
  });

  it('a YAML syntax error does not echo a long line or a control character', async () => {
    const answer = await refusedQuickly({ 's.yaml': `kind: automation\nname: X\nprompt: "\u001b]0;owned\u0007${'b'.repeat(100_000)}\n` });
    const message = answer.body.error.message as string;
    expect(message).not.toMatch(controls);
    expect(message.length).toBeLessThan(20_000);
  });
});

describe('secrets in an export', () => {
  it('holds no secret value, webhook token or API key, whatever references them', async () => {
    const ok = await apply({
      'w.yaml': 'kind: webhook\nname: Signed hook\npromptTemplate: "{{payload}}"\nsignature:\n  scheme: github\n  secretFrom: github-signing\n',
      'm.yaml': 'kind: automation\nname: Mailer\ntrigger:\n  mail:\n    host: imap.example.com\n    user: me\n    password: mail-pass\nprompt: "{{event}}"\n',
    });
    expect(ok.status, ok.text).toBe(200);
    const hooks = (await t.api('GET', '/api/webhooks')).body.webhooks as { token: string }[];
    const text = await exportText();
    expect(text).not.toContain('SECRET-VALUE');
    for (const hook of hooks) expect(text).not.toContain(hook.token);
    expect(text).not.toContain(t.key);
    // By name or kind filters too.
    for (const query of ['?kind=webhook', '?name=Signed%20hook', '?kind=automation&name=Mailer']) {
      const answer = await t.api('GET', `/api/config/export${query}`);
      expect(answer.status).toBe(200);
      expect(answer.text).not.toContain('SECRET-VALUE');
    }
  });

  it('a file cannot read a secret into a field that export then writes (a name that is a value)', async () => {
    // The secret's NAME is what a file holds; a field that is written as it is (a prompt, env) must not resolve secrets.
    const ok = await apply({ 'e.yaml': 'kind: automation\nname: Echo\ncronExpression: "0 9 * * *"\nprompt: "{{secrets.github-signing}} {{secret:github-signing}} ${github-signing}"\n' });
    if (ok.status === 200) expect(await exportText()).not.toContain('SECRET-VALUE');
  });
});

// Applying configuration files over HTTP, as a user changing their files would: a change, an add,
// a rename (a delete and an add, said so), a prune of what came from files only (or of everything
// not named), and files that are wrong in each way a person gets them wrong: each refused with its
// file, line and column, and nothing changed. A dry run leaves nothing behind, not even outside the
// database (a webhook's trigger URL answers as before).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestCore, request, startTestCore } from '../support/core';

let t: TestCore;

const ok = async (response: Promise<{ status: number; body: unknown }>, status = 200) => {
  const answer = await response;
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer.body as Record<string, any>;
};
const apply = (files: Record<string, string>, options: { dryRun?: boolean; prune?: string; folder?: string } = {}) =>
  t.api('POST', '/api/config/apply', { files: Object.entries(files).map(([path, text]) => ({ path, text })), ...options });
const exportText = async () => ((await ok(t.api('GET', '/api/config/export'))).files as { path: string; text: string }[]).map((file) => `# ${file.path}\n${file.text}`).join('');
const automations = async () => (await ok(t.api('GET', '/api/automations'))).automations as { id: string; name: string; cronExpression: string | null; prompt: string; instanceId: string; updatedAt: string }[];

const triage = (cron = '0 9 * * *', name = 'Triage') => `kind: automation
name: ${name}
cronExpression: "${cron}"
timezone: Europe/Berlin
prompt: |
  Look at the new issues and label them.
`;
const hook = `kind: webhook
name: Deploys
promptTemplate: "Deployed: {{payload}}"
`;

beforeAll(async () => {
  t = await startTestCore();
});

afterAll(async () => {
  await t?.close();
});

describe('apply', () => {
  it('adds, then changes by name, then renames as a delete and an add that the diff says', async () => {
    const added = await ok(apply({ 'triage.yaml': triage(), 'hooks.yaml': hook }));
    expect(added).toMatchObject({ applied: true, summary: '2 to add; 0 unchanged.' });
    expect(added.changes.map((change: { kind: string; name: string; action: string; file: string }) => [change.kind, change.name, change.action, change.file])).toEqual([
      ['automation', 'Triage', 'add', 'triage.yaml'],
      ['webhook', 'Deploys', 'add', 'hooks.yaml'],
    ]);
    const [made] = await automations();

    const changed = await ok(apply({ 'triage.yaml': triage('30 8 * * 1-5'), 'hooks.yaml': hook }));
    expect(changed.summary).toBe('1 to change; 1 unchanged.');
    expect(changed.changes[0].diff).toContain('- cronExpression: 0 9 * * *\n+ cronExpression: 30 8 * * 1-5');
    const [after] = await automations();
    // The same automation, changed in place: its id, thread and history stay.
    expect(after).toMatchObject({ id: made.id, cronExpression: '30 8 * * 1-5' });

    // Renamed in the file: without --prune the old one stays (it is not named, and nothing is pruned unasked).
    const renamed = await ok(apply({ 'triage.yaml': triage('30 8 * * 1-5', 'Label issues'), 'hooks.yaml': hook }, { dryRun: true, prune: 'files' }));
    expect(renamed.changes.map((change: { name: string; action: string }) => [change.name, change.action])).toEqual([
      ['Label issues', 'add'],
      ['Triage', 'delete'],
    ]);
    expect(renamed.changes[1].note).toMatch(/^Renamed to "Label issues": a rename is a delete and an add, so the automation's runs and history go with "Triage"\.$/);
    expect(renamed.changes[0].note).toMatch(/^Renamed from "Triage"/);
    expect((await automations()).map((each) => each.name)).toEqual(['Triage']);
    await ok(apply({ 'triage.yaml': triage('30 8 * * 1-5', 'Label issues'), 'hooks.yaml': hook }, { prune: 'files' }));
    expect((await automations()).map((each) => each.name)).toEqual(['Label issues']);
  });

  it('prunes only what came from the files given (or their folder) before, unless asked to prune everything not named', async () => {
    const mine = await ok(t.api('POST', '/api/automations', { name: 'Made in the app', prompt: 'Hello', cronExpression: '0 12 * * *' }), 201);
    // hooks.yaml alone names nothing that came from triage.yaml: a prune of these files leaves it.
    const alone = await ok(apply({ 'hooks.yaml': hook }, { prune: 'files', dryRun: true }));
    expect(alone.changes).toEqual([]);
    // triage.yaml no longer names "Label issues": it goes; the webhook from hooks.yaml and the one made here stay.
    const plan = await ok(apply({ 'triage.yaml': '# emptied\nkind: webhook\nname: Placeholder\npromptTemplate: "{{payload}}"\n' }, { prune: 'files' }));
    expect(plan.changes.map((change: { name: string; action: string }) => [change.name, change.action])).toEqual([
      ['Placeholder', 'add'],
      ['Label issues', 'delete'],
    ]);
    expect((await automations()).map((each) => each.id)).toEqual([mine.automation.id]);
    // A folder's files that are gone are its own: what came from /cfg/gone.yaml goes with a prune of /cfg.
    await ok(apply({ '/cfg/gone.yaml': triage('0 5 * * *', 'From a gone file'), '/cfg/kept.yaml': triage('0 6 * * *', 'From a kept file') }));
    const folderPlan = await ok(apply({ '/cfg/kept.yaml': triage('0 6 * * *', 'From a kept file') }, { prune: 'files', folder: '/cfg', dryRun: true }));
    expect(folderPlan.changes.map((change: { name: string; action: string }) => [change.name, change.action])).toEqual([['From a gone file', 'delete']]);
    await ok(apply({ '/cfg/kept.yaml': triage('0 6 * * *', 'From a kept file') }, { prune: 'files', folder: '/cfg' }));

    const everything = await ok(apply({ 'hooks.yaml': hook }, { prune: 'all', dryRun: true }));
    expect(everything.changes.map((change: { name: string; action: string }) => [change.name, change.action]).sort()).toEqual([
      ['From a kept file', 'delete'],
      ['Made in the app', 'delete'],
      ['Placeholder', 'delete'],
    ]);
    // The default instance is never pruned (it cannot be deleted).
    expect(everything.changes.some((change: { kind: string }) => change.kind === 'instance')).toBe(false);
    expect(await automations()).toHaveLength(2);
    await ok(apply({ 'hooks.yaml': hook, '/cfg/kept.yaml': '# nothing left\n', 'triage.yaml': '# nothing\n' }, { prune: 'files', folder: '/cfg' }));
    expect((await automations()).map((each) => each.id)).toEqual([mine.automation.id]);
  });

  it('fails whole when a prune cannot be done: an instance still in use is named', async () => {
    await ok(apply({ 'box.yaml': 'kind: instance\nname: Box\nagent:\n  provider: command\n  preset: custom\n  command: "true"\n' }));
    const user = await ok(t.api('POST', '/api/automations', { name: 'Uses the box', prompt: 'Hi', cronExpression: '0 1 * * *', instanceId: (await ok(t.api('GET', '/api/instances'))).instances.find((each: { name: string }) => each.name === 'Box').id }), 201);
    const before = await exportText();
    const refused = await apply({ 'hooks.yaml': hook, 'box.yaml': triage('0 7 * * *', 'New one') }, { prune: 'files' });
    expect(refused.status).toBe(409);
    expect((refused.body as { error: { code: string; message: string } }).error).toMatchObject({ code: 'instance_in_use', message: expect.stringMatching(/^Instance "Box" cannot be pruned: 1 automation\(s\)/) });
    expect(await exportText()).toBe(before);
    await ok(t.api('DELETE', `/api/automations/${user.automation.id}`), 204);
  });

  it('leaves nothing behind after a dry run: the webhook it would disable still triggers', async () => {
    const webhooks = (await ok(t.api('GET', '/api/webhooks'))).webhooks as { name: string; token: string; enabled: boolean }[];
    const deploys = webhooks.find((each) => each.name === 'Deploys')!;
    const plan = await ok(apply({ 'hooks.yaml': `${hook}enabled: false\n` }, { dryRun: true }));
    expect(plan).toMatchObject({ applied: false, summary: '1 to change; 0 unchanged.' });
    expect(plan.changes[0].diff).toContain('+ enabled: false');
    const triggered = await request(`${t.url}/api/webhooks/trigger/${deploys.token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"v":1}' });
    expect(triggered.status).toBe(202);
    // Applied for real, the trigger URL refuses at once.
    await ok(apply({ 'hooks.yaml': `${hook}enabled: false\n` }));
    const refused = await request(`${t.url}/api/webhooks/trigger/${deploys.token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"v":2}' });
    expect(refused.status).toBe(403);
    await ok(apply({ 'hooks.yaml': hook }));
  });

  it('makes chained automations in the order they follow each other, and refuses a loop', async () => {
    const first = `kind: automation\nname: Second\ntrigger:\n  after:\n    automation: First\nprompt: Then {{previous.output}}\n`;
    const second = `kind: automation\nname: First\ncronExpression: "0 6 * * *"\nprompt: First\n`;
    await ok(apply({ 'a.yaml': first, 'b.yaml': second }));
    const list = await automations();
    const followed = list.find((each) => each.name === 'First')!;
    expect((await ok(t.api('GET', `/api/automations/${list.find((each) => each.name === 'Second')!.id}`))).automation.trigger).toEqual({ after: { automationId: followed.id, on: ['succeeded'] } });
    const loop = await apply({
      'loop.yaml': `kind: automation\nname: Ping\ntrigger:\n  after:\n    automation: Pong\nprompt: a\n---\nkind: automation\nname: Pong\ntrigger:\n  after:\n    automation: Ping\nprompt: b\n`,
    });
    expect(loop.status).toBe(400);
    expect((loop.body as { error: { message: string } }).error.message).toMatch(/^The configuration was not applied; nothing changed:\nloop\.yaml:\d+:\d+: automation "(Ping|Pong)" would follow itself: /);
  });
});

describe('files that are wrong', () => {
  const refused = async (files: Record<string, string>) => {
    const before = await exportText();
    const answer = await apply(files);
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    const error = (answer.body as { error: { code: string; message: string; field: string } }).error;
    expect(error.code).toBe('invalid_config');
    expect(await exportText()).toBe(before);
    return error.message.split('\n').slice(1);
  };

  it('names the line and column of a bad cron, an unknown field and a template without its placeholder, all at once', async () => {
    const lines = await refused({
      'automations/triage.yaml': triage('0 25 * * *'),
      'automations/typo.yaml': 'kind: automation\nname: Typo\ncronExpression: "0 9 * * *"\nprompt: hi\nnotfiy: all\n',
      'webhooks/hook.yaml': 'kind: webhook\nname: Hook\npromptTemplate: "Nothing from the request"\n',
      // A good file beside them is not applied either.
      'good.yaml': triage('0 9 * * *', 'Good'),
    });
    expect(lines).toEqual([
      'automations/triage.yaml:3:17: automation "Triage": Invalid cron expression: Invalid value for hour: 25',
      'automations/typo.yaml:5:1: unknown field "notfiy" for automation',
      expect.stringMatching(/^webhooks\/hook\.yaml:3:17: webhook "Hook": .*\{\{payload\}\}/),
    ]);
    expect((await automations()).some((each) => each.name === 'Good')).toBe(false);
  });

  it('names the line of a YAML syntax error, a duplicate key, a missing kind and a name given twice', async () => {
    const lines = await refused({
      'broken.yaml': 'kind: automation\nname: Broken\nprompt: "unterminated\ncronExpression: "0 9 * * *"\n',
      'dup.yaml': 'kind: webhook\nname: Dup\nname: Again\npromptTemplate: "{{payload}}"\n',
      'nokind.yaml': 'name: Nothing\n',
      'twice.yaml': `${triage('0 9 * * *', 'Twice')}---\n${triage('0 10 * * *', 'Twice')}`,
    });
    expect(lines[0]).toBe('broken.yaml:3:22: Missing closing "quote');
    expect(lines.find((line) => line.startsWith('dup.yaml'))).toMatch(/^dup\.yaml:3:1: Map keys must be unique/);
    expect(lines).toContain('nokind.yaml:1:1: kind must be instance, automation or webhook');
    expect(lines).toContain('twice.yaml:9:7: automation "Twice" is named again (first at twice.yaml:2:7): names are how files match resources');
  });

  it('says which instance or secret a file names that does not exist, at its line', async () => {
    const lines = await refused({
      'a.yaml': 'kind: automation\nname: Lost\ninstance: Nobody\ncronExpression: "0 9 * * *"\nprompt: hi\n',
    });
    expect(lines).toEqual(['a.yaml:3:11: automation "Lost": No instance named "Nobody" here or in the files.']);
    const secret = await refused({
      'w.yaml': 'kind: webhook\nname: Signed\npromptTemplate: "{{payload}}"\nsigned: 1\n'.replace('signed: 1\n', 'signature:\n  scheme: github\n  secretFrom: not-stored\n'),
    });
    expect(secret).toEqual([expect.stringMatching(/^w\.yaml:6:15: webhook "Signed": No stored secret named "not-stored"/)]);
    const unsigned = await refused({ 'w.yaml': 'kind: webhook\nname: Signed\npromptTemplate: "{{payload}}"\nsignature:\n  scheme: github\n' });
    expect(unsigned).toEqual([expect.stringMatching(/^w\.yaml:5:3: webhook "Signed": signature\.secretFrom is required for a new signature check/)]);
  });

  it('refuses a billion-laughs file and text that is not a mapping', async () => {
    const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let level = 1; level < 9; level++) laughs.push(`${String.fromCharCode(97 + level)}: &${String.fromCharCode(97 + level)} [${Array(9).fill(`*${String.fromCharCode(96 + level)}`).join(',')}]`);
    const lines = await refused({ 'laughs.yaml': `${laughs.join('\n')}\n`, 'list.yaml': '- 1\n- 2\n' });
    expect(lines[0]).toMatch(/^laughs\.yaml:1:1: .*(alias|Excessive)/i);
    expect(lines).toContain('list.yaml:1:1: a document must be a mapping with a kind and a name');
  });
});

describe('who may', () => {
  it('lets no read key export and no run key apply', async () => {
    const { key: readKey } = t.core.services.apiKeys.create('reader', 'read');
    const asReader = await t.api('GET', '/api/config/export', undefined, { authorization: `Bearer ${readKey}` });
    expect(asReader.status).toBe(403);
    const { key: runsKey } = t.core.services.apiKeys.create('runner', 'runs');
    const asRuns = await t.api('POST', '/api/config/apply', { files: [{ path: 'a.yaml', text: triage() }] }, { authorization: `Bearer ${runsKey}` });
    expect(asRuns.status).toBe(403);
  });
});

// Steward as code, end to end over HTTP: a Steward with every kind of resource and option is
// exported, applied to a fresh Steward, and exported again; the two exports are the same bytes,
// and applying them once more changes nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type TestCore, startTestCore, tempDir } from '../support/core';

let first: TestCore;
let second: TestCore;

const json = async (response: Promise<{ status: number; body: unknown }>, status = 200) => {
  const answer = await response;
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer.body as Record<string, any>;
};

/** Every kind of resource, with the options a user can set (and two secrets named, never written). */
async function furnish(t: TestCore, folder: string): Promise<void> {
  await json(t.api('PUT', '/api/secrets/mail-password', { value: 'hunter22' }), 200);
  await json(t.api('PUT', '/api/secrets/github-signing', { value: 'a-signing-secret' }), 200);
  const reviewer = (
    await json(
      t.api('POST', '/api/instances', {
        name: 'Reviewer',
        agent: { provider: 'command', preset: 'codex', env: { RUST_LOG: 'info' }, timeoutSeconds: 600 },
        sandbox: { mode: 'sandbox', network: ['api.github.com'], readAllow: [], readDeny: ['/etc/shadow'], writeAllow: [], envAllow: ['HOME'] },
        budget: { usdPerDay: 5, tokensPerDay: 100000 },
        permissions: { mode: 'bypass', timeoutSeconds: 120 },
        workspaceDir: path.join(folder, 'reviewer-workspace'),
        avatarUrl: 'https://example.com/reviewer.png',
      }),
      201,
    )
  ).instance;
  await json(
    t.api('POST', '/api/instances', {
      name: 'Writer',
      agent: {
        provider: 'openai',
        baseUrl: 'http://127.0.0.1:11434/v1',
        model: 'qwen3',
        mcpServers: [
          { name: 'files', transport: 'stdio', command: 'mcp-files', args: ['--root', '.'] },
          { name: 'tracker', transport: 'http', url: 'https://tracker.example.com/mcp', headers: { authorization: 'tracker-token' } },
        ],
      },
      acceptsPromptsFrom: [reviewer.id],
    }),
    201,
  );
  const digest = (
    await json(
      t.api('POST', '/api/automations', {
        name: 'Morning digest',
        prompt: 'Summarise what happened overnight.\nKeep it short:\n  - one line per item',
        cronExpression: '0 9 * * 1-5',
        timezone: 'Europe/Berlin',
        catchUp: 'skip',
        notify: 'failures',
        memory: 'continue',
        retry: { attempts: 2, backoffSeconds: 60, on: ['rate_limit', 'network'] },
        approval: { mode: 'before-run', timeoutSeconds: 600 },
        budget: { usdPerMonth: 30 },
        instanceId: reviewer.id,
      }),
      201,
    )
  ).automation;
  await json(t.api('POST', '/api/automations', { name: 'After the digest', prompt: 'Follow up on {{previous.output}}', trigger: { after: { automationId: digest.id, on: ['succeeded', 'failed'] } } }), 201);
  await json(t.api('POST', '/api/automations', { name: 'Every 90 minutes', prompt: 'Check the queue', trigger: { every: { minutes: 90, from: '2026-01-01T00:00:00.000Z' } }, enabled: false }), 201);
  await json(t.api('POST', '/api/automations', { name: 'Once', prompt: 'Renew the certificate', trigger: { at: '2099-05-01T09:00' }, timezone: 'America/New_York' }), 201);
  await json(t.api('POST', '/api/automations', { name: 'Invoices', prompt: 'File {{event.path}}', trigger: { watch: { path: folder, glob: '**/*.pdf', on: ['created'] } }, enabled: false }), 201);
  await json(
    t.api('POST', '/api/automations', {
      name: 'Support mail',
      prompt: 'Answer {{event.subject}}',
      trigger: { mail: { host: 'imap.example.com', port: 993, tls: true, user: 'me', password: 'mail-password', mailbox: 'INBOX', afterRun: 'move', moveTo: 'Done' } },
      enabled: false,
    }),
    201,
  );
  await json(
    t.api('POST', '/api/automations', {
      name: 'Pushes to main',
      prompt: 'Review {{event.range}}',
      trigger: { git: { repository: 'https://git.example.com/team/app.git', branch: 'main', credential: 'github-signing', pollSeconds: 120, filter: [{ field: 'messages', contains: 'fix' }] } },
      enabled: false,
    }),
    201,
  );
  await json(t.api('POST', '/api/automations', { name: 'Releases', prompt: 'Read {{event.title}}', trigger: { feed: { url: 'https://example.com/feed.xml' } }, enabled: false, catchUp: 'latest' }), 201);
  await json(
    t.api('POST', '/api/webhooks', {
      name: 'GitHub pushes',
      sender: 'github',
      signature: { secret: 'a-signing-secret' },
      filter: [{ header: 'x-github-event', equals: 'push' }],
      fencePayload: true,
      instanceId: reviewer.id,
    }),
    201,
  );
  await json(
    t.api('POST', '/api/webhooks', {
      name: 'Plain',
      promptTemplate: 'Handle {{payload}}',
      maxPayloadBytes: 2048,
      idempotencyKey: '{{payload.id}}',
      notify: 'none',
      enabled: false,
      memory: 'continue',
      retry: { attempts: 1, backoffSeconds: 10, on: ['timeout'] },
      approval: { mode: 'before-run', timeoutSeconds: 300 },
    }),
    201,
  );
}

const exported = async (t: TestCore) => (await json(t.api('GET', '/api/config/export'))).files as { path: string; text: string }[];

beforeAll(async () => {
  first = await startTestCore();
  second = await startTestCore();
  await furnish(first, tempDir());
});

afterAll(async () => {
  await first?.close();
  await second?.close();
});

describe('export, then apply to a fresh Steward', () => {
  it('writes one readable file per resource, with secrets by name and no token', async () => {
    const files = await exported(first);
    expect(files.map((file) => file.path)).toEqual([
      'instances/reviewer.yaml',
      'instances/steward.yaml',
      'instances/writer.yaml',
      'automations/after-the-digest.yaml',
      'automations/every-90-minutes.yaml',
      'automations/invoices.yaml',
      'automations/morning-digest.yaml',
      'automations/once.yaml',
      'automations/pushes-to-main.yaml',
      'automations/releases.yaml',
      'automations/support-mail.yaml',
      'webhooks/github-pushes.yaml',
      'webhooks/plain.yaml',
    ]);
    const all = files.map((file) => file.text).join('\n');
    expect(all).not.toContain('hunter22');
    expect(all).not.toContain('a-signing-secret');
    const webhooks = (await json(first.api('GET', '/api/webhooks'))).webhooks as { token: string }[];
    for (const webhook of webhooks) expect(all).not.toContain(webhook.token);
    expect(all).not.toMatch(/\b(ins|aut|whk|thr)_[0-9A-Z]{10,}/);
    const digest = files.find((file) => file.path === 'automations/morning-digest.yaml')!.text;
    // The prompt is a literal block, as typed.
    expect(digest).toContain('prompt: |-\n  Summarise what happened overnight.\n  Keep it short:\n    - one line per item');
    expect(parse(digest)).toMatchObject({ kind: 'automation', name: 'Morning digest', instance: 'Reviewer', cronExpression: '0 9 * * 1-5' });
    expect(parse(files.find((file) => file.path === 'automations/after-the-digest.yaml')!.text).trigger).toEqual({ after: { automation: 'Morning digest', on: ['succeeded', 'failed'] } });
    expect(parse(files.find((file) => file.path === 'automations/support-mail.yaml')!.text).trigger.mail.password).toBe('mail-password');
    const signed = files.find((file) => file.path === 'webhooks/github-pushes.yaml')!.text;
    expect(parse(signed).signature).toEqual({ scheme: 'github' });
    // What a Steward where it is new needs, said where it is needed.
    expect(signed).toContain('signature:\n  # The signing secret is never written here. Where this webhook is new, add secretFrom: <a stored secret holding it>.\n  scheme: github\n');
    expect(parse(files.find((file) => file.path === 'instances/writer.yaml')!.text).acceptsPromptsFrom).toEqual(['Reviewer']);
  });

  it('applies to a fresh Steward, whose export is then the same bytes; applying again changes nothing', async () => {
    const files = await exported(first);
    await json(second.api('PUT', '/api/secrets/mail-password', { value: 'hunter22' }));
    await json(second.api('PUT', '/api/secrets/github-signing', { value: 'a-signing-secret' }));
    // A new signature check needs its secret by name: the file says which stored secret holds it.
    const withSecret = files.map((file) => (file.path === 'webhooks/github-pushes.yaml' ? { ...file, text: file.text.replace('  scheme: github\n', '  scheme: github\n  secretFrom: github-signing\n') } : file));
    expect(withSecret.find((file) => file.path === 'webhooks/github-pushes.yaml')!.text).toContain('secretFrom: github-signing');

    const dry = await json(second.api('POST', '/api/config/apply', { files: withSecret, dryRun: true }));
    expect(dry.applied).toBe(false);
    expect(dry.summary).toBe('12 to add; 1 unchanged.');
    expect((await json(second.api('GET', '/api/automations'))).automations).toHaveLength(0);

    const plan = await json(second.api('POST', '/api/config/apply', { files: withSecret }));
    expect(plan.applied).toBe(true);
    expect(plan.changes.filter((change: { action: string }) => change.action === 'add')).toHaveLength(12);
    const again = await exported(second);
    expect(again.map((file) => file.path)).toEqual(files.map((file) => file.path));
    for (const [index, file] of again.entries()) expect(file.text, file.path).toBe(files[index].text);

    const noop = await json(second.api('POST', '/api/config/apply', { files: again }));
    expect(noop).toMatchObject({ applied: false, changes: [], unchanged: 13, summary: 'No changes: 13 resources are as the files say.' });

    // The applied webhook checks signatures with the secret named.
    const webhook = ((await json(second.api('GET', '/api/webhooks'))).webhooks as { name: string; signature: unknown; checkInForce: string }[]).find((each) => each.name === 'GitHub pushes')!;
    expect(webhook.signature).toEqual({ scheme: 'github' });
  });

  it('writes a folder that steward apply reads back (one file or many)', async () => {
    const files = await exported(first);
    const dir = tempDir();
    for (const file of files) {
      fs.mkdirSync(path.dirname(path.join(dir, file.path)), { recursive: true });
      fs.writeFileSync(path.join(dir, file.path), file.text);
    }
    const one = files.map((file) => file.text).join('---\n');
    const plan = await json(first.api('POST', '/api/config/apply', { files: [{ path: 'all.yaml', text: one }], dryRun: true }));
    expect(plan).toMatchObject({ changes: [], unchanged: 13 });
  });
});

describe('the JSON Schema editors read', () => {
  it('accepts every exported document and flags an unknown field, as an editor would show it', async () => {
    const { default: Ajv2020 } = await import('ajv/dist/2020.js');
    const schema = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../docs/steward-config.schema.json'), 'utf8'));
    expect((await json(first.api('GET', '/api/config/schema')))).toEqual(schema);
    const validate = new Ajv2020({ strict: false, logger: false }).compile(schema);
    for (const file of await exported(first)) expect(validate(parse(file.text)), `${file.path}: ${JSON.stringify(validate.errors)}`).toBe(true);
    expect(validate({ kind: 'automation', name: 'x', cronExpression: '0 9 * * *', prompt: 'hi', notfiy: 'all' })).toBe(false);
  });
});

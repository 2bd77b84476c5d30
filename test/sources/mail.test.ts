// The mail source against a real Dovecot on loopback, through a real core and its API: a message
// starts a run within 2 s over IDLE with its fields fenced in the prompt; messages that came while
// Steward was off run once each at start and never again; Dovecot killed mid-IDLE makes the source
// `failing` and raises the notices, and what was delivered meanwhile runs once when it is back; a
// server without IDLE is polled; a wrong password fails in the server's words; filters, mark-read,
// move, the preview, and a renumbered mailbox (a new baseline, nothing replayed).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Automation, Run, SourceHealth } from '../../src/shared/contract';
import { noticeOf } from '../../src/main/core/services/notices';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { type TestCore, startTestCore, tempDir } from '../support/core';
import { type TestDovecot, createTestDovecot, mailMessage } from '../support/dovecot';
import { lacks } from '../support/requirements';
import { settled } from '../support/runs';
import { quietFor, waitFor } from '../support/wait';

const skip = lacks('dovecot');
const users = { ann: 'pw-ann', bob: 'pw-bob', cat: 'pw-cat', dan: 'pw-dan', eve: 'pw-eve', fay: 'pw-fay', gil: 'pw-gil', hal: 'pw-hal', kim: 'pw-kim' };
const backoffMs = () => 300;

let dovecot: TestDovecot;
let t: TestCore;
let instanceId: string;

async function startCore(dataDir?: string): Promise<TestCore> {
  const core = await startTestCore({ clock: systemClock, sourceBackoffMs: backoffMs, ...(dataDir ? { dataDir } : {}) });
  for (const [user, password] of Object.entries(users)) expect((await core.api('PUT', `/api/secrets/mail-${user}`, { value: password })).status).toBe(200);
  return core;
}

/** Closes the core and keeps its data folder (TestCore.close would remove it). */
const closeKeepingData = (core: TestCore) => core.core.close();

const mailTrigger = (user: string, extra: Record<string, unknown> = {}) => ({ mail: { host: '127.0.0.1', port: dovecot.port, tls: false, user, password: `mail-${user}`, ...extra } });

async function automation(core: TestCore, body: Record<string, unknown>): Promise<Automation> {
  const made = await core.api('POST', '/api/automations', { name: 'Mail', prompt: 'Handle this mail: {{event.subject}} from {{event.from}}\n{{event.text}}', instanceId, ...body });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.automation;
}

const sourceOf = async (core: TestCore, id: string): Promise<SourceHealth> => (await core.api('GET', `/api/automations/${id}`)).body.automation.source;
const listening = (core: TestCore, id: string, timeoutMs = 15_000) => waitFor(() => sourceOf(core, id), { what: `automation ${id} to listen`, timeoutMs, until: (source) => source?.state === 'listening' });
const runsOf = async (core: TestCore, id: string): Promise<Run[]> => (await core.api('GET', `/api/runs?sourceId=${id}&limit=500`)).body.runs;
const runCount = (core: TestCore, id: string, count: number, timeoutMs = 15_000) => waitFor(() => runsOf(core, id), { what: `${count} runs of ${id}`, timeoutMs, until: (runs) => runs.length >= count });

describe.skipIf(skip)('the mail source', () => {
  beforeAll(async () => {
    dovecot = await createTestDovecot({ users });
    await dovecot.start();
    t = await startCore();
    const agent = { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'cat >/dev/null; echo handled'] };
    instanceId = (await t.api('POST', '/api/instances', { name: 'mail-handler', agent })).body.instance.id;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await dovecot?.remove();
  });

  it('starts a run within 2 s of a message over IDLE, with its fields fenced in the prompt, and leaves the message unread', async () => {
    await dovecot.append(mailMessage({ subject: 'Already there' }), { user: 'ann' });
    const made = await automation(t, { trigger: mailTrigger('ann') });
    expect((await listening(t, made.id)).how).toBe('IDLE');

    const pdf = Buffer.alloc(12_345, 7);
    const uid = await dovecot.append(
      mailMessage({ from: 'Ann Example <ann@example.org>', subject: 'Invoice 42', html: '<p>Please pay <b>42 EUR</b> by Friday.</p><script>x()</script>', attachment: { filename: 'invoice-42.pdf', contentType: 'application/pdf', content: pdf } }),
      { user: 'ann' },
    );
    const appendedAt = Date.now();
    const [run] = await runCount(t, made.id, 1, 5000);
    const queuedAfter = Date.parse(run.createdAt) - appendedAt;
    expect(queuedAfter).toBeLessThan(2000);
    expect(run.prompt).toContain('Invoice 42');
    expect(run.prompt).toContain('Ann Example <ann@example.org>');
    expect(run.prompt).toMatch(/Please pay 42 EUR by Friday/i);
    expect(run.prompt).not.toContain('<b>');
    // Fenced as untrusted data, each field on its own.
    expect(run.prompt).toMatch(/written by someone else/);

    const fires = (await t.api('GET', `/api/automations/${made.id}/fires`)).body.fires;
    expect(fires.map((fire: { event: string }) => fire.event)).toEqual(['Mail from Ann Example <ann@example.org>: "Invoice 42"']);
    // The message that was there before the automation is the baseline: it never runs.
    expect((await runsOf(t, made.id)).length).toBe(1);
    expect((await settled(t, run.id)).status).toBe('succeeded');
    expect(await dovecot.flagsOf(uid, { user: 'ann' })).not.toContain('\\Seen');
  });

  it('lists attachments with their sizes in {{event}}', async () => {
    const made = await automation(t, { trigger: mailTrigger('hal'), prompt: 'All: {{event}}' });
    await listening(t, made.id);
    await dovecot.append(mailMessage({ subject: 'Scan', text: 'See attached.', attachment: { filename: 'scan.png', contentType: 'image/png', content: Buffer.alloc(2048, 1) } }), { user: 'hal' });
    const [run] = await runCount(t, made.id, 1);
    expect(run.prompt).toContain('"filename": "scan.png"');
    expect(run.prompt).toContain('"contentType": "image/png"');
    expect(run.prompt).toContain('"size": 2048');
    expect(run.prompt).toContain('See attached.');
  });

  it('reads at most 10 MB of a message, and says so in the event', async () => {
    const made = await automation(t, { trigger: mailTrigger('kim'), prompt: 'Subject {{event.subject}} size {{event.size}} note {{event.truncated}} text {{event.text}}' });
    await listening(t, made.id);
    const huge = Buffer.alloc(11 * 1024 * 1024, 3);
    await dovecot.append(mailMessage({ subject: '=?UTF-8?B?' + Buffer.from('Grüße, big one').toString('base64') + '?=', text: 'The start survives.', attachment: { filename: 'huge.bin', contentType: 'application/octet-stream', content: huge } }), { user: 'kim' });
    const [run] = await runCount(t, made.id, 1, 30_000);
    expect(run.prompt).toContain('Grüße, big one');
    expect(run.prompt).toContain('The start survives.');
    expect(run.prompt).toMatch(/The message is 15\.\d MB; only its first 10\.0 MB were read/);
  }, 40_000);

  it('runs each of 20 messages that came while Steward was off once at start, and none again after another restart', async () => {
    const dataDir = tempDir();
    let core = await startCore(dataDir);
    const own = (await core.api('POST', '/api/instances', { name: 'h', agent: { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'cat >/dev/null; echo ok'] } })).body.instance.id;
    const made = await automation(core, { trigger: mailTrigger('bob'), instanceId: own });
    await listening(core, made.id);
    await closeKeepingData(core);

    for (let i = 1; i <= 20; i++) await dovecot.append(mailMessage({ subject: `Offline ${i}` }), { user: 'bob' });
    core = await startCore(dataDir);
    const runs = await runCount(core, made.id, 20, 30_000);
    expect(runs.map((run) => /Offline (\d+)/.exec(run.prompt)![1]).sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 20 }, (_, i) => String(i + 1)));
    const states = (await core.api('GET', `/api/automations/${made.id}/fires?limit=100`)).body.fires.map((fire: { state: string }) => fire.state);
    expect(states).toEqual(Array(20).fill('caught-up'));
    // A run still running when Steward stops is queued once more at start (the runner's rule,
    // not the source's): the runs end first, so that a run more can only be a replay.
    for (const run of runs) await settled(core, run.id, 30_000);
    await closeKeepingData(core);

    core = await startCore(dataDir);
    await listening(core, made.id);
    // Listening means the first look is done; a replay would have queued its runs in that look.
    await quietFor(1000);
    expect((await runsOf(core, made.id)).length).toBe(20);
    await core.close();
  }, 90_000);

  it('is failing while Dovecot is down (killed mid-IDLE), raises the notices, and runs what was delivered meanwhile once', async () => {
    const own = await createTestDovecot({ users: { ivy: 'pw-ivy' } });
    await own.start();
    try {
      expect((await t.api('PUT', '/api/secrets/mail-ivy', { value: 'pw-ivy' })).status).toBe(200);
      const made = await automation(t, { trigger: { mail: { host: '127.0.0.1', port: own.port, tls: false, user: 'ivy', password: 'mail-ivy' } } });
      await listening(t, made.id);
      await own.append(mailMessage({ subject: 'Before the crash' }), { user: 'ivy' });
      await runCount(t, made.id, 1);

      await own.kill();
      const failing = await waitFor(() => sourceOf(t, made.id), { what: 'the source to fail', until: (source) => source.state === 'failing' && source.failures >= 3, timeoutMs: 10_000 });
      expect(failing.error).toMatch(/^127\.0\.0\.1:\d+(?: closed the connection|: connect ECONNREFUSED)/);
      // Delivered while the server is down, as a mail delivery agent writes into the maildir.
      const maildir = path.join(own.dir, 'home/ivy/Maildir/new');
      for (let i = 1; i <= 3; i++) {
        const file = path.join(maildir, `${Date.now()}.M${i}P1.test`);
        fs.writeFileSync(file, mailMessage({ subject: `Meanwhile ${i}` }).replace(/\r\n/g, '\n'));
        fs.chownSync(file, 65534, 65534);
      }
      // The suite waits 10 s, not the 60: the backoff is 300 ms here, so 10 s is thirty
      // failed attempts already; the default backoff (capped at 30 s) reconnects within 30 s of
      // the server's return however long it was gone, and the watchdog needs a NOOP a minute.
      await quietFor(10_000);
      expect((await sourceOf(t, made.id)).state).toBe('failing');
      await own.start();
      await listening(t, made.id, 15_000);
      const runs = await runCount(t, made.id, 4);
      await quietFor(1000);
      const subjects = (await runsOf(t, made.id)).map((run) => /Before the crash|Meanwhile \d/.exec(run.prompt)?.[0]).sort();
      expect(subjects).toEqual(['Before the crash', 'Meanwhile 1', 'Meanwhile 2', 'Meanwhile 3']);
      expect(runs.length).toBe(4);

      const feed = (await t.api('GET', '/api/activity?kinds=system&limit=1000')).body.events as { raw: string }[];
      const notices = feed.map((line) => noticeOf(line.raw)).filter((notice) => notice?.automationId === made.id).map((notice) => notice!.kind);
      expect(notices).toEqual(['automation-unhealthy', 'automation-recovered']);
    } finally {
      await own.remove();
    }
  }, 90_000);

  it('polls a server without IDLE', async () => {
    const own = await createTestDovecot({ users: { jo: 'pw-jo' }, idle: false });
    await own.start();
    try {
      expect((await t.api('PUT', '/api/secrets/mail-jo', { value: 'pw-jo' })).status).toBe(200);
      const made = await automation(t, { trigger: { mail: { host: '127.0.0.1', port: own.port, tls: false, user: 'jo', password: 'mail-jo', pollSeconds: 10 } } });
      expect((await listening(t, made.id)).how).toBe('polled every 10 s');
      await own.append(mailMessage({ subject: 'Polled' }), { user: 'jo' });
      const [run] = await runCount(t, made.id, 1, 20_000);
      expect(run.prompt).toContain('Polled');
    } finally {
      await own.remove();
    }
  }, 40_000);

  it("fails with the server's words on a wrong password", async () => {
    expect((await t.api('PUT', '/api/secrets/mail-wrong', { value: 'not-the-password' })).status).toBe(200);
    const made = await automation(t, { trigger: { mail: { host: '127.0.0.1', port: dovecot.port, tls: false, user: 'cat', password: 'mail-wrong' } } });
    const source = await waitFor(() => sourceOf(t, made.id), { what: 'the source to fail', until: (found) => found.state === 'failing' });
    expect(source.error).toBe(`127.0.0.1:${dovecot.port} refused the login of cat: [AUTHENTICATIONFAILED] Authentication failed.`);
  });

  it('runs only the messages its filter lets through; the others are skipped fires', async () => {
    const made = await automation(t, { trigger: mailTrigger('dan', { filter: [{ field: 'from', contains: 'boss@example.org' }] }) });
    await listening(t, made.id);
    await dovecot.append(mailMessage({ from: 'Spam <spam@example.net>', subject: 'Cheap' }), { user: 'dan' });
    await dovecot.append(mailMessage({ from: 'The Boss <BOSS@example.org>', subject: 'Report due' }), { user: 'dan' });
    const fires = await waitFor(async () => (await t.api('GET', `/api/automations/${made.id}/fires`)).body.fires as { state: string; event: string }[], { what: 'two fires', until: (found) => found.length >= 2 });
    expect(fires.map((fire) => [fire.state, fire.event]).sort()).toEqual([
      ['fired', 'Mail from The Boss <BOSS@example.org>: "Report due"'],
      ['skipped', 'Mail from Spam <spam@example.net>: "Cheap"'],
    ]);
    const runs = await runsOf(t, made.id);
    expect(runs.length).toBe(1);
    expect(runs[0].prompt).toContain('Report due');
  });

  it('marks the message read after its run succeeds (afterRun mark-read)', async () => {
    const made = await automation(t, { trigger: mailTrigger('eve', { afterRun: 'mark-read' }) });
    await listening(t, made.id);
    const uid = await dovecot.append(mailMessage({ subject: 'Read me' }), { user: 'eve' });
    const [run] = await runCount(t, made.id, 1);
    expect((await settled(t, run.id)).status).toBe('succeeded');
    await waitFor(() => dovecot.flagsOf(uid, { user: 'eve' }), { what: 'the message to be \\Seen', until: (flags) => flags?.includes('\\Seen') === true });
  });

  it('leaves a message whose run failed unread, even with mark-read', async () => {
    const failing = (await t.api('POST', '/api/instances', { name: 'failing', agent: { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'cat >/dev/null; exit 3'] } })).body.instance.id;
    const made = await automation(t, { trigger: mailTrigger('gil', { afterRun: 'mark-read' }), instanceId: failing });
    await listening(t, made.id);
    const uid = await dovecot.append(mailMessage({ subject: 'Fails' }), { user: 'gil' });
    const [run] = await runCount(t, made.id, 1);
    expect((await settled(t, run.id)).status).toBe('failed');
    // The after-run step is started when the run ends; a mark would be there within this second.
    await quietFor(1500);
    expect(await dovecot.flagsOf(uid, { user: 'gil' })).not.toContain('\\Seen');
  });

  it('moves the message after its run succeeds (afterRun move)', async () => {
    const client = await dovecot.connect('fay');
    await client.mailboxCreate('Done');
    await client.logout();
    const made = await automation(t, { trigger: mailTrigger('fay', { afterRun: 'move', moveTo: 'Done' }) });
    await listening(t, made.id);
    const uid = await dovecot.append(mailMessage({ subject: 'Move me' }), { user: 'fay' });
    const [run] = await runCount(t, made.id, 1);
    expect((await settled(t, run.id)).status).toBe('succeeded');
    await waitFor(() => dovecot.flagsOf(uid, { user: 'fay' }), { what: 'the message to leave INBOX', until: (flags) => flags === undefined });
    const moved = await dovecot.connect('fay');
    try {
      const box = await moved.mailboxOpen('Done', { readOnly: true });
      expect(box.exists).toBe(1);
    } finally {
      await moved.logout();
    }
  });

  it("previews the last day's messages, newest first, without moving anything", async () => {
    const old = new Date(Date.now() - 3 * 24 * 3600_000);
    const client = await dovecot.connect('cat');
    await client.append('INBOX', mailMessage({ subject: 'Three days old', date: old }), [], old);
    await client.logout();
    await dovecot.append(mailMessage({ subject: 'Recent one' }), { user: 'cat' });
    await dovecot.append(mailMessage({ subject: 'Recent two' }), { user: 'cat' });
    const preview = await t.api('POST', '/api/automations/preview', { trigger: mailTrigger('cat') });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.events.map((event: { summary: string }) => event.summary)).toEqual(['Mail from Ann Example <ann@example.org>: "Recent two"', 'Mail from Ann Example <ann@example.org>: "Recent one"']);

    const wrong = await t.api('POST', '/api/automations/preview', { trigger: { mail: { ...mailTrigger('cat').mail, password: 'mail-wrong' } } });
    expect(wrong.status).toBeGreaterThanOrEqual(400);
    expect(wrong.body.error.message).toContain('[AUTHENTICATIONFAILED] Authentication failed.');
  });

  it('takes a new baseline when the mailbox was renumbered while Steward was off: nothing replayed', async () => {
    const dataDir = tempDir();
    let core = await startCore(dataDir);
    const own = (await core.api('POST', '/api/instances', { name: 'h', agent: { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'cat >/dev/null; echo ok'] } })).body.instance.id;
    const setup = await dovecot.connect('bob');
    await setup.mailboxCreate('Work');
    await setup.logout();
    const made = await automation(core, { trigger: mailTrigger('bob', { mailbox: 'Work' }), instanceId: own });
    await listening(core, made.id);
    await dovecot.append(mailMessage({ subject: 'Work 1' }), { user: 'bob', mailbox: 'Work' });
    await settled(core, (await runCount(core, made.id, 1))[0].id);
    await closeKeepingData(core);

    // Deleted and made again: a new UIDVALIDITY, its UIDs counting from 1 again.
    const client = await dovecot.connect('bob');
    await client.mailboxDelete('Work');
    await client.mailboxCreate('Work');
    await client.logout();
    for (const subject of ['Again 1', 'Again 2']) await dovecot.append(mailMessage({ subject }), { user: 'bob', mailbox: 'Work' });

    core = await startCore(dataDir);
    await listening(core, made.id);
    await quietFor(1000);
    expect((await runsOf(core, made.id)).length).toBe(1);
    await dovecot.append(mailMessage({ subject: 'After renumbering' }), { user: 'bob', mailbox: 'Work' });
    const runs = await runCount(core, made.id, 2);
    expect(runs[0].prompt).toContain('After renumbering');
    await core.close();
  }, 60_000);
});

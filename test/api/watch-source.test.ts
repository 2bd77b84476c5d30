// The watch source on real folders with a real core: bursts, slow writers, renames, deletes, globs,
// filters, batches, and a folder deleted and made again while watched. Runs only queue (the default
// instance's agent is not needed): what counts is each run's fire and the event in its prompt.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Automation, SourceHealth } from '../../src/shared/contract';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { type TestCore, startTestCore, tempDir } from '../support/core';
import { quietFor, waitFor } from '../support/wait';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore({ clock: systemClock, sourceBackoffMs: () => 200 });
});
afterAll(() => t.close());

const prompt = 'Look at {{event.relativePath}} ({{event.change}}, {{event.size}} bytes)';

async function watchAutomation(watch: Record<string, unknown>, extra: Record<string, unknown> = {}, core = t): Promise<Automation> {
  const response = await core.api('POST', '/api/automations', { name: `watch ${Math.random()}`, prompt, trigger: { watch }, ...extra });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.automation;
}

const sourceOf = async (id: string, core = t): Promise<SourceHealth> => (await core.api('GET', `/api/automations/${id}`)).body.automation.source;
const listening = (id: string, core = t) => waitFor(() => sourceOf(id, core), { what: 'the source to listen', until: (source) => source?.state === 'listening' });

interface FireRow {
  event_key: string;
  state: string;
  reason: string | null;
  event: string;
  run_id: string | null;
  prompt: string | null;
}
const firesOf = (id: string, core = t): FireRow[] =>
  core.core.store.db.prepare<[string], FireRow>('SELECT f.event_key, f.state, f.reason, f.event, f.run_id, r.prompt FROM fires f LEFT JOIN runs r ON r.id = f.run_id WHERE f.automation_id = ? ORDER BY f.due_at, f.event_key').all(id);
const runCount = (id: string, core = t): number => core.core.store.db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM runs WHERE source_id = ?').get(id)!.n;
const cursorOf = (id: string) => t.core.store.sourceState.entries(id, 'f:');

/** A run per fire, and never two fires of one key with a run. */
function expectNoneTwice(id: string) {
  const keys = firesOf(id).filter((fire) => fire.run_id !== null).map((fire) => fire.event_key);
  expect(new Set(keys).size).toBe(keys.length);
  expect(runCount(id)).toBe(keys.length);
}

describe('a folder watched per file', () => {
  it('takes 1,000 files created in a burst as 1,000 runs, none twice, and nothing for the files there before', async () => {
    const folder = tempDir('steward-watch-');
    for (let i = 0; i < 5; i++) fs.writeFileSync(path.join(folder, `before-${i}.txt`), 'old');
    const automation = await watchAutomation({ path: folder, settleMs: 300, debounceMs: 100 });
    await listening(automation.id);
    expect(cursorOf(automation.id).size).toBe(5);

    // Each file written whole at once, 100 at a time with the event loop served between: a burst to
    // the kernel's queue, without a file left empty for longer than settleMs by a busy thread pool.
    for (let i = 0; i < 1000; i++) {
      fs.writeFileSync(path.join(folder, `file-${String(i).padStart(4, '0')}.txt`), `content ${i}`);
      if (i % 100 === 99) await new Promise((resolve) => setImmediate(resolve));
    }
    await waitFor(() => runCount(automation.id), { what: '1,000 runs', until: (n) => n >= 1000, timeoutMs: 60_000 });
    // Longer than settle and debounce together several times over: a second take would have come by now.
    await quietFor(1500);
    expect(runCount(automation.id)).toBe(1000);
    expectNoneTwice(automation.id);
    const fires = firesOf(automation.id);
    expect(fires.every((fire) => fire.state === 'fired' && fire.event_key.startsWith('created:file-'))).toBe(true);
    expect(fires.some((fire) => fire.event_key.includes('before-'))).toBe(false);
    const one = fires.find((fire) => fire.event_key.startsWith('created:file-0042.txt:'))!;
    expect(one.event).toBe(`file-0042.txt created in ${folder}`);
    expect(one.prompt).toContain('file-0042.txt');
    expect(one.prompt).toMatch(new RegExp(`\n${'content 42'.length}\n-----END`));
    expect(cursorOf(automation.id).size).toBe(1005);
    expect((await sourceOf(automation.id)).how).toMatch(/^watching \d+ files in 1 folder$/);
  }, 90_000);

  it('takes a file written slowly once, after it kept still for settleMs, with its final size', async () => {
    const folder = tempDir('steward-watch-');
    const automation = await watchAutomation({ path: folder, settleMs: 1000, debounceMs: 100 });
    await listening(automation.id);
    const file = path.join(folder, 'slow.csv');
    let written = 0;
    // Appends every 300 ms for about 2.4 s: each pause is shorter than settleMs.
    for (let step = 0; step < 8; step++) {
      fs.appendFileSync(file, `line ${step}\n`);
      written += `line ${step}\n`.length;
      expect(runCount(automation.id), `a run before the writer finished (step ${step})`).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    const finished = Date.now();
    await waitFor(() => runCount(automation.id), { what: 'the run of the slow file', until: (n) => n >= 1 });
    await quietFor(1500);
    const fires = firesOf(automation.id);
    expect(fires.map((fire) => fire.event_key)).toEqual([`created:slow.csv:${fs.statSync(file).mtimeMs}`]);
    expect(fires[0].prompt).toMatch(new RegExp(`\n${written}\n-----END`));
    expect(t.core.store.db.prepare<[string], { created_at: string }>('SELECT created_at FROM runs WHERE id = ?').get(fires[0].run_id!)!.created_at >= new Date(finished - 300).toISOString()).toBe(true);
  }, 30_000);

  it('takes a rename as the old path deleted and the new one created, and a delete when on', async () => {
    const folder = tempDir('steward-watch-');
    const automation = await watchAutomation({ path: folder, settleMs: 200, debounceMs: 50, on: ['created', 'deleted'] });
    await listening(automation.id);
    fs.writeFileSync(path.join(folder, 'draft.md'), 'hello');
    await waitFor(() => runCount(automation.id), { what: 'the created run', until: (n) => n === 1 });
    fs.renameSync(path.join(folder, 'draft.md'), path.join(folder, 'final.md'));
    await waitFor(() => runCount(automation.id), { what: 'the rename runs', until: (n) => n === 3 });
    fs.rmSync(path.join(folder, 'final.md'));
    await waitFor(() => runCount(automation.id), { what: 'the delete run', until: (n) => n === 4 });
    await quietFor(800);
    const events = firesOf(automation.id).map((fire) => fire.event);
    expect(events).toEqual([`draft.md created in ${folder}`, expect.stringMatching(/ in /), expect.stringMatching(/ in /), `final.md deleted in ${folder}`]);
    expect(events.slice(1, 3).sort()).toEqual([`draft.md deleted in ${folder}`, `final.md created in ${folder}`]);
    expect(firesOf(automation.id).find((fire) => fire.event.startsWith('final.md deleted'))!.prompt).toMatch(/\ndeleted\n[^]*\n5\n-----END/);
    expect(cursorOf(automation.id).size).toBe(0);
    expectNoneTwice(automation.id);
  }, 30_000);

  it('runs nothing for a delete or a change unless on says so, and still keeps its cursor true', async () => {
    const folder = tempDir('steward-watch-');
    fs.writeFileSync(path.join(folder, 'a.txt'), 'a');
    fs.writeFileSync(path.join(folder, 'b.txt'), 'b');
    const automation = await watchAutomation({ path: folder, settleMs: 100, debounceMs: 50 });
    await listening(automation.id);
    fs.rmSync(path.join(folder, 'a.txt'));
    fs.writeFileSync(path.join(folder, 'b.txt'), 'b changed');
    await waitFor(() => cursorOf(automation.id), { what: 'the cursor to follow', until: (cursor) => !cursor.has('f:a.txt') && cursor.get('f:b.txt')?.startsWith('9:') === true });
    expect(runCount(automation.id)).toBe(0);
    expect(firesOf(automation.id)).toEqual([]);
  }, 30_000);

  it('counts only files the glob matches, in subfolders too, made or moved in, and no hidden file or link', async () => {
    const folder = tempDir('steward-watch-');
    const outside = tempDir('steward-watch-outside-');
    fs.writeFileSync(path.join(outside, 'secret.pdf'), 'outside');
    const automation = await watchAutomation({ path: folder, glob: '**/*.pdf', settleMs: 200, debounceMs: 50 });
    await listening(automation.id);
    fs.writeFileSync(path.join(folder, 'a.pdf'), 'a');
    fs.writeFileSync(path.join(folder, 'a.txt'), 'a');
    fs.writeFileSync(path.join(folder, '.hidden.pdf'), 'h');
    fs.mkdirSync(path.join(folder, 'sub/deeper'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'sub/deeper/b.pdf'), 'b');
    // A folder made elsewhere and moved in whole: no notice for its files, only for itself.
    const staged = tempDir('steward-watch-staged-');
    fs.mkdirSync(path.join(staged, 'moved/inner'), { recursive: true });
    fs.writeFileSync(path.join(staged, 'moved/c.pdf'), 'c');
    fs.writeFileSync(path.join(staged, 'moved/inner/d.pdf'), 'd');
    fs.renameSync(path.join(staged, 'moved'), path.join(folder, 'moved'));
    fs.symlinkSync(outside, path.join(folder, 'link-to-outside'));
    fs.symlinkSync(path.join(outside, 'secret.pdf'), path.join(folder, 'linked.pdf'));
    await waitFor(() => runCount(automation.id), { what: 'the four PDFs', until: (n) => n >= 4 });
    await quietFor(1000);
    expect(firesOf(automation.id).map((fire) => fire.event_key.split(':')[1]).sort()).toEqual(['a.pdf', 'moved/c.pdf', 'moved/inner/d.pdf', 'sub/deeper/b.pdf']);
    expect(fs.readFileSync(path.join(outside, 'secret.pdf'), 'utf8')).toBe('outside');
  }, 30_000);

  it('records a file its filter passes over as skipped, reason filter, and runs the ones it lets through', async () => {
    const folder = tempDir('steward-watch-');
    const automation = await watchAutomation({ path: folder, settleMs: 100, debounceMs: 50, filter: [{ field: 'name', contains: 'invoice' }] });
    await listening(automation.id);
    fs.writeFileSync(path.join(folder, 'Invoice-7.pdf'), 'x');
    fs.writeFileSync(path.join(folder, 'holiday.jpg'), 'y');
    await waitFor(() => firesOf(automation.id), { what: 'two fires', until: (fires) => fires.length === 2 });
    const fires = firesOf(automation.id);
    expect(fires.find((fire) => fire.event.startsWith('Invoice-7.pdf'))).toMatchObject({ state: 'fired' });
    expect(fires.find((fire) => fire.event.startsWith('holiday.jpg'))).toMatchObject({ state: 'skipped', reason: 'filter', run_id: null });
    expect(runCount(automation.id)).toBe(1);
  }, 30_000);
});

describe('a folder watched per batch', () => {
  it('takes 1,000 files created in a burst as one run naming them all', async () => {
    const folder = tempDir('steward-watch-');
    const automation = await watchAutomation({ path: folder, settleMs: 500, debounceMs: 2000, per: 'batch' }, { prompt: 'Batch: {{event.count}} files' });
    await listening(automation.id);
    for (let i = 0; i < 1000; i++) {
      fs.writeFileSync(path.join(folder, `batch-${i}.txt`), `b${i}`);
      if (i % 100 === 99) await new Promise((resolve) => setImmediate(resolve));
    }
    await waitFor(() => runCount(automation.id), { what: 'the batch run', until: (n) => n >= 1, timeoutMs: 30_000 });
    await quietFor(3000);
    const fires = firesOf(automation.id);
    expect(fires).toHaveLength(1);
    expect(fires[0].event).toBe(`1000 files created in ${folder}`);
    expect(fires[0].event_key).toMatch(/^batch:[0-9a-f]{32}$/);
    expect(fires[0].prompt).toContain('1000');
    expect(runCount(automation.id)).toBe(1);
  }, 60_000);

  it('applies the filter to each file of a batch: only the passing files are in it', async () => {
    const folder = tempDir('steward-watch-');
    const automation = await watchAutomation({ path: folder, settleMs: 200, debounceMs: 500, per: 'batch', filter: [{ field: 'name', contains: 'invoice' }] }, { prompt: 'Files: {{event.name}}' });
    await listening(automation.id);
    for (const name of ['invoice-1.pdf', 'invoice-2.pdf', 'photo.jpg']) fs.writeFileSync(path.join(folder, name), name);
    await waitFor(() => runCount(automation.id), { what: 'the batch run', until: (n) => n >= 1 });
    await quietFor(1000);
    const fires = firesOf(automation.id);
    expect(fires.map((fire) => fire.event)).toEqual([`2 files created in ${folder}`]);
    expect(fires[0].prompt).toContain('invoice-1.pdf');
    expect(fires[0].prompt).not.toContain('photo.jpg');
  }, 30_000);
});

describe('a watched folder that goes away', () => {
  it('is failing with the reason while gone, listens again once made again, and runs nothing twice', async () => {
    const parent = tempDir('steward-watch-');
    const folder = path.join(parent, 'Invoices');
    fs.mkdirSync(folder);
    const automation = await watchAutomation({ path: folder, settleMs: 100, debounceMs: 50 });
    await listening(automation.id);
    fs.writeFileSync(path.join(folder, 'one.pdf'), '1');
    await waitFor(() => runCount(automation.id), { what: 'the first run', until: (n) => n === 1 });

    fs.rmSync(folder, { recursive: true });
    const failing = await waitFor(() => sourceOf(automation.id), { what: 'the source to fail', until: (source) => source.state === 'failing' });
    expect(failing.error).toBe(`${folder} does not exist`);

    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'two.pdf'), '2');
    await listening(automation.id);
    await waitFor(() => runCount(automation.id), { what: 'the run of the new file', until: (n) => n === 2 });
    await quietFor(1000);
    expect(firesOf(automation.id).map((fire) => fire.event_key.split(':').slice(0, 2).join(':'))).toEqual(['created:one.pdf', 'created:two.pdf']);
    expectNoneTwice(automation.id);
  }, 60_000);

  it('says why it cannot start on a folder that is not there, or is a file', async () => {
    const parent = tempDir('steward-watch-');
    const missing = await watchAutomation({ path: path.join(parent, 'nope') });
    const failing = await waitFor(() => sourceOf(missing.id), { what: 'the source to fail', until: (source) => source.state === 'failing' });
    expect(failing.error).toBe(`${path.join(parent, 'nope')} does not exist`);
    fs.writeFileSync(path.join(parent, 'file'), 'x');
    const file = await watchAutomation({ path: path.join(parent, 'file') });
    expect((await waitFor(() => sourceOf(file.id), { what: 'the source to fail', until: (source) => source.state === 'failing' })).error).toBe(`${path.join(parent, 'file')} is not a folder`);
  }, 30_000);
});

describe('a folder that appears after the automation was made', () => {
  it('takes what it holds then as the baseline (no run), and runs for what comes after', async () => {
    const parent = tempDir('steward-watch-');
    const folder = path.join(parent, 'Later');
    const automation = await watchAutomation({ path: folder, settleMs: 100, debounceMs: 50 });
    await waitFor(() => sourceOf(automation.id), { what: 'the source to fail', until: (source) => source.state === 'failing' });
    fs.mkdirSync(folder);
    for (let i = 0; i < 3; i++) fs.writeFileSync(path.join(folder, `there-${i}.txt`), 'x');
    await listening(automation.id);
    expect(cursorOf(automation.id).size).toBe(3);
    fs.writeFileSync(path.join(folder, 'after.txt'), 'y');
    await waitFor(() => runCount(automation.id), { what: 'the run of the new file', until: (n) => n >= 1 });
    await quietFor(500);
    expect(firesOf(automation.id).map((fire) => fire.event)).toEqual([`after.txt created in ${folder}`]);
  }, 30_000);
});

describe('preview', () => {
  it('lists the matching files changed in the last 24 hours, newest first, and not older ones', async () => {
    const folder = tempDir('steward-watch-');
    const now = Date.now() / 1000;
    for (const [name, ageSeconds] of [['old.pdf', 3 * 86_400], ['new.pdf', 60], ['newer.pdf', 10], ['note.txt', 5]] as const) {
      fs.writeFileSync(path.join(folder, name), name);
      fs.utimesSync(path.join(folder, name), now - ageSeconds, now - ageSeconds);
    }
    const response = await t.api('POST', '/api/automations/preview', { trigger: { watch: { path: folder, glob: '*.pdf', on: ['created', 'changed'] } } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.events.map((event: { summary: string }) => event.summary)).toEqual([`newer.pdf created in ${folder}`, `new.pdf created in ${folder}`]);
  });
});

describe('across a restart', () => {
  it('handles each change made while Steward was off once at start (catch-up all), and runs none with skip', async () => {
    let core = await startTestCore({ clock: systemClock, sourceBackoffMs: () => 200 });
    const dataDir = core.dataDir;
    try {
      const folders = [tempDir('steward-watch-all-'), tempDir('steward-watch-skip-')];
      for (const folder of folders) for (const name of ['kept.txt', 'gone.txt', 'edited.txt']) fs.writeFileSync(path.join(folder, name), name);
      const on = ['created', 'changed', 'deleted'];
      const all = await watchAutomation({ path: folders[0], on, settleMs: 200, debounceMs: 50 }, {}, core);
      const skip = await watchAutomation({ path: folders[1], on, settleMs: 200, debounceMs: 50 }, { catchUp: 'skip' }, core);
      await listening(all.id, core);
      await listening(skip.id, core);
      await core.core.close();

      for (const folder of folders) {
        fs.writeFileSync(path.join(folder, 'new.txt'), 'made while off');
        fs.appendFileSync(path.join(folder, 'edited.txt'), ' and more');
        fs.rmSync(path.join(folder, 'gone.txt'));
      }
      core = await startTestCore({ clock: systemClock, dataDir, sourceBackoffMs: () => 200 });
      await waitFor(() => runCount(all.id, core), { what: 'three caught-up runs', until: (n) => n >= 3 });
      await waitFor(() => firesOf(skip.id, core), { what: 'three missed fires', until: (fires) => fires.length >= 3 });
      await quietFor(1000);
      const caughtUp = firesOf(all.id, core);
      expect(caughtUp.map((fire) => fire.event_key.split(':').slice(0, 2).join(':')).sort()).toEqual(['changed:edited.txt', 'created:new.txt', 'deleted:gone.txt']);
      expect(caughtUp.every((fire) => fire.state === 'caught-up' && fire.run_id !== null)).toBe(true);
      expect(firesOf(skip.id, core).map((fire) => [fire.state, fire.reason])).toEqual([['missed', 'steward_off'], ['missed', 'steward_off'], ['missed', 'steward_off']]);
      expect(runCount(skip.id, core)).toBe(0);

      // Once more with nothing changed: nothing found, nothing run again.
      await core.core.close();
      core = await startTestCore({ clock: systemClock, dataDir, sourceBackoffMs: () => 200 });
      await listening(all.id, core);
      await listening(skip.id, core);
      await quietFor(1000);
      expect(firesOf(all.id, core)).toHaveLength(3);
      expect(runCount(all.id, core)).toBe(3);
      expect(firesOf(skip.id, core)).toHaveLength(3);
    } finally {
      await core.close();
    }
  }, 60_000);
});

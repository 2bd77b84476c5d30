// The git source against real repositories made with the git CLI: a local repository watched (a run
// per push with its commits, a merge, a force-push, a filter on the author), Steward off while
// pushes land, and what a wrong path or a missing branch says. Remotes: git-source-remote.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { type TestCore, startTestCore, tempDir } from '../support/core';
import { ada, bob, commitFiles, gitIn, repoPair, tipOf } from '../support/git-repos';
import { createGit, eventIn, failing, fast, firesOf, listening, runCount, runsOf } from '../support/git-source';
import { waitFor } from '../support/wait';

describe('git source, a local repository', () => {
  let t: TestCore;
  beforeAll(async () => {
    t = await startTestCore({ clock: systemClock, sourceBackoffMs: fast });
  });
  afterAll(() => t.close());

  it('runs once per push with the range, authors, messages and changed files; a merge; a force-push said so', async () => {
    const { origin, work } = repoPair();
    const first = tipOf(origin);
    const id = await createGit(t, { repository: origin, branch: 'main' });
    await listening(t, id);
    // The baseline: nothing runs for what was there.
    expect(await runsOf(t, id)).toHaveLength(0);

    commitFiles(work, { 'src/a.ts': 'a\n' }, 'Add a\n\nWith a body line.', ada);
    commitFiles(work, { 'src/b.ts': 'b\n', 'docs/b.md': 'b\n' }, 'Add b', bob);
    const third = commitFiles(work, { 'src/a.ts': 'a2\n' }, 'Change a', ada);
    gitIn(work, ['push', '--quiet', 'origin', 'main']);
    const [push] = await runCount(t, id, 1);
    const event = eventIn(push.prompt);
    expect(event).toMatchObject({ branch: 'main', before: first, after: third, range: `${first}..${third}`, forced: false, count: 3 });
    expect(event.commits.map((commit: { message: string }) => commit.message)).toEqual(['Add a\n\nWith a body line.', 'Add b', 'Change a']);
    expect(event.commits[1]).toMatchObject({ author: 'Bob Builder', email: 'bob@example.com', files: ['docs/b.md', 'src/b.ts'] });
    expect(event.commits[0].date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(event.authors).toEqual(['Ada Lovelace <ada@example.com>', 'Bob Builder <bob@example.com>']);
    expect(event.messages).toEqual(['Add a', 'Add b', 'Change a']);
    expect(push.prompt).toContain('-----END UNTRUSTED DATA');
    expect((await firesOf(t, id)).at(-1)).toMatchObject({ state: 'fired', event: expect.stringMatching(/^3 commits pushed to main of .*origin\.git$/), runId: push.id });

    // A merge: the side branch's commit and the merge, each with its files (the merge's against main).
    gitIn(work, ['checkout', '--quiet', '-b', 'side', 'HEAD~1']);
    commitFiles(work, { 'side.txt': 'side\n' }, 'Side work', bob);
    gitIn(work, ['checkout', '--quiet', 'main']);
    gitIn(work, ['merge', '--quiet', '--no-ff', '-m', 'Merge side', 'side'], ada);
    const merge = tipOf(work);
    gitIn(work, ['push', '--quiet', 'origin', 'main']);
    const merged = eventIn((await runCount(t, id, 2))[1].prompt);
    expect(merged).toMatchObject({ before: third, after: merge, forced: false, count: 2, messages: ['Side work', 'Merge side'] });
    expect(merged.commits[1]).toMatchObject({ sha: merge, files: ['side.txt'] });
    expect(merged.commits[1].parents).toHaveLength(2);

    // A force-push: history rewritten under the branch.
    gitIn(work, ['reset', '--quiet', '--hard', third]);
    const rewritten = commitFiles(work, { 'src/c.ts': 'c\n' }, 'Instead of the merge', bob);
    gitIn(work, ['push', '--quiet', '--force', 'origin', 'main']);
    const [, , forcedRun] = await runCount(t, id, 3);
    const forced = eventIn(forcedRun.prompt);
    expect(forced).toMatchObject({ before: merge, after: rewritten, forced: true, count: 1, messages: ['Instead of the merge'] });
    expect((await firesOf(t, id)).at(-1)!.event).toMatch(/^force-pushed main of .*: 1 new commit$/);
  });

  it('watches a working repository: each commit is a move, packed refs too, and {{event.x}} fills the prompt', async () => {
    const { work } = repoPair();
    const id = await createGit(t, { repository: work, branch: 'main' }, 'Range {{event.range}} by {{event.author}}: {{event.messages}}');
    await listening(t, id);
    const before = tipOf(work);
    const after = commitFiles(work, { 'x.txt': 'x\n' }, 'Commit in place', bob);
    const [run] = await runCount(t, id, 1);
    expect(run.prompt).toContain(`${before}..${after}`);
    expect(run.prompt).toContain('Bob Builder <bob@example.com>');
    expect(run.prompt).toContain('Commit in place');
    // The ref packed away, then moved: the loose file is gone and packed-refs holds it.
    gitIn(work, ['pack-refs', '--all']);
    const packed = commitFiles(work, { 'y.txt': 'y\n' }, 'After packing', ada);
    gitIn(work, ['pack-refs', '--all']);
    expect(fs.existsSync(path.join(work, '.git/refs/heads/main'))).toBe(false);
    const runs = await runCount(t, id, 2);
    expect(runs[1].prompt).toContain(`${after}..${packed}`);
  });

  it('passes over pushes whose authors the filter leaves out, each recorded skipped', async () => {
    const { origin, work } = repoPair();
    const id = await createGit(t, { repository: origin, branch: 'main', filter: [{ field: 'author', contains: 'ada' }] });
    await listening(t, id);
    commitFiles(work, { 'bob.txt': 'b\n' }, 'Bob alone', bob);
    gitIn(work, ['push', '--quiet', 'origin', 'main']);
    const skipped = await waitFor(() => firesOf(t, id), { what: 'the filtered push', until: (fires) => fires.length === 1 });
    expect(skipped[0]).toMatchObject({ state: 'skipped', reason: 'filter', runId: null });
    expect(skipped[0].detail).toContain('Bob Builder');
    commitFiles(work, { 'ada.txt': 'a\n' }, 'Ada now', ada);
    gitIn(work, ['push', '--quiet', 'origin', 'main']);
    const [run] = await runCount(t, id, 1);
    expect(eventIn(run.prompt).messages).toEqual(['Ada now']);
    expect(await runsOf(t, id)).toHaveLength(1);
  });

  it('follows a branch deleted (failing, in words) and made again (the commits since the last one handled)', async () => {
    const { origin, work } = repoPair();
    const id = await createGit(t, { repository: origin, branch: 'main' });
    await listening(t, id);
    const before = tipOf(origin);
    gitIn(origin, ['update-ref', '-d', 'refs/heads/main']);
    expect((await failing(t, id, 30_000)).error).toMatch(/There is no branch "main" in .*origin\.git/);
    const after = commitFiles(work, { 'again.txt': 'a\n' }, 'Made again', ada);
    gitIn(work, ['push', '--quiet', 'origin', 'main']);
    const [run] = await runCount(t, id, 1);
    expect(eventIn(run.prompt)).toMatchObject({ range: `${before}..${after}`, forced: false, messages: ['Made again'] });
    expect((await listening(t, id)).failures).toBe(0);
  });

  it('reads file names that hold newlines or look like commits as names, and lists the newest 100 of a long push', async () => {
    const { origin, work } = repoPair();
    const id = await createGit(t, { repository: origin, branch: 'main' });
    await listening(t, id);
    const shaLike = tipOf(work);
    commitFiles(work, { [shaLike]: 'x\n', 'line\nbreak.txt': 'y\n', '\nleading.txt': 'z\n' }, 'Odd names', bob);
    commitFiles(work, { 'plain.txt': 'p\n' }, 'Plain', ada);
    gitIn(work, ['push', '--quiet', 'origin', 'main']);
    const odd = eventIn((await runCount(t, id, 1))[0].prompt);
    expect(odd.messages).toEqual(['Odd names', 'Plain']);
    expect([...odd.commits[0].files].sort()).toEqual(['\nleading.txt', 'line\nbreak.txt', shaLike].sort());
    expect(odd.commits[1].files).toEqual(['plain.txt']);

    for (let n = 1; n <= 104; n += 1) gitIn(work, ['commit', '--quiet', '--allow-empty', '-m', `Empty ${n}`], ada);
    gitIn(work, ['push', '--quiet', 'origin', 'main']);
    const long = eventIn((await runCount(t, id, 2))[1].prompt);
    expect(long.count).toBe(104);
    expect(long.commits).toHaveLength(100);
    expect(long.messages[0]).toBe('Empty 5');
    expect(long.messages.at(-1)).toBe('Empty 104');
    expect((await firesOf(t, id)).at(-1)!.event).toMatch(/^104 commits pushed to main of .*origin\.git \(the newest 100 listed\)$/);
  });

  it('fails with git\'s words for a folder that is not a repository, and with clear words for a missing branch', async () => {
    const missing = await createGit(t, { repository: path.join(tempDir(), 'nowhere'), branch: 'main' });
    expect((await failing(t, missing)).error).toMatch(/cannot change to .*nowhere.*No such file or directory/);
    const plain = await createGit(t, { repository: tempDir(), branch: 'main' });
    expect((await failing(t, plain)).error).toMatch(/not a git repository/);
    const { origin } = repoPair();
    const noBranch = await createGit(t, { repository: origin, branch: 'release' });
    expect((await failing(t, noBranch)).error).toMatch(/There is no branch "release" in .*origin\.git/);
  });

  it('previews the branch\'s commits of the last 24 h, newest first', async () => {
    const { origin, work } = repoPair();
    commitFiles(work, { 'p.txt': 'p\n' }, 'Preview me', bob);
    gitIn(work, ['push', '--quiet', 'origin', 'main']);
    const response = await t.api('POST', '/api/automations/preview', { trigger: { git: { repository: origin } } });
    expect(response.status, response.text).toBe(200);
    const summaries = response.body.events.map((event: { summary: string }) => event.summary);
    expect(summaries).toHaveLength(2);
    expect(summaries[0]).toMatch(/^[0-9a-f]{7} on main of .*origin\.git by Bob Builder: Preview me$/);
    expect(summaries[1]).toContain('First commit');
  });
});

describe('git source across a restart', () => {
  it('handles two pushes made while Steward was off once, as one range, and not again after another restart', async () => {
    const dataDir = tempDir();
    const { origin, work } = repoPair();
    let t = await startTestCore({ clock: systemClock, sourceBackoffMs: fast, dataDir });
    const id = await createGit(t, { repository: origin, branch: 'main' });
    await listening(t, id);
    const before = tipOf(origin);
    await t.core.close();

    commitFiles(work, { 'one.txt': '1\n' }, 'While off, one', ada);
    gitIn(work, ['push', '--quiet', 'origin', 'main']);
    const after = commitFiles(work, { 'two.txt': '2\n' }, 'While off, two', bob);
    gitIn(work, ['push', '--quiet', 'origin', 'main']);

    t = await startTestCore({ clock: systemClock, sourceBackoffMs: fast, dataDir });
    const [run] = await runCount(t, id, 1);
    expect(eventIn(run.prompt)).toMatchObject({ range: `${before}..${after}`, count: 2, messages: ['While off, one', 'While off, two'] });
    expect((await firesOf(t, id)).map((fire) => fire.state)).toEqual(['caught-up']);
    await listening(t, id);
    await t.core.close();

    t = await startTestCore({ clock: systemClock, sourceBackoffMs: fast, dataDir });
    const health = await listening(t, id);
    expect(health.failures).toBe(0);
    expect(await runsOf(t, id)).toHaveLength(1);
    expect(await firesOf(t, id)).toHaveLength(1);
    await t.close();
  });
});

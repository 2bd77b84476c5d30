// End to end at 390 px, in real Chromium against a real daemon: a person opens Settings →
// Configuration, exports steward.yaml (the download's text is read: every resource, no secret, no
// token), chooses a changed copy to apply, sees the diff of the dry run (a long line scrolls inside
// its box), confirms, and finds the automation changed in Automations, "from steward.yaml". Then a
// folder (a git checkout) is set in the section; its automation is edited and "Write back" puts the
// change in the file on disk. And Apply by keyboard alone: Tab to choose, Tab to confirm. The page
// never scrolls sideways. Screenshots go to test-artifacts/.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifacts, useE2e } from '../support/e2e';
import { tempDir } from '../support/temp';
import { focusedName, sidewaysScroll } from '../support/page-reading';

const e2e = useE2e({ name: 'config-files', context: { viewport: { width: 390, height: 844 }, acceptDownloads: true } });
const { skip, api } = e2e;
let page: Page;
let work: string;

const signingSecret = 'e2e-signing-secret-never-exported';
const longWord = 'x'.repeat(400);

type Globals = { document: { activeElement: unknown } };
const tabTo = async (name: string, most = 20) => {
  for (let step = 0; step < most && (await focusedName(page)) !== name; step += 1) await page.keyboard.press('Tab');
  expect(await focusedName(page)).toBe(name);
};
const openConfiguration = async () => {
  await page.goto(new URL('/#/settings', e2e.daemon.url).href);
  const section = page.getByRole('region', { name: 'Configuration' });
  await section.scrollIntoViewIfNeeded({ timeout: 20_000 });
  return section;
};

beforeAll(async () => {
  if (skip) return;
  ({ page } = e2e);
  work = tempDir('steward-e2e-config-');
  await api('POST', '/api/automations', { name: 'Nightly report', prompt: 'Write the nightly report.', cronExpression: '0 9 * * *', timezone: 'UTC' });
  await api('POST', '/api/webhooks', { name: 'Deploys', promptTemplate: 'A deploy: {{payload}}', signature: { scheme: 'github', secret: signingSecret } });
});
afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe.skipIf(skip)('configuration as files, by a person at 390 px', () => {
  it('exports, applies a changed copy after its diff, and the automation says where it came from', async () => {
    const section = await openConfiguration();
    const downloading = page.waitForEvent('download');
    await section.getByRole('button', { name: 'Export steward.yaml' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('steward.yaml');
    // The browser runs in another process: its download is copied here to be read.
    const saved = path.join(work, 'downloaded-steward.yaml');
    await download.saveAs(saved);
    const exported = fs.readFileSync(saved, 'utf8');
    // What the API exports, joined as one YAML stream in its order.
    const { files } = await api<{ files: { path: string; text: string }[] }>('GET', '/api/config/export');
    expect(exported).toBe(files.map((file) => file.text).join('---\n'));
    expect(exported).toContain('name: Nightly report');
    expect(exported).toContain('kind: webhook');
    expect(exported).not.toContain(signingSecret);
    const { webhooks } = await api<{ webhooks: { token: string }[] }>('GET', '/api/webhooks');
    expect(exported).not.toContain(webhooks[0].token);
    expect(await section.getByTestId('export-held').textContent()).toBe('steward.yaml: 3 resources: 1 instance, 1 automation, 1 webhook');

    // A changed copy: a new schedule, and a prompt with a line far wider than a phone.
    const changed = exported.replace('0 9 * * *', '30 6 * * *').replace('Write the nightly report.', `Write the nightly report. ${longWord}`);
    expect(changed).not.toBe(exported);
    const copy = path.join(work, 'steward.yaml');
    fs.writeFileSync(copy, changed);
    const choosing = page.waitForEvent('filechooser');
    await section.getByRole('button', { name: 'Choose YAML files…' }).click();
    const chooser = await choosing;
    expect(chooser.isMultiple()).toBe(true);
    await chooser.setFiles(copy);
    const plan = section.getByTestId('config-plan');
    await expect.poll(() => plan.textContent().catch(() => ''), { timeout: 20_000 }).toContain('Dry run, nothing changed yet:');
    const change = plan.getByRole('listitem', { name: 'change automation Nightly report' });
    const diff = change.getByLabel('What changes in automation Nightly report');
    expect(await diff.locator('[data-line="removed"]').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('0 9 * * *')]));
    expect(await diff.locator('[data-line="added"]').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('30 6 * * *'), expect.stringContaining(longWord)]));
    // Nothing changed yet; the long line wraps inside the diff (all of it in view on a phone), and the page does not widen.
    const before = await api<{ automations: { name: string; cronExpression: string }[] }>('GET', '/api/automations');
    expect(before.automations.find((each) => each.name === 'Nightly report')?.cronExpression).toBe('0 9 * * *');
    expect(await diff.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    const longLine = diff.locator('[data-line="added"]', { hasText: longWord });
    expect((await longLine.boundingBox())!.height).toBeGreaterThan(40);
    expect(await sidewaysScroll(page), 'sideways scroll with the diff').toBeLessThanOrEqual(0);
    await section.screenshot({ path: path.join(artifacts, 'config-files-390-dry-run.png') });

    // The prune choices, clicked: the file names every resource, so pruning what came from it deletes nothing.
    await section.getByRole('radio', { name: 'Delete what came from these files before and they no longer name' }).click();
    await expect.poll(() => section.getByTestId('config-plan').first().textContent().catch(() => ''), { timeout: 20_000 }).toContain('1 to change');
    expect(await section.getByTestId('config-plan').first().textContent()).not.toContain('to delete');
    await section.getByRole('radio', { name: 'Keep everything the files do not name' }).click();
    await expect.poll(() => section.getByTestId('config-plan').first().textContent().catch(() => ''), { timeout: 20_000 }).toContain('1 to change');
    await section.getByRole('button', { name: 'Apply these changes' }).click();
    await expect.poll(() => section.getByTestId('config-plan').first().textContent(), { timeout: 20_000 }).toContain('Applied:');
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: /^Menu/ }).click();
    await page.getByRole('link', { name: 'Automations' }).click();
    const card = page.getByRole('article', { name: 'Nightly report' });
    await expect.poll(() => card.locator('code').first().textContent(), { timeout: 10_000 }).toBe('30 6 * * *');
    await expect.poll(() => card.getByTestId('from-file').textContent(), { timeout: 10_000 }).toBe('from steward.yaml');
    expect(await sidewaysScroll(page), 'sideways scroll on Automations').toBeLessThanOrEqual(0);
  }, 90_000);

  it('watches a folder set in the section; an edit of its automation, written back, is in the file', async () => {
    const folder = path.join(work, 'steward-config');
    fs.mkdirSync(path.join(folder, 'automations'), { recursive: true });
    const file = path.join(folder, 'automations', 'tidy.yaml');
    fs.writeFileSync(file, 'kind: automation\nname: Tidy inbox\nprompt: Archive what is older than a week.\ncronExpression: "0 8 * * 1"\n');
    const git = (...args: string[]) => execFileSync('git', ['-C', folder, '-c', 'user.name=e2e', '-c', 'user.email=e2e@example.com', ...args], { encoding: 'utf8' }).trim();
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'tidy');
    const commit = git('rev-parse', 'HEAD');

    const section = await openConfiguration();
    await section.getByLabel('Folder', { exact: true }).fill(folder);
    await section.getByRole('button', { name: 'Save folder' }).click();
    const last = section.getByTestId('folder-last-applied');
    await expect.poll(() => last.textContent().catch(() => ''), { timeout: 20_000 }).toContain(commit.slice(0, 7));
    expect(await last.textContent()).toContain('1 to add');
    expect(await sidewaysScroll(page), 'sideways scroll with the folder').toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(artifacts, 'config-files-390-folder.png'), fullPage: true });

    await page.goto(new URL('/#/automations', e2e.daemon.url).href);
    const card = page.getByRole('article', { name: 'Tidy inbox' });
    await expect.poll(() => card.getByTestId('from-file').textContent().catch(() => ''), { timeout: 20_000 }).toBe('from …/steward-config/automations/tidy.yaml');
    expect(await card.getByTestId('from-file').getAttribute('title')).toBe(file);
    await card.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Edit Tidy inbox' });
    await form.getByLabel('Prompt', { exact: true }).fill('Archive what is older than two weeks.');
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Save Tidy inbox?' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.textContent()).toContain(`This automation comes from ${file}.`);
    expect(await dialog.evaluate((element) => element.contains((globalThis as unknown as Globals).document.activeElement as typeof element))).toBe(true);
    expect(await sidewaysScroll(page), 'sideways scroll with the question').toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(artifacts, 'config-files-390-write-back.png'), fullPage: false });
    await dialog.getByRole('button', { name: 'Write the change back to the file' }).click();
    await expect.poll(() => fs.readFileSync(file, 'utf8'), { timeout: 10_000 }).toContain('Archive what is older than two weeks.');
    expect(fs.readFileSync(file, 'utf8')).toContain('kind: automation');
    await expect.poll(() => form.isVisible()).toBe(false);
    const { automations } = await api<{ automations: { name: string; prompt: string }[] }>('GET', '/api/automations');
    expect(automations.find((each) => each.name === 'Tidy inbox')?.prompt).toBe('Archive what is older than two weeks.');
    // Still from its file, and the folder's next look leaves the edit in force.
    expect(await card.getByTestId('from-file').textContent()).toBe('from …/steward-config/automations/tidy.yaml');

    // Cancel in the question saves nothing; Detach saves and lets the file go (the file keeps what it held).
    const editTo = async (prompt: string) => {
      await card.getByRole('button', { name: 'Edit' }).click();
      await form.getByLabel('Prompt', { exact: true }).fill(prompt);
      await form.getByRole('button', { name: 'Save', exact: true }).click();
      await expect.poll(() => dialog.isVisible()).toBe(true);
    };
    await editTo('Archive everything.');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    const promptOf = async () => (await api<{ automations: { name: string; prompt: string }[] }>('GET', '/api/automations')).automations.find((each) => each.name === 'Tidy inbox')?.prompt;
    expect(await promptOf()).toBe('Archive what is older than two weeks.');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await editTo('Archive what is older than a month.');
    await dialog.getByRole('button', { name: 'Detach it from the file' }).click();
    await expect.poll(() => card.getByTestId('from-file').count(), { timeout: 10_000 }).toBe(0);
    expect(await promptOf()).toBe('Archive what is older than a month.');
    expect(fs.readFileSync(file, 'utf8')).toContain('Archive what is older than two weeks.');
    expect(await sidewaysScroll(page), 'sideways scroll after detaching').toBeLessThanOrEqual(0);

    // Stop watching: the section forgets the folder, and so does Steward.
    const again = await openConfiguration();
    await again.getByRole('button', { name: 'Stop watching' }).click();
    await expect.poll(() => again.getByTestId('folder-state').count(), { timeout: 10_000 }).toBe(0);
    expect((await api<{ config: { folder: string | null } }>('GET', '/api/config')).config.folder).toBeNull();
  }, 90_000);

  it('applies by keyboard alone: Tab to choose the files, Tab to confirm', async () => {
    const { files } = await api<{ files: { path: string; text: string }[] }>('GET', '/api/config/export?kind=automation&name=Nightly%20report');
    const changed = path.join(work, 'nightly.yaml');
    fs.writeFileSync(changed, files[0].text.replace('30 6 * * *', '45 7 * * *'));
    const section = await openConfiguration();
    await section.getByRole('button', { name: 'Export steward.yaml' }).focus();
    // Listened for before the keys: Playwright turns on Chromium's file chooser interception without
    // waiting, and on a loaded machine an Enter pressed at once could open the chooser before it.
    const choosing = page.waitForEvent('filechooser');
    await tabTo('Choose YAML files…');
    await page.keyboard.press('Enter');
    await (await choosing).setFiles(changed);
    await expect.poll(() => section.getByTestId('config-plan').textContent().catch(() => ''), { timeout: 20_000 }).toContain('1 to change');
    await tabTo('Apply these changes');
    await page.keyboard.press('Enter');
    await expect.poll(() => section.getByTestId('config-plan').textContent().catch(() => ''), { timeout: 20_000 }).toContain('Applied:');
    // The focus is on what happened, not lost to the page.
    expect(await page.evaluate(() => ((globalThis as unknown as Globals).document.activeElement as { textContent: string }).textContent)).toContain('Applied:');
    const { automations } = await api<{ automations: { name: string; cronExpression: string }[] }>('GET', '/api/automations');
    expect(automations.find((each) => each.name === 'Nightly report')?.cronExpression).toBe('45 7 * * *');
    expect(await sidewaysScroll(page), 'sideways scroll after applying').toBeLessThanOrEqual(0);
  }, 90_000);
});

// @vitest-environment jsdom
// Settings → Configuration and the question before an edit of a resource from a file, with Testing
// Library on a real core: a chosen file's dry run shows its diff and changes nothing until
// confirmed; a refused file lists each file:line:col problem and changes nothing; the watched
// folder shows its last apply (commit and summary) or its error; automation, webhook and instance
// cards say "from <file>"; an edit asks Write back / Detach / Cancel (a dialog that takes the
// focus, Escape cancels), and a write-back that cannot be done (an upload's file) says why and
// offers Detach.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigSection } from '../../src/renderer/src/features/config/ConfigSection';
import { configProblems, exportWords, oneYaml, shortPath } from '../../src/renderer/src/features/config/config-slice';
import { Automations } from '../../src/renderer/src/features/automations/Automations';
import { Instances } from '../../src/renderer/src/features/instances/Instances';
import { Webhooks } from '../../src/renderer/src/features/webhooks/Webhooks';
import { Toasts } from '../../src/renderer/src/ui/Toasts';
import { type TestCore, startTestCore, tempDir } from '../support/core';
import { connectStore, renderWith } from './harness';

let t: TestCore;
let folder: string;
beforeAll(async () => {
  t = await startTestCore();
  folder = tempDir('steward-config-ui-');
});
afterAll(async () => {
  await t.close();
  fs.rmSync(folder, { recursive: true, force: true });
});
afterEach(cleanup);

const automationNamed = async (name: string) => ((await t.api('GET', '/api/automations')).body.automations as { id: string; name: string; prompt: string }[]).find((each) => each.name === name);
const managed = async () => (await t.api('GET', '/api/config')).body.config.managed as { id: string; file: string }[];
const chooseFiles = (files: File[]) => fireEvent.change(screen.getByTestId('config-files'), { target: { files } });

describe('the pure parts', () => {
  it('counts an export by kind, joins it as one YAML stream and shortens paths', () => {
    const files = [{ path: 'instances/a.yaml', text: 'kind: instance\nname: a\n' }, { path: 'automations/b.yaml', text: 'kind: automation\nname: b' }, { path: 'automations/c.yaml', text: 'x: 1\n' }];
    expect(exportWords(files)).toBe('3 resources: 1 instance, 2 automations');
    expect(exportWords([])).toBe('0 resources');
    expect(oneYaml(files)).toBe('kind: instance\nname: a\n---\nkind: automation\nname: b\n---\nx: 1\n');
    expect(shortPath('/home/me/cfg/automations/triage.yaml', '/home/me/cfg')).toBe('…/cfg/automations/triage.yaml');
    expect(shortPath('/home/me/other/automations/triage.yaml', '/home/me/cfg')).toBe('…/automations/triage.yaml');
    expect(shortPath('/home/me/cfgx/a.yaml', '/home/me/cfg')).toBe('…/cfgx/a.yaml');
    expect(shortPath('triage.yaml', null)).toBe('triage.yaml');
    expect(configProblems('The configuration was not applied; nothing changed:\na.yaml:3:5: bad\nb.yaml:1:1: worse')).toEqual(['a.yaml:3:5: bad', 'b.yaml:1:1: worse']);
  });
});

describe('Settings → Configuration', () => {
  it('shows a chosen file as a dry run (its diff, nothing changed), applies it only when confirmed, and warns before pruning everything', async () => {
    const { automation } = (await t.api('POST', '/api/automations', { name: 'Triage', prompt: 'Look at the old queue.', cronExpression: '0 9 * * *' })).body;
    await t.api('POST', '/api/automations', { name: 'Stray', prompt: 'Made by hand.', cronExpression: '@daily' });
    const exported = (await t.api('GET', '/api/config/export?kind=automation&name=Triage')).body.files[0].text as string;
    expect(exported).toContain('Look at the old queue.');
    const { store, disconnect } = connectStore(t);
    await store.getState().loadConfig();
    renderWith(store, <><ConfigSection /><Toasts /></>);
    chooseFiles([new File([exported.replace('Look at the old queue.', 'Look at the new queue.')], 'triage.yaml', { type: 'application/yaml' })]);
    const plan = await screen.findByTestId('config-plan');
    expect(plan.textContent).toContain('Dry run, nothing changed yet:');
    expect(plan.textContent).toContain('1 to change');
    const change = within(plan).getByRole('listitem', { name: 'change automation Triage' });
    const diff = within(change).getByLabelText('What changes in automation Triage');
    expect(diff.tagName).toBe('PRE');
    expect([...diff.querySelectorAll('[data-line="removed"]')].map((line) => line.textContent)).toEqual([expect.stringContaining('Look at the old queue.')]);
    expect([...diff.querySelectorAll('[data-line="added"]')].map((line) => line.textContent)).toEqual([expect.stringContaining('Look at the new queue.')]);
    expect(diff.querySelector('.removed')?.textContent).toMatch(/^-/);
    expect(screen.getByTestId('chosen-files').textContent).toBe('triage.yaml');
    // The dry run changed nothing.
    expect((await automationNamed('Triage'))?.prompt).toBe('Look at the old queue.');
    // Everything not named: a warning, and the plan again with the deletes it would make (the default instance stays).
    fireEvent.click(screen.getByRole('radio', { name: /Delete everything the files do not name/ }));
    await waitFor(() => expect(screen.getByText(/Everything these files do not name is deleted/)).toBeTruthy());
    expect(await screen.findByRole('listitem', { name: 'delete automation Stray' })).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: 'Keep everything the files do not name' }));
    // The plan again (it is cleared while asked for): the change, without the delete.
    await waitFor(() => {
      expect(screen.getByRole('listitem', { name: 'change automation Triage' })).toBeTruthy();
      expect(screen.queryByRole('listitem', { name: 'delete automation Stray' })).toBeNull();
    });
    fireEvent.click(screen.getByRole('button', { name: 'Apply these changes' }));
    await waitFor(() => expect(screen.getByTestId('config-plan').textContent).toContain('Applied:'));
    expect((await automationNamed('Triage'))?.prompt).toBe('Look at the new queue.');
    expect(await automationNamed('Stray')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Apply these changes' })).toBeNull();
    // It came from that file now, and the store knows it.
    expect((await managed()).find((each) => each.id === automation.id)?.file).toBe('triage.yaml');
    await waitFor(() => expect(store.getState().managedOf(automation.id)?.file).toBe('triage.yaml'));
    disconnect();
  });

  it('lists each problem of a refused file by file, line and column, and says nothing changed', async () => {
    const { store, disconnect } = connectStore(t);
    await store.getState().loadConfig();
    renderWith(store, <ConfigSection />);
    const before = (await t.api('GET', '/api/automations')).body.automations.length;
    chooseFiles([
      new File(['kind: automation\nname: Broken\nprompt: hi\ncronExpression: "61 * * * *"\n'], 'broken.yaml'),
      new File(['kind: automation\nname: Odd\nprompt: hi\ncronExpression: "@daily"\ncolour: blue\n'], 'odd.yml'),
    ]);
    const refusal = await screen.findByTestId('config-problems');
    expect(refusal.getAttribute('role')).toBe('alert');
    expect(refusal.textContent).toContain('Nothing changed');
    const problems = within(refusal).getAllByRole('listitem').map((item) => item.textContent);
    expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(/^broken\.yaml:4:\d+: /), expect.stringMatching(/^odd\.yml:5:\d+: /)]));
    expect(screen.queryByRole('button', { name: 'Apply these changes' })).toBeNull();
    expect((await t.api('GET', '/api/automations')).body.automations.length).toBe(before);
    disconnect();
  });

  it('applies a folder when saved, shows its commit and summary, then its error (the last good state stays)', async () => {
    fs.mkdirSync(path.join(folder, 'automations'), { recursive: true });
    const file = path.join(folder, 'automations', 'sweep.yaml');
    fs.writeFileSync(file, 'kind: automation\nname: Sweep\nprompt: Sweep the floor.\ncronExpression: "0 7 * * *"\n');
    const git = (...args: string[]) => execFileSync('git', ['-C', folder, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { encoding: 'utf8' }).trim();
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'sweep');
    const commit = git('rev-parse', 'HEAD');
    const { store, disconnect } = connectStore(t);
    await store.getState().loadConfig();
    renderWith(store, <><ConfigSection /><Toasts /></>);
    const form = screen.getByRole('form', { name: 'Configuration folder' });
    const field = within(form).getByLabelText('Folder');
    fireEvent.change(field, { target: { value: 'relative/path' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save folder' }));
    expect(within(form).getByText(/Enter the folder’s absolute path/)).toBeTruthy();
    expect((await t.api('GET', '/api/config')).body.config.folder).toBeNull();
    fireEvent.change(field, { target: { value: folder } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save folder' }));
    const last = await within(form).findByTestId('folder-last-applied', {}, { timeout: 10_000 });
    expect(last.textContent).toContain(commit.slice(0, 7));
    expect(last.textContent).not.toContain(commit.slice(0, 8));
    expect(last.textContent).toContain('1 to add');
    expect((await automationNamed('Sweep'))?.prompt).toBe('Sweep the floor.');
    // A broken file: refused, said in red, the automation as it was.
    fs.writeFileSync(file, 'kind: automation\nname: Sweep\nprompt: Sweep the floor twice.\ncronExpression: "not a cron"\n');
    const error = await within(form).findByTestId('folder-error', {}, { timeout: 15_000 });
    expect(error.getAttribute('role')).toBe('alert');
    expect(error.textContent).toContain('the last good state stays in force');
    expect(within(error).getAllByRole('listitem').map((item) => item.textContent)).toEqual([expect.stringMatching(new RegExp(`sweep\\.yaml:4:\\d+: `))]);
    expect((await automationNamed('Sweep'))?.prompt).toBe('Sweep the floor.');
    // Fixed: the error goes by itself (the section reads the state again every few seconds).
    fs.writeFileSync(file, 'kind: automation\nname: Sweep\nprompt: Sweep the floor.\ncronExpression: "0 7 * * *"\n');
    await waitFor(() => expect(within(form).queryByTestId('folder-error')).toBeNull(), { timeout: 15_000 });
    disconnect();
  }, 40_000);
});

describe('an edit of a resource from a file', () => {
  it('asks first: Escape and Cancel save nothing, Write back writes the file, Detach lets it go', async () => {
    const sweep = (await automationNamed('Sweep'))!;
    const file = path.join(folder, 'automations', 'sweep.yaml');
    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadConfig(), store.getState().loadAutomations(), store.getState().loadInstances()]);
    renderWith(store, <><Automations /><Toasts /></>);
    const card = screen.getByRole('article', { name: 'Sweep' });
    const from = within(card).getByTestId('from-file');
    expect(from.textContent).toBe(`from …/${path.basename(folder)}/automations/sweep.yaml`);
    expect(from.getAttribute('title')).toBe(file);
    const edit = async (prompt: string) => {
      fireEvent.click(within(screen.getByRole('article', { name: 'Sweep' })).getByRole('button', { name: 'Edit' }));
      const form = screen.getByRole('form', { name: 'Edit Sweep' });
      fireEvent.change(within(form).getByLabelText('Prompt'), { target: { value: prompt } });
      fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
      const dialog = await screen.findByRole('dialog', { name: 'Save Sweep?' });
      expect(dialog.textContent).toContain(`This automation comes from ${file}.`);
      await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
      return { form, dialog };
    };
    // Escape: nothing saved, the form still open.
    const { form } = await edit('Sweep it all.');
    fireEvent.keyDown(window, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('form', { name: 'Edit Sweep' })).toBe(form);
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((await automationNamed('Sweep'))?.prompt).toBe('Sweep the floor.');
    fireEvent.click(within(form).getByRole('button', { name: 'Cancel' }));
    // Write back: saved, and the file holds it.
    let { dialog } = await edit('Sweep the floor and the stairs.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Write the change back to the file' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit Sweep' })).toBeNull());
    expect((await automationNamed('Sweep'))?.prompt).toBe('Sweep the floor and the stairs.');
    expect(fs.readFileSync(file, 'utf8')).toContain('Sweep the floor and the stairs.');
    expect(screen.getByTestId('toasts').textContent).toContain(`written back to ${file}`);
    expect(within(screen.getByRole('article', { name: 'Sweep' })).getByTestId('from-file')).toBeTruthy();
    // Detach: saved, no longer from the file, the file as it was.
    ({ dialog } = await edit('Sweep only the stairs.'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Detach it from the file' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit Sweep' })).toBeNull());
    expect((await automationNamed('Sweep'))?.prompt).toBe('Sweep only the stairs.');
    expect(fs.readFileSync(file, 'utf8')).toContain('Sweep the floor and the stairs.');
    expect((await managed()).some((each) => each.id === sweep.id)).toBe(false);
    await waitFor(() => expect(within(screen.getByRole('article', { name: 'Sweep' })).queryByTestId('from-file')).toBeNull());
    disconnect();
  }, 30_000);

  it('says an uploaded file has nothing here to write back to, and offers Detach alone', async () => {
    const triage = (await automationNamed('Triage'))!;
    expect((await managed()).find((each) => each.id === triage.id)).toMatchObject({ file: 'triage.yaml', writable: false });
    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadConfig(), store.getState().loadAutomations(), store.getState().loadInstances()]);
    renderWith(store, <><Automations /><Toasts /></>);
    fireEvent.click(within(screen.getByRole('article', { name: 'Triage' })).getByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('form', { name: 'Edit Triage' });
    fireEvent.change(within(form).getByLabelText('Prompt'), { target: { value: 'Look at the whole queue.' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save Triage?' });
    expect(dialog.textContent).toContain('This automation came from triage.yaml, an upload: there is no file here to write the change back to.');
    expect(within(dialog).queryByRole('button', { name: 'Write the change back to the file' })).toBeNull();
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Detach it from the file'));
    expect((await automationNamed('Triage'))?.prompt).not.toBe('Look at the whole queue.');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Detach it from the file' })));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((await automationNamed('Triage'))?.prompt).toBe('Look at the whole queue.');
    expect((await managed()).some((each) => each.id === triage.id)).toBe(false);
    expect(screen.queryByRole('form', { name: 'Edit Triage' })).toBeNull();
    disconnect();
  });
});

describe('webhooks and instances from a file', () => {
  it('say so on their cards, and a rename of the instance asks first', async () => {
    const files = [
      { path: '/srv/steward-config/webhooks/hooked.yaml', text: 'kind: webhook\nname: Hooked\npromptTemplate: "Got {{payload}}"\n' },
      { path: '/srv/steward-config/instances/filed-box.yaml', text: 'kind: instance\nname: Filed box\nagent:\n  provider: command\n  preset: custom\n  command: sh\nsandbox:\n  mode: "off"\n' },
    ];
    const applied = await t.api('POST', '/api/config/apply', { files });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadConfig(), store.getState().loadWebhooks(), store.getState().loadInstances()]);
    renderWith(store, <><Webhooks /><Instances /><Toasts /></>);
    const hook = screen.getByRole('article', { name: 'Hooked' });
    expect(within(hook).getByTestId('from-file').textContent).toBe('from …/webhooks/hooked.yaml');
    expect(within(hook).getByTestId('from-file').getAttribute('title')).toBe(files[0].path);
    const box = screen.getByRole('article', { name: 'Filed box' });
    expect(within(box).getByTestId('from-file').textContent).toBe('from …/instances/filed-box.yaml');
    // An instance made here says nothing of the kind.
    const others = screen.getAllByRole('article').filter((card) => !['Hooked', 'Filed box'].includes(card.getAttribute('aria-label') ?? ''));
    expect(others.length).toBeGreaterThan(0);
    for (const card of others) expect(within(card).queryByTestId('from-file')).toBeNull();
    fireEvent.click(within(box).getByRole('button', { name: 'Rename' }));
    fireEvent.change(within(box).getByLabelText('New name'), { target: { value: 'Filed box 2' } });
    fireEvent.click(within(box).getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save Filed box?' });
    // Not a file on this machine: nothing to write back to, so Detach or Cancel.
    expect(dialog.textContent).toContain('This instance came from /srv/steward-config/instances/filed-box.yaml, an upload');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(((await t.api('GET', '/api/instances')).body.instances as { name: string }[]).map((each) => each.name)).toContain('Filed box');
    disconnect();
  });
});

describe('the folder, let go', () => {
  it('Stop watching stops it: the section says so, the API agrees', async () => {
    expect((await t.api('GET', '/api/config')).body.config.folder).toBe(fs.realpathSync(folder));
    const { store, disconnect } = connectStore(t);
    await store.getState().loadConfig();
    renderWith(store, <><ConfigSection /><Toasts /></>);
    const form = screen.getByRole('form', { name: 'Configuration folder' });
    expect(within(form).getByTestId('folder-state').textContent).toContain(`Watching ${fs.realpathSync(folder)}`);
    fireEvent.click(within(form).getByRole('button', { name: 'Stop watching' }));
    await waitFor(() => expect(within(form).queryByTestId('folder-state')).toBeNull());
    expect(within(form).queryByRole('button', { name: 'Stop watching' })).toBeNull();
    expect(within(form).getByLabelText<HTMLInputElement>('Folder').value).toBe('');
    expect((await t.api('GET', '/api/config')).body.config.folder).toBeNull();
    expect(screen.getByTestId('toasts').textContent).toContain('Stopped watching the folder.');
    disconnect();
  });
});

// The git source in the real daemon, killed with SIGKILL at any moment around a push: the cursor
// moves in the transaction that queues the run, so across the kills every pushed commit is in the
// event of exactly one run: none lost (the next start catches up), none twice.
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Run, SourceHealth } from '../../src/shared/contract';
import { tempDir } from '../support/core';
import { bob, commitFiles, gitIn, repoPair } from '../support/git-repos';
import { type Server, cliResult, startDaemon } from '../support/processes';
import { waitFor } from '../support/wait';

const dir = tempDir('steward-git-daemon-');
const repos = repoPair();
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(repos.parent, { recursive: true, force: true });
});

describe('the git source and kill -9', () => {
  it('puts every pushed commit in exactly one run across kills at any moment', async () => {
    const key = cliResult(['keys', 'create', '--name', 'ci', '--data-dir', dir]).stdout.trim().split('\n').at(-1)!;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    let daemon: Server = await startDaemon(dir);
    const api = async (method: string, route: string, body?: unknown) =>
      (await fetch(`${daemon.url}${route}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })).json() as Promise<any>;
    const listening = () =>
      waitFor(async () => (await api('GET', `/api/automations/${id}`)).automation.source as SourceHealth, { what: 'the git source to listen', until: (health) => health.state === 'listening' });

    const { automation } = await api('POST', '/api/automations', { name: 'On push', prompt: '{{event}}', trigger: { git: { repository: repos.origin } } });
    const id = automation.id as string;
    await listening();

    const pushed: string[] = [];
    // Kills at moments from "before the source looked" to "well after it handed the push over".
    for (const delayMs of [0, 400, 1500]) {
      const message = `Push after ${delayMs} ms`;
      commitFiles(repos.work, { 'n.txt': `${delayMs}\n` }, message, bob);
      gitIn(repos.work, ['push', '--quiet', 'origin', 'main']);
      pushed.push(message);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      daemon.process.kill('SIGKILL');
      await new Promise((resolve) => daemon.process.once('exit', resolve));
      daemon = await startDaemon(dir);
      await listening();
    }

    const runs = ((await api('GET', `/api/runs?source=automation&sourceId=${id}`)).runs as Run[]).reverse();
    const handled = runs.flatMap((run) => JSON.parse(run.prompt.slice(run.prompt.indexOf('{\n'), run.prompt.lastIndexOf('\n}') + 2)).messages as string[]);
    expect(handled).toEqual(pushed);
    const fires = (await api('GET', `/api/automations/${id}/fires`)).fires as { state: string }[];
    expect(fires).toHaveLength(runs.length);
    await daemon.stop();
  }, 120_000);
});

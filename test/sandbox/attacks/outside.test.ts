// Nothing of a run's runs outside (issue 29, "Why" 8 and "What to build" 8). Steward checks an agent
// before runs reach it (a preset's `--version`, ACP's initialize) at create, agent change, restart and
// start; a check that starts the CLI on the host with the workspace as its working folder runs what
// a run planted there. The stand-in CLI does what real ones do (reads its project's configuration
// from where it starts), so a planted ./.fake-cli/init.sh runs wherever the check runs it: never
// outside the sandbox, where it would leave its mark in a folder no sandbox may write.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Instance } from '../../../src/shared/contract';
import { lacks } from '../../support/requirements';
import { type Lab, fixture, openLab } from './lab';
import { waitFor } from '../../support/wait';

const skip = lacks('sandbox');
let lab: Lab;

beforeAll(async () => {
  if (skip) return;
  lab = await openLab();
});
afterAll(async () => {
  await lab?.close();
});

/** A folder of its own for each test's marks. */
const outsideFolder = () => fs.mkdtempSync(path.join(lab.outside, 'marks-'));
const marks = (folder: string) => fs.readdirSync(folder).filter((name) => name.startsWith('ran-outside-'));

function probed(instance: Instance): Promise<Instance> {
  const current = async () => (await lab.t.api('GET', `/api/instances/${instance.id}`)).body.instance as Instance;
  return waitFor(current, { what: `${instance.name} to be probed`, until: (each) => each.status !== 'provisioning' });
}

/** Each way Steward checks an agent again; after each, what ran outside. */
async function recheck(instance: Instance, agent: Record<string, unknown>, outside: string): Promise<Record<string, number>> {
  const seen: Record<string, number> = {};
  const triggers: [string, () => Promise<unknown>][] = [
    ['agent change', () => lab.t.api('PATCH', `/api/instances/${instance.id}`, { agent: { ...agent, timeoutSeconds: 120 } })],
    ['restart', () => lab.t.api('POST', `/api/instances/${instance.id}/restart`)],
    ['stop', () => lab.t.api('POST', `/api/instances/${instance.id}/stop`)],
    ['start', () => lab.t.api('POST', `/api/instances/${instance.id}/start`)],
  ];
  for (const [name, trigger] of triggers) {
    const response = (await trigger()) as { status: number; text: string };
    expect(response.status, `${name}: ${response.text}`).toBeLessThan(300);
    await probed(instance);
    seen[name] = marks(outside).length - Object.values(seen).reduce((sum, count) => sum + count, 0);
  }
  return seen;
}

describe.skipIf(skip)('a file a run planted in its workspace', () => {
  it("never runs outside when a preset's CLI is checked again (agent change, restart, stop and start)", async () => {
    const outside = outsideFolder();
    const agent = { provider: 'command', preset: 'claude-code', command: fixture('fake-agent-cli.sh'), env: { PROBE_OUTSIDE: outside } };
    const instance = await lab.instance(agent, { mode: 'sandbox' }, 'preset');
    const run = await lab.run(instance, 'plant-init');
    const planted = path.join(instance.workspaceDir, '.fake-cli/init.sh');
    expect(fs.existsSync(planted), `the run planted it (${run.status}: ${run.error ?? ''})`).toBe(true);
    expect(await recheck(instance, agent, outside), 'times it ran outside, by what checked the agent').toEqual({ 'agent change': 0, restart: 0, stop: 0, start: 0 });
    // Inside, it runs as the CLI runs it, and leaves no mark outside.
    await lab.run(instance, 'nothing');
    expect(marks(outside)).toEqual([]);
  });

  it("never runs outside when an ACP agent is checked again", async () => {
    const outside = outsideFolder();
    const agent = { provider: 'acp', command: fixture('fake-agent-cli.sh'), args: ['acp'], env: { PROBE_OUTSIDE: outside } };
    const instance = await lab.instance(agent, { mode: 'sandbox' }, 'acp');
    await probed(instance);
    // What a run of it could have written (this stand-in speaks no ACP, so the test writes it).
    const planted = path.join(instance.workspaceDir, '.fake-cli/init.sh');
    fs.mkdirSync(path.dirname(planted), { recursive: true });
    fs.writeFileSync(planted, `#!/bin/sh\nid -u > "${outside}/ran-outside-$$" 2>/dev/null\n`, { mode: 0o755 });
    expect(await recheck(instance, agent, outside), 'times it ran outside, by what checked the agent').toEqual({ 'agent change': 0, restart: 0, stop: 0, start: 0 });
  });
});

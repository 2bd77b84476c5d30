// @vitest-environment jsdom
// A host the sandbox refused, one click from allowed, on a real core: a sandboxed agent's curl to two
// hosts not given is refused; the run page's line and the activity feed's line each offer "Allow
// <host>", which adds the host to the instance's sandbox network (once) and says so in a toast. The
// helpers that read a denial back (from the feed's raw JSON, from the message text) are checked
// against what the core writes and against what it must not trip on.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { denialLine } from '../../src/main/core/sandbox/run-sandbox';
import { Toasts } from '../../src/renderer/src/ui/Toasts';
import { denialFromRaw, denialFromText, ruleFor } from '../../src/renderer/src/features/sandbox/sandbox';
import { Activity } from '../../src/renderer/src/features/activity/Activity';
import { RunView } from '../../src/renderer/src/features/runs/Run';
import type { Instance, Run } from '../../src/shared/contract';
import { type TestCore, startTestCore } from '../support/core';
import { lacks } from '../support/requirements';
import { settled } from '../support/runs';
import { connectStore, renderWith } from './harness';
// Beside testing-library's waitFor, which retries an assertion in the DOM: ours waits for a value of the core.
import { waitFor as waitForValue } from '../support/wait';

const skip = lacks('sandbox');
let t: TestCore;
let instance: Instance;
let run: Run;

const refusal = (host: string) => `The sandbox refused ${host}`;

beforeAll(async () => {
  if (skip) return;
  t = await startTestCore({ clock: systemClock });
  // Two hosts not given, through the sandbox's proxy (curl reads HTTPS_PROXY and HTTP_PROXY); no real network is needed to be refused.
  const script = 'curl -s -m 10 -o /dev/null https://evil.com/; curl -s -m 10 -o /dev/null http://other.example/; echo tried';
  const agent = { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', script] };
  // A name in the list makes the sandbox's proxy exist (with none, a custom command has no way out at all, and nothing to refuse).
  instance = (await t.api('POST', '/api/instances', { name: 'Fenced', agent, sandbox: { mode: 'sandbox', network: ['api.example.com'] } })).body.instance;
  await t.core.services.instances.idle();
  const created = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'fetch things' })).body.run as Run;
  run = await settled(t, created.id, 30_000);
  // The refusals are written as they happen, through the write batcher: wait until both are in the run's messages.
  const refusals = async () => ((await t.api('GET', `/api/runs/${run.id}/messages`)).body.messages as { content: string }[]).filter((message) => message.content.startsWith('The sandbox refused'));
  await waitForValue(refusals, { what: "the run's two refusals", until: (found) => found.length >= 2 });
}, 60_000);
afterAll(() => t?.close());
afterEach(cleanup);

const network = async () => (await t.api('GET', `/api/instances/${instance.id}`)).body.instance.sandbox.network as string[];

describe.skipIf(skip)('a host the sandbox refused', () => {
  it('is one click from allowed on the run page', async () => {
    const { store, disconnect } = connectStore(t);
    await store.getState().loadInstances();
    renderWith(store, <><RunView id={run.id} /><Toasts /></>);
    const transcript = await screen.findByRole('log', { name: 'Transcript' });
    await waitFor(() => expect(transcript.textContent).toContain(`${refusal('evil.com:443')}: it is not in this instance's network list.`));
    expect(within(transcript).getByRole('button', { name: 'Allow other.example' })).toBeTruthy();
    fireEvent.click(within(transcript).getByRole('button', { name: 'Allow evil.com' }));
    await waitFor(() => expect(screen.getByTestId('toasts').textContent).toContain('evil.com allowed for Fenced: its next runs can reach it.'));
    expect(await network()).toEqual(['api.example.com', 'evil.com']);
    // Allowed now: the line says so instead of offering it again.
    await waitFor(() => expect(within(transcript).queryByRole('button', { name: 'Allow evil.com' })).toBeNull());
    expect(transcript.textContent).toContain('evil.com is allowed now.');
    disconnect();
  });

  it('is one click from allowed in the activity feed, and never twice', async () => {
    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadInstances(), store.getState().loadActivity()]);
    renderWith(store, <><Activity /><Toasts /></>);
    const stream = await screen.findByRole('log', { name: 'Activity stream' });
    await waitFor(() => expect(stream.textContent).toContain(refusal('other.example:80')));
    expect(within(stream).queryByRole('button', { name: 'Allow evil.com' })).toBeNull();
    fireEvent.click(within(stream).getByRole('button', { name: 'Allow other.example' }));
    await waitFor(() => expect(screen.getByTestId('toasts').textContent).toContain('other.example allowed for Fenced'));
    expect(await network()).toEqual(['api.example.com', 'evil.com', 'other.example']);
    // Asked again (another window still showing the button), the host is not added twice.
    expect((await store.getState().allowHost(instance.id, 'evil.com')).added).toBe(false);
    expect(await network()).toEqual(['api.example.com', 'evil.com', 'other.example']);
    disconnect();
  });
});

describe('reading a denial back', () => {
  const denial = { host: 'evil.com', port: 443, why: "it is not in this instance's network list", allow: 'evil.com' };

  it('from the feed’s raw JSON and from the core’s own message text', () => {
    const raw = JSON.stringify({ type: 'system', runId: 'run_1', event: { type: 'sandbox.denied', ...denial } });
    expect(denialFromRaw(raw)).toEqual(denial);
    expect(denialFromText(denialLine(denial))).toEqual(denial);
    const machine = { host: '::ffff:7f00:1', port: 8080, why: 'it is this machine', allow: '127.0.0.1:8080' };
    expect(denialLine(machine)).toBe("The sandbox refused [::ffff:7f00:1]:8080: it is this machine. To allow it, add 127.0.0.1:8080 to the instance's sandbox network.");
    expect(denialFromText(denialLine(machine))).toEqual(machine);
    // Nothing would allow it: the line says why, and offers nothing.
    const never = { host: '169.254.169.254', port: 80, why: 'it is a link-local address' };
    expect(denialLine(never)).toBe('The sandbox refused 169.254.169.254:80: it is a link-local address.');
    expect(denialFromText(denialLine(never))).toEqual(never);
  });

  it('is nothing for lines that are not denials, or are malformed', () => {
    for (const raw of ['', 'not json', 'null', '[]', '{"event":null}', '{"event":{"type":"sandbox.denied","host":"a.com"}}', '{"event":{"type":"sandbox.denied","host":"a.com","port":70000}}', '{"event":{"type":"assistant","host":"a.com","port":443}}']) {
      expect(denialFromRaw(raw), raw).toBeUndefined();
    }
    expect(denialFromText('Run succeeded after 1.2 s')).toBeUndefined();
    expect(denialFromText('The sandbox refused everything, said the agent.')).toBeUndefined();
  });

  it('offers the fix the core named, and none where nothing would allow it', () => {
    expect(ruleFor(denial)).toBe('evil.com');
    expect(ruleFor({ host: '::1', port: 8080, why: '', allow: '127.0.0.1:8080' })).toBe('127.0.0.1:8080');
    expect(ruleFor({ host: '169.254.169.254', port: 80, why: '' })).toBeUndefined();
    expect(ruleFor({ host: '127.0.0.1', port: 7321, why: "it is Steward's own port" })).toBeUndefined();
    expect(ruleFor({ host: 'x', port: 80, why: '', allow: 'bad host' })).toBeUndefined();
  });
});

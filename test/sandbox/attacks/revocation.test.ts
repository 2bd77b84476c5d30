// A revoked key is gone everywhere at once (issue 29, "Also" and "What to build" 12): an event stream
// opened with a key ends when the key is revoked, and one opened with a run's key (which a run can
// print for an accomplice outside) ends when the run ends and its key is revoked. A new request with
// either key is refused: the stream is the part that outlived it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '../../../src/shared/contract';
import { lacks } from '../../support/requirements';
import { settled } from '../../support/runs';
import { type Lab, openLab } from './lab';
import { waitFor, within } from '../../support/wait';

const skip = lacks('sandbox');
let lab: Lab;

beforeAll(async () => {
  if (skip) return;
  lab = await openLab();
});
afterAll(async () => {
  await lab?.close();
});

/** GET /api/events with `key`; `ended` settles when the server ends the stream. */
async function openStream(key: string) {
  const controller = new AbortController();
  const response = await fetch(`${lab.t.url}/api/events`, { headers: { authorization: `Bearer ${key}` }, signal: controller.signal });
  const reader = response.body!.getReader();
  const ended = (async () => {
    try {
      while (!(await reader.read()).done);
    } catch {
      // aborted or cut: ended either way
    }
  })();
  return { status: response.status, ended, close: () => controller.abort() };
}


describe.skipIf(skip)('a revoked key', () => {
  it('ends the event stream it opened, at once', async () => {
    const created = (await lab.t.api('POST', '/api/keys', { name: 'leaked', scope: 'read' })).body as { key: string; apiKey: { id: string } };
    const stream = await openStream(created.key);
    expect(stream.status).toBe(200);
    expect(await within(stream.ended, 500), 'the stream ended before the key was revoked').toBe(false);
    expect((await lab.t.api('DELETE', `/api/keys/${created.apiKey.id}`)).status).toBe(204);
    const endedInTime = await within(stream.ended, 3000);
    stream.close();
    expect(endedInTime, 'the stream still open 3 s after its key was revoked').toBe(true);
    expect((await lab.t.api('GET', '/api/instances', undefined, { authorization: `Bearer ${created.key}` })).status).toBe(401);
  });

  it("opens no event stream with a run's key, and the key is gone when the run ends", async () => {
    // The run hands its key to someone outside (it prints it), then works a little longer.
    const agent = { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'echo "key: $STEWARD_API_KEY"; sleep 3'], stewardTools: true };
    const instance = await lab.instance(agent, { mode: 'sandbox' }, 'leaky');
    const started = (await lab.t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'go' })).body.run as Run;
    const key = await waitFor(async () => (await lab.said(started)).key, { what: 'the run to print its key' });
    expect(key, 'the run printed its key').toMatch(/^stw_/);
    // A run's key opens no event stream at all: it reaches its own instance only, and the feed is
    // everyone's. What it does hold open, its /mcp requests, ends with its run (test/api/key-revocation.test.ts).
    const stream = await openStream(key);
    expect(stream.status).toBe(403);
    stream.close();
    const run = await settled(lab.t, started.id);
    expect(run.status, run.error ?? '').toBe('succeeded');
    expect((await lab.t.api('GET', '/api/instances', undefined, { authorization: `Bearer ${key}` })).status).toBe(401);
  });
});

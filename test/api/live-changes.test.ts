// GET /api/events tells of automations and webhooks that changed: `changed` events with the
// resource and its id, on create, update and delete, so a UI reloads just that one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { type TestCore, startTestCore } from '../support/core';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore({ clock: systemClock });
});
afterAll(() => t.close());

/** The stream's `changed` events as they arrive, until aborted. */
function changes() {
  const controller = new AbortController();
  const seen: { resource: string; id: string }[] = [];
  const opened = fetch(`${t.url}/api/events`, { headers: { authorization: `Bearer ${t.key}` }, signal: controller.signal }).then((response) => {
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return;
        buffer += value;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (!block.includes('event: changed')) continue;
          const data = block.split('\n').find((line) => line.startsWith('data: '))!.slice(6);
          seen.push(JSON.parse(data) as { resource: string; id: string });
        }
      }
    })();
  });
  return { opened, seen, close: () => controller.abort() };
}

describe('changed events', () => {
  it('name the automation or webhook created, updated or deleted', async () => {
    const stream = changes();
    await stream.opened;
    const { automation } = (await t.api('POST', '/api/automations', { name: 'Digest', prompt: 'p', cronExpression: '0 7 * * *' })).body;
    expect((await t.api('PUT', `/api/automations/${automation.id}`, { name: 'Morning digest' })).status).toBe(200);
    const { webhook } = (await t.api('POST', '/api/webhooks', { name: 'Deploys', promptTemplate: 'Deployed: {{payload}}' })).body;
    await t.api('DELETE', `/api/automations/${automation.id}`);
    await expect
      .poll(() => stream.seen)
      .toEqual([
        { resource: 'automation', id: automation.id },
        { resource: 'automation', id: automation.id },
        { resource: 'webhook', id: webhook.id },
        { resource: 'automation', id: automation.id },
      ]);
    stream.close();
  });
});

// GitHub's own published example payloads (@octokit/webhooks-examples, 329 of them), each sent
// as GitHub sends it (X-GitHub-Event, X-GitHub-Delivery, X-Hub-Signature-256 made with
// @octokit/webhooks-methods), to a webhook made with the github sender preset: every one is
// accepted and the template's fields render the payload's values.
import { randomUUID } from 'node:crypto';
import examples from '@octokit/webhooks-examples';
import { sign } from '@octokit/webhooks-methods';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Webhook } from '../../src/shared/contract';
import { type TestCore, request, startTestCore } from '../support/core';

type Payload = Record<string, any>;
const secret = 'a GitHub webhook secret';
const events = (examples as unknown as { name: string; examples: Payload[] }[]).flatMap(({ name, examples: payloads }) => payloads.map((payload) => ({ event: name, payload })));

let t: TestCore;
let webhook: Webhook;
beforeAll(async () => {
  t = await startTestCore();
  // No agent runs: the instance is stopped, so runs stay queued, and the queue has no limit.
  const instance = (await t.api('POST', '/api/instances', { name: 'CI' })).body.instance;
  await t.api('POST', `/api/instances/${instance.id}/stop`);
  await t.api('PATCH', '/api/settings', { runner: { maxQueued: null } });
  webhook = (await t.api('POST', '/api/webhooks', { name: 'GitHub', sender: 'github', signature: { secret }, instanceId: instance.id })).body.webhook;
});
afterAll(() => t.close());

async function deliver(event: string, body: string, delivery: string = randomUUID()) {
  return request(webhook.triggerUrl!, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'GitHub-Hookshot/044aadd',
      'x-github-event': event,
      'x-github-delivery': delivery,
      'x-github-hook-id': '292430182',
      'x-hub-signature-256': await sign(secret, body),
    },
    body,
  });
}

const prompt = (runId: string) => t.core.store.runs.get(runId)!.prompt;

describe('the github preset', () => {
  it('fills the scheme, 1 MiB limit, idempotency key and a template of fields', () => {
    expect(webhook).toMatchObject({ sender: 'github', signature: { scheme: 'github' }, maxPayloadBytes: 1_048_576, idempotencyKey: '{{headers.x-github-delivery}}', filter: [], fencePayload: false });
    expect(webhook.promptTemplate).toContain('{{payload.repository.full_name}}');
  });

  it(`accepts all ${events.length} published examples, and renders each one's fields`, async () => {
    expect(events).toHaveLength(329);
    expect(events.filter(({ payload }) => JSON.stringify(payload).length > 10_240).length).toBe(97);
    const refused: string[] = [];
    for (let start = 0; start < events.length; start += 8) {
      await Promise.all(
        events.slice(start, start + 8).map(async ({ event, payload }, offset) => {
          const body = JSON.stringify(payload);
          const response = await deliver(event, body);
          if (response.status !== 202) {
            refused.push(`#${start + offset} ${event}: ${response.status} ${response.text}`);
            return;
          }
          const text = (value: string | undefined) => value ?? '';
          expect(prompt(response.body.run.id)).toBe(
            `GitHub sent a "${event}" event (action: ${text(payload.action)}) for ${text(payload.repository?.full_name)}, from ${text(payload.sender?.login)}.\n` +
              `Look into it and say what needs doing.\n\nThe event as GitHub sent it:\n${body}`,
          );
        }),
      );
    }
    expect(refused).toEqual([]);
    const runs = t.core.store.db.prepare("SELECT count(*) AS n FROM runs WHERE source_id = ? AND status = 'queued'").get(webhook.id) as { n: number };
    expect(runs.n).toBe(329);
  });

  it('renders numbers, objects, array items and missing fields from a workflow_run', async () => {
    await t.api('PUT', `/api/webhooks/${webhook.id}`, {
      promptTemplate: '{{payload.workflow_run.conclusion}}|{{payload.workflow_run.run_number}}|{{payload.workflow_run.pull_requests}}|{{payload.workflow_run.head_commit.author}}|{{payload.workflow_run.head_commit.author.name}}|{{payload.nope.deeper}}|{{payload.workflow_run.pull_requests[0].number}}|{{headers.x-github-hook-id}}|{{headers.x-hub-signature-256}}',
    }).then((response) => expect(response.body.error).toMatchObject({ code: 'invalid_template', field: 'promptTemplate' }));
    const updated = await t.api('PUT', `/api/webhooks/${webhook.id}`, {
      promptTemplate: '{{payload.workflow_run.conclusion}}|{{payload.workflow_run.run_number}}|{{payload.workflow_run.pull_requests}}|{{payload.workflow_run.head_commit.author}}|{{payload.workflow_run.head_commit.author.name}}|{{payload.nope.deeper}}|{{payload.workflow_run.pull_requests[0].number}}|{{headers.x-github-hook-id}}',
    });
    expect(updated.status).toBe(200);
    const { payload } = events.find(({ event, payload: p }) => event === 'workflow_run' && p.workflow_run.conclusion === 'success')!;
    const response = await deliver('workflow_run', JSON.stringify(payload));
    const run = payload.workflow_run;
    expect(prompt(response.body.run.id)).toBe(
      `success|${run.run_number}|${JSON.stringify(run.pull_requests)}|${JSON.stringify(run.head_commit.author)}|${run.head_commit.author.name}||${run.pull_requests[0]?.number ?? ''}|292430182`,
    );
  });

  it('returns the original run for a redelivery with the same X-GitHub-Delivery', async () => {
    const body = JSON.stringify(events[0].payload);
    const first = await deliver(events[0].event, body, 'redelivered-1');
    const again = await deliver(events[0].event, body, 'redelivered-1');
    expect([first.status, again.status]).toEqual([202, 200]);
    expect(again.body.run.id).toBe(first.body.run.id);
  });

  it('refuses a payload whose signature does not match', async () => {
    const body = JSON.stringify(events[0].payload);
    const signature = await sign(secret, body);
    const response = await request(webhook.triggerUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-github-event': events[0].event, 'x-hub-signature-256': signature },
      body: body.replace('"action":"', '"action":"x'),
    });
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('invalid_signature');
  });
});

// Property-based: generated bodies, headers and ids against every endpoint. Whatever arrives, the
// answer is never a 5xx, an error is always the JSON error body, and a rejected request leaves
// the stored state exactly as it was.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Operation, operations } from '../../src/shared/contract';
import { ErrorBody } from '../../src/shared/errors';
import { type TestCore, request, startTestCore } from '../support/core';

let t: TestCore;
/** A real id per resource (keyed by the operation's domain), so generated requests reach real rows. */
const realIds: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestCore();
  // No background work may change the stored state between a request and the check after it:
  // the clock stands still (no fires) and the runner takes no runs.
  await t.core.services.runner.stop();
  const automation = (await t.api('POST', '/api/automations', { name: 'a', prompt: 'p', cronExpression: '@daily' })).body.automation;
  const webhook = (await t.api('POST', '/api/webhooks', { name: 'w', promptTemplate: '{{payload}}' })).body.webhook;
  const instance = (await t.api('POST', '/api/instances', { name: 'i' })).body.instance;
  const run = (await t.api('POST', `/api/automations/${automation.id}/run`)).body.run;
  const { apiKey } = (await t.api('POST', '/api/keys', { name: 'spare' })).body;
  Object.assign(realIds, { automations: automation.id, webhooks: webhook.id, instances: instance.id, runs: run.id, threads: automation.threadId, keys: apiKey.id, token: webhook.token });
});
afterAll(() => t.close());

/** Every row of every table except the log of refused trigger requests, whose job is to grow. */
function snapshot(): string {
  const { db } = t.core.store;
  const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT IN ('deliveries') ORDER BY name").all();
  return JSON.stringify(
    tables.map(({ name }) => {
      const rows = db.prepare(`SELECT * FROM "${name}" ORDER BY 1`).all() as Record<string, unknown>[];
      // lastUsedAt follows successful authentication, not the request's fate.
      return [name, rows.map(({ last_used_at: _ignored, ...row }) => row)];
    }),
  );
}

const knownFields = [
  'name', 'prompt', 'cronExpression', 'timezone', 'enabled', 'instanceId', 'promptTemplate', 'regenerateToken',
  'avatarUrl', 'agent', 'workspaceDir', 'status', 'id', 'token', 'createdAt', 'fqdn', 'imageTag', '__proto__', 'constructor',
  'catchUp', 'paused', 'signature',
];

const fieldValue = fc.oneof(
  fc.string(),
  fc.constantFrom('* * * * *', '@daily', '61 * * * *', 'Europe/Berlin', 'Nowhere', '{{payload}}', 'https://example.com/a.png', 'data:image/png;base64,AA==', ''),
  fc.boolean(),
  fc.constant(null),
  fc.integer(),
  fc.jsonValue({ maxDepth: 2 }),
);

/** A valid body per operation, for the "nearly valid" inputs: one field changed, added or removed. */
const validBodies: Record<string, Record<string, unknown>> = {
  'automations.create': { name: 'n', prompt: 'p', cronExpression: '0 9 * * *', timezone: 'UTC' },
  'automations.update': { name: 'n', enabled: false },
  'webhooks.create': { name: 'n', promptTemplate: 'x {{payload}}' },
  'webhooks.update': { promptTemplate: 'y {{payload}}', regenerateToken: true },
  'instances.create': { name: 'n', agent: { provider: 'command', preset: 'custom', command: 'cat' } },
  'instances.update': { name: 'renamed', avatarUrl: 'https://example.com/a.png' },
  'keys.create': { name: 'k' },
  'scheduler.update': { paused: false },
};

const nearlyValid = (operationName: string) =>
  fc
    .tuple(fc.constantFrom(...knownFields), fc.option(fieldValue, { nil: undefined }))
    .map(([field, value]) => {
      const changed: Record<string, unknown> = { ...(validBodies[operationName] ?? {}) };
      if (value === undefined) delete changed[field];
      else changed[field] = value;
      return JSON.stringify(changed);
    });

const anyBody = fc.oneof(
  fc.dictionary(fc.oneof(fc.constantFrom(...knownFields), fc.string({ maxLength: 8 })), fieldValue, { maxKeys: 6 }).map((object) => JSON.stringify(object)),
  fc.json({ maxDepth: 3 }),
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }),
  fc.constant(undefined),
);

const contentType = fc.option(
  fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/octet-stream', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=klingon', 'image/png', ';;', 'text/plain; charset=utf-16'),
  { nil: undefined },
);

const pathValue = fc.oneof(
  { arbitrary: fc.constant('real'), weight: 3 },
  fc.string({ minLength: 1, maxLength: 60 }),
  fc.constantFrom('..', '%2e%2e', '%00', 'aut_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'null', '{id}'),
);

const queryString = fc.option(
  fc.dictionary(fc.constantFrom('limit', 'status', 'source', 'sourceId', 'after', 'x', 'cursors'), fc.string({ maxLength: 12 }), { maxKeys: 3 }),
  { nil: undefined },
);

// The event stream never ends when it succeeds; its refusals are tested in events.test.ts.
const operationNames = (Object.keys(operations) as (keyof typeof operations)[]).filter((name) => name !== 'events.stream');

describe('every endpoint, generated input', () => {
  it('never answers 5xx, always answers errors as JSON, and a rejection changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...operationNames).chain((name) => fc.tuple(fc.constant(name), fc.oneof(anyBody, nearlyValid(name)))),
        pathValue,
        contentType,
        queryString,
        fc.constantFrom<'valid' | 'none' | 'wrong'>('valid', 'valid', 'valid', 'none', 'wrong'),
        async ([name, payload], rawPathValue, type, query, auth) => {
          const operation: Operation = operations[name];
          const resource = operation.path.includes('{token}') ? 'token' : operation.name.split('.')[0];
          const value = rawPathValue === 'real' ? (realIds[resource] ?? 'x') : encodeURIComponent(rawPathValue);
          const search = query ? `?${new URLSearchParams(query).toString()}` : '';
          const url = t.url + operation.path.replace(/\{\w+\}/, value) + search;
          const headers: Record<string, string> = {};
          if (type) headers['content-type'] = type;
          if (auth === 'valid') headers.authorization = `Bearer ${t.key}`;
          if (auth === 'wrong') headers.authorization = 'Bearer stw_nope';
          const sendsBody = operation.method !== 'GET' && operation.method !== 'DELETE' && payload !== undefined;

          // Starting an instance probes its agent in the background; let that settle first.
          await t.core.services.instances.idle();
          const before = snapshot();
          const response = await request(url, { method: operation.method, headers, body: sendsBody ? payload : undefined });
          expect(response.status, `${operation.method} ${url}`).toBeLessThan(500);
          if (response.status >= 400) {
            expect(response.headers.get('content-type')).toMatch(/^application\/json/);
            expect(() => ErrorBody.parse(response.body)).not.toThrow();
            expect(snapshot(), `${operation.method} ${url} → ${response.status} changed state`).toBe(before);
          }
        },
      ),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 400) },
    );
  }, 120_000);
});

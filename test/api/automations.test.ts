// Automations through a real loopback socket against a real SQLite file (seed ops 1 and 2).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Automation } from '../../src/shared/contract';
import { type TestCore, startTestCore } from '../support/core';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(() => t.close());

const valid = { name: 'Inbox triage', prompt: 'Triage my inbox', cronExpression: '0 9 * * MON-FRI' };

describe('POST /api/automations', () => {
  it('creates with defaults and answers 201 with the automation envelope', async () => {
    const response = await t.api('POST', '/api/automations', valid);
    expect(response.status).toBe(201);
    const automation = Automation.parse(response.body.automation);
    expect(automation).toMatchObject({ ...valid, timezone: 'UTC', enabled: true, lastRunAt: null, lastRunStatus: null });
    expect(automation.id).toMatch(/^aut_[0-9A-Z]{26}$/);
    expect(automation.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const instances = await t.api('GET', '/api/instances');
    const defaultInstance = instances.body.instances.find((i: { isDefault: boolean }) => i.isDefault);
    expect(automation.instanceId).toBe(defaultInstance.id);
  });

  it('computes the next five fire times in the automation timezone', async () => {
    const response = await t.api('POST', '/api/automations', { ...valid, cronExpression: '30 8 * * *', timezone: 'Asia/Kolkata' });
    const { nextRuns } = response.body.automation as { nextRuns: string[] };
    expect(nextRuns).toHaveLength(5);
    // 08:30 in Kolkata (UTC+05:30) is 03:00 UTC.
    for (const run of nextRuns) expect(run).toMatch(/T03:00:00\.000Z$/);
    expect([...nextRuns].sort()).toEqual(nextRuns);
  });

  it.each([
    ['* * *', 'expected 5 fields'],
    ['61 * * * *', 'minute'],
    ['0 0 * * * *', 'expected 5 fields'],
    ['@sometimes', 'unknown macro'],
    ['', 'expected 5 fields'],
  ])('rejects the cron expression %j with invalid_cron and the reason', async (cronExpression, reason) => {
    const response = await t.api('POST', '/api/automations', { ...valid, cronExpression });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_cron');
    expect(response.body.error.field).toBe('cronExpression');
    expect(response.body.error.message).toContain(reason);
  });

  it('accepts macros, names, steps, ranges and lists', async () => {
    for (const cronExpression of ['@hourly', '@daily', '@weekly', '@monthly', '@yearly', '*/15 9-17 * JAN,JUL MON-FRI', '0 0 1,15 * 0', '0 0 * * 7']) {
      const response = await t.api('POST', '/api/automations', { ...valid, cronExpression });
      expect(response.status, cronExpression).toBe(201);
    }
  });

  it('rejects an unknown timezone with invalid_timezone', async () => {
    for (const timezone of ['Mars/Olympus_Mons', '+01:00', '', 'Europe/Berlin; DROP TABLE']) {
      const response = await t.api('POST', '/api/automations', { ...valid, timezone });
      expect(response.status, timezone).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'invalid_timezone', field: 'timezone' });
    }
  });

  it('names the missing field, the null field and the unknown field', async () => {
    const missing = await t.api('POST', '/api/automations', { name: 'x', cronExpression: '* * * * *' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'missing_field', field: 'prompt' });

    const nulled = await t.api('POST', '/api/automations', { ...valid, name: null });
    expect(nulled.body.error).toMatchObject({ code: 'invalid_field', field: 'name' });
    expect(nulled.body.error.message).toContain('null');

    const unknown = await t.api('POST', '/api/automations', { ...valid, schedule: 'daily' });
    expect(unknown.body.error).toMatchObject({ code: 'unknown_field', field: 'schedule' });

    const readOnly = await t.api('POST', '/api/automations', { ...valid, id: 'aut_x' });
    expect(readOnly.body.error).toMatchObject({ code: 'unknown_field', field: 'id' });
  });

  it('rejects an empty name and an instance that does not exist', async () => {
    const empty = await t.api('POST', '/api/automations', { ...valid, name: '   ' });
    expect(empty.body.error).toMatchObject({ code: 'invalid_field', field: 'name' });
    const noInstance = await t.api('POST', '/api/automations', { ...valid, instanceId: 'ins_nope' });
    expect(noInstance.status).toBe(400);
    expect(noInstance.body.error).toMatchObject({ code: 'invalid_field', field: 'instanceId' });
  });
});

describe('PUT /api/automations/{id}', () => {
  it('changes only the fields sent and keeps the rest', async () => {
    const created = (await t.api('POST', '/api/automations', valid)).body.automation;
    const response = await t.api('PUT', `/api/automations/${created.id}`, { enabled: false });
    expect(response.status).toBe(200);
    expect(response.body.automation).toMatchObject({ ...valid, id: created.id, enabled: false, timezone: 'UTC', nextRuns: [] });
    expect(response.body.automation.createdAt).toBe(created.createdAt);

    const renamed = await t.api('PUT', `/api/automations/${created.id}`, { name: 'Renamed', timezone: 'America/New_York', enabled: true });
    expect(renamed.body.automation).toMatchObject({ name: 'Renamed', prompt: valid.prompt, timezone: 'America/New_York', enabled: true });
    expect((await t.api('GET', `/api/automations/${created.id}`)).body.automation.name).toBe('Renamed');
  });

  it('accepts an empty body as a no-op', async () => {
    const created = (await t.api('POST', '/api/automations', valid)).body.automation;
    const response = await t.api('PUT', `/api/automations/${created.id}`, {});
    expect(response.status).toBe(200);
    expect(response.body.automation).toMatchObject({ name: valid.name, enabled: true });
  });

  it('rejects bad input and changes nothing', async () => {
    const created = (await t.api('POST', '/api/automations', valid)).body.automation;
    const before = (await t.api('GET', `/api/automations/${created.id}`)).body;
    const attempts: [unknown, string, string][] = [
      [{ name: 'New', cronExpression: 'not cron' }, 'invalid_cron', 'cronExpression'],
      [{ name: 'New', timezone: 'Nowhere/Land' }, 'invalid_timezone', 'timezone'],
      [{ name: 'New', createdAt: '2020-01-01T00:00:00.000Z' }, 'unknown_field', 'createdAt'],
      [{ name: 'New', nextRuns: [] }, 'unknown_field', 'nextRuns'],
      [{ name: 'New', enabled: 'yes' }, 'invalid_field', 'enabled'],
      [{ prompt: null }, 'invalid_field', 'prompt'],
    ];
    for (const [body, code, field] of attempts) {
      const response = await t.api('PUT', `/api/automations/${created.id}`, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error).toMatchObject({ code, field });
    }
    expect((await t.api('GET', `/api/automations/${created.id}`)).body).toEqual(before);
  });

  it('answers 404 for an unknown id', async () => {
    const response = await t.api('PUT', '/api/automations/aut_01ARZ3NDEKTSV4RRFFQ69G5FAV', { name: 'x' });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('not_found');
  });
});

describe('list, get, delete and run now', () => {
  it('lists in creation order and deletes with 204', async () => {
    const a = (await t.api('POST', '/api/automations', { ...valid, name: 'A' })).body.automation;
    const b = (await t.api('POST', '/api/automations', { ...valid, name: 'B' })).body.automation;
    const ids = (await t.api('GET', '/api/automations')).body.automations.map((x: { id: string }) => x.id);
    expect(ids.indexOf(a.id)).toBeLessThan(ids.indexOf(b.id));

    const deleted = await t.api('DELETE', `/api/automations/${a.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await t.api('GET', `/api/automations/${a.id}`)).status).toBe(404);
    expect((await t.api('DELETE', `/api/automations/${a.id}`)).status).toBe(404);
    expect((await t.api('GET', `/api/threads/${a.threadId}`)).status).toBe(404);
  });

  it('queues a run with the exact prompt and reports it as the last run', async () => {
    const automation = (await t.api('POST', '/api/automations', { ...valid, prompt: 'Check $& and $1 literally\nline two' })).body.automation;
    const response = await t.api('POST', `/api/automations/${automation.id}/run`);
    expect(response.status).toBe(202);
    const { run } = response.body;
    expect(run).toMatchObject({ status: 'queued', source: 'automation', sourceId: automation.id, threadId: automation.threadId, prompt: 'Check $& and $1 literally\nline two', startedAt: null, finishedAt: null, error: null });

    const fetched = (await t.api('GET', `/api/runs/${run.id}`)).body.run;
    expect(fetched).toMatchObject({ id: run.id, prompt: run.prompt, createdAt: run.createdAt, threadId: automation.threadId });
    const after = (await t.api('GET', `/api/automations/${automation.id}`)).body.automation;
    expect(after).toMatchObject({ lastRunAt: run.createdAt, lastRunStatus: fetched.status });
    const listed = await t.api('GET', `/api/runs?source=automation&sourceId=${automation.id}`);
    expect(listed.body.runs.map((r: { id: string }) => r.id)).toEqual([run.id]);
  });
});

describe('notifications per automation and webhook', () => {
  it('default to the setting, take their own choice, and refuse unknown ones', async () => {
    const { automation } = (await t.api('POST', '/api/automations', { name: 'n', prompt: 'p', cronExpression: '@daily' })).body;
    expect(automation.notify).toBe('default');
    expect((await t.api('PUT', `/api/automations/${automation.id}`, { notify: 'failures' })).body.automation.notify).toBe('failures');
    expect((await t.api('PUT', `/api/automations/${automation.id}`, { notify: 'loudly' })).body.error).toMatchObject({ code: 'invalid_field', field: 'notify' });
    const { webhook } = (await t.api('POST', '/api/webhooks', { name: 'w', promptTemplate: '{{payload}}', notify: 'none' })).body;
    expect(webhook.notify).toBe('none');
    expect((await t.api('GET', `/api/webhooks/${webhook.id}`)).body.webhook.notify).toBe('none');
  });
});

// Event triggers over the HTTP API: what a person and what an agent's run may make, the errors a
// bad trigger gets, the preview's refusal of a kind without a source, and the read model's source
// health.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestCore, startTestCore } from '../support/core';

let t: TestCore;
let runKey: string;

beforeAll(async () => {
  t = await startTestCore();
  const agent = { provider: 'command', preset: 'custom', command: 'sleep', args: ['600'] };
  const instance = (await t.api('POST', '/api/instances', { name: 'own', agent })).body.instance.id;
  const run = (await t.api('POST', '/api/runs', { instanceId: instance, prompt: 'work' })).body.run;
  runKey = t.core.services.apiKeys.createForRun(run);
});
afterAll(() => t.close());

const asRun = (method: string, route: string, body?: unknown) => t.api(method, route, body, { authorization: `Bearer ${runKey}` });
const feed = { feed: { url: 'https://example.com/feed.xml' } };

describe('who makes an event trigger', () => {
  it("refuses an agent's run making or pointing a watch, git, mail or feed trigger, and lets it make at and every", async () => {
    const decoys = [
      feed,
      { watch: { path: '/root/.ssh' } },
      { git: { repository: '/etc' } },
      { mail: { host: 'attacker.example', user: 'me', password: 'openai-key' } },
    ];
    for (const trigger of decoys) {
      const made = await asRun('POST', '/api/automations', { name: 'sneaky', prompt: 'p', trigger });
      expect(made.status, JSON.stringify(trigger)).toBe(403);
      expect(made.body.error.code).toBe('forbidden');
      expect(made.body.error.message).toMatch(/^An agent's run cannot make or change a (feed|watch|git|mail) trigger/);
    }
    const once = await asRun('POST', '/api/automations', { name: 'later', prompt: 'p', trigger: { at: '2099-01-01T09:00' } });
    expect(once.status).toBe(201);
    const changed = await asRun('PUT', `/api/automations/${once.body.automation.id}`, { trigger: feed });
    expect(changed.status).toBe(403);
    expect((await t.api('GET', `/api/automations/${once.body.automation.id}`)).body.automation.trigger).toEqual({ at: '2099-01-01T09:00' });
    expect((await asRun('POST', '/api/automations/preview', { trigger: feed })).status).toBe(403);
  });

  it('lets a person make one, shows its source health and what it waits for, and defaults its catch-up to all', async () => {
    const made = await t.api('POST', '/api/automations', { name: 'news', prompt: 'Summarise {{event.title}}', trigger: feed, enabled: false });
    expect(made.status).toBe(201);
    expect(made.body.automation).toMatchObject({ cronExpression: null, catchUp: 'all', nextRuns: [], trigger: { feed: { url: 'https://example.com/feed.xml', pollMinutes: 15, filter: [] } } });
    expect(made.body.automation.source).toMatchObject({ state: 'checking', how: 'not listening: it is disabled', failures: 0 });
  });
});

describe('a bad trigger', () => {
  it('gets a clear 400 naming the field, and changes nothing', async () => {
    const cases: [unknown, string, RegExp][] = [
      [{ every: { minutes: 5, hours: 1 } }, 'invalid_trigger', /exactly one of minutes, hours or days/],
      [{ at: '2026-02-30T09:00' }, 'invalid_time', /is not a time/],
      [{ at: '2001-01-01T09:00' }, 'invalid_field', /is in the past/],
      [{ mail: { host: 'imap.example.com', user: 'me', password: 'pw', afterRun: 'move' } }, 'invalid_trigger', /moveTo.*required|is required when afterRun is move/],
      [{ feed: { url: 'file:///etc/passwd' } }, 'invalid_field', /http:\/\/ or https:\/\//],
      [{ watch: { path: '/tmp', on: ['renamed'] } }, 'invalid_field', /renamed|created/],
      [{ feed: { url: 'https://example.com/f', filter: [{ field: 'title', contains: 'a', equals: 'b' }] } }, 'invalid_field', /exactly one of contains, equals, in or exists/],
    ];
    const before = (await t.api('GET', '/api/automations')).body.automations.length;
    for (const [trigger, code, message] of cases) {
      const answer = await t.api('POST', '/api/automations', { name: 'bad', prompt: 'p', trigger });
      expect(answer.status, JSON.stringify(trigger)).toBe(400);
      expect(answer.body.error.code, JSON.stringify(answer.body)).toBe(code);
      expect(answer.body.error.message, JSON.stringify(trigger)).toMatch(message);
    }
    const prompt = await t.api('POST', '/api/automations', { name: 'bad', prompt: 'Look at {{event.path}}', cronExpression: '0 9 * * *' });
    expect(prompt.body.error).toMatchObject({ code: 'invalid_field', message: expect.stringContaining('only an event trigger') });
    expect((await t.api('GET', '/api/automations')).body.automations).toHaveLength(before);
  });

  it('previews only an event trigger', async () => {
    const answer = await t.api('POST', '/api/automations/preview', { trigger: { every: { minutes: 5 } } });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('invalid_trigger');
  });
});

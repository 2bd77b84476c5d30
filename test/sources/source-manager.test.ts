// The event sources' frame, against a real SQLite file with a scripted source kind (the kinds
// themselves are tested against real folders, repositories, Dovecot and feeds): what a first look,
// a start after Steward was off, a reconnect and a resume do with what the source finds; the
// catch-up policies; filters; the cursor moving with the runs or not at all; health that a silent
// consumer cannot fake; the unhealthy notice once and the recovery once.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventKind } from '../../src/shared/contract';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { noticeOf } from '../../src/main/core/services/notices';
import type { SourceManager } from '../../src/main/core/sources/source-manager';
import type { SourceContext, SourceEvent, SourceKind } from '../../src/main/core/sources/source-kind';
import type { Store } from '../../src/main/core/store';
import { servicesFor, tempStore } from '../support/core';
import { waitFor } from '../support/wait';

/** A source the test drives: each attempt's context is handed over, and the attempt ends when told. */
function scriptedKind(livenessMs = 60_000) {
  const attempts: { ctx: SourceContext<unknown>; fail: (error: Error) => void }[] = [];
  const kind: SourceKind<unknown> = {
    kind: 'feed',
    livenessMs: () => livenessMs,
    run: (ctx) =>
      new Promise<void>((resolve, reject) => {
        attempts.push({ ctx, fail: reject });
        ctx.signal.addEventListener('abort', () => resolve(), { once: true });
      }),
  };
  return { kind, attempts, latest: () => attempts.at(-1)! };
}

const event = (n: number, fields: Record<string, unknown> = {}): SourceEvent => ({
  key: `item-${n}`,
  at: new Date(Date.UTC(2026, 10, 27, 9, n)).toISOString(),
  summary: `item ${n}`,
  fields: { title: `Item ${n}`, ...fields },
});

let temp: ReturnType<typeof tempStore>;
let store: Store;
let services: ReturnType<typeof servicesFor>;

beforeEach(() => {
  temp = tempStore();
  store = temp.store;
});
afterEach(async () => {
  await services.sources.stop();
  temp.remove();
});

/** The services on the store, their sources run by `script` (started by the test). */
function servicesWith(script: ReturnType<typeof scriptedKind>): SourceManager {
  services = servicesFor(store, temp.dir, systemClock, { loadSourceKind: (kind: EventKind) => Promise.resolve({ ...script.kind, kind }), sourceBackoffMs: () => 20 });
  services.instances.ensureDefault();
  return services.sources;
}

const createFeed = (fields: { catchUp?: 'all' | 'latest' | 'skip'; prompt?: string; filter?: { field: string; contains: string }[] } = {}) =>
  services.automations.create({
    name: 'news',
    prompt: fields.prompt ?? 'Read this: {{event.title}}',
    trigger: { feed: { url: 'https://example.com/feed.xml', pollMinutes: 15, filter: fields.filter ?? [] } },
    timezone: 'UTC',
    enabled: true,
    notify: 'default',
    memory: 'fresh',
    ...(fields.catchUp ? { catchUp: fields.catchUp } : {}),
  });
const runsOf = (id: string) => store.runs.list({ sourceId: id, limit: 500 }).reverse();
const firesOf = (id: string) => services.fires.list(id, { since: '2000-01-01T00:00:00.000Z', limit: 1000 }).reverse();
const notices = () =>
  store.db
    .prepare<[], { raw: string }>("SELECT raw FROM activity WHERE kind = 'system' ORDER BY line")
    .all()
    .map((line) => noticeOf(line.raw))
    .filter((notice) => notice !== undefined);

describe('what a source finds', () => {
  it('takes its first look as the baseline: the cursor moves, nothing runs, nothing is recorded', async () => {
    const script = scriptedKind();
    servicesWith(script);
    const automation = createFeed();
    expect(automation.catchUp).toBe('all');
    services.sources.start();
    const { ctx } = await waitFor(() => script.attempts[0], { what: 'the source to start' });
    expect(ctx.phase).toBe('first');
    ctx.emit([event(1), event(2)], { set: [['seen:item-1', '1'], ['seen:item-2', '1']] }, { initial: true });
    expect(runsOf(automation.id)).toEqual([]);
    expect(firesOf(automation.id)).toEqual([]);
    expect(store.sourceState.entries(automation.id)).toEqual(new Map([['seen:item-1', '1'], ['seen:item-2', '1']]));
    // Then live: each event a run, with the event in its prompt, fenced as untrusted.
    ctx.emit([event(3)], { set: [['seen:item-3', '1']] });
    const [run] = runsOf(automation.id);
    expect(run.prompt).toMatch(/^Read this: \n-----BEGIN UNTRUSTED DATA [0-9a-f]{16}-----\n.*event source.*\nItem 3\n-----END UNTRUSTED DATA [0-9a-f]{16}-----$/s);
    expect(firesOf(automation.id)).toMatchObject([{ state: 'fired', event: 'item 3', runId: run.id }]);
  });

  it('at start after Steward was off, runs each event found (all), only the newest (latest), or none (skip), each recorded', async () => {
    const script = scriptedKind();
    servicesWith(script);
    const made = { all: createFeed({ catchUp: 'all' }), latest: createFeed({ catchUp: 'latest' }), skip: createFeed({ catchUp: 'skip' }) };
    for (const automation of Object.values(made)) store.sourceState.apply(automation.id, { set: [['etag', '"v1"']] });
    services.sources.start();
    await waitFor(() => script.attempts.length === 3, { what: 'three sources to start' });
    for (const { ctx } of script.attempts) {
      expect(ctx.phase).toBe('start');
      ctx.emit([event(1), event(3), event(2)], { set: [['etag', '"v2"']] }, { initial: true });
    }
    expect(runsOf(made.all.id).map((run) => run.prompt)).toEqual([expect.stringContaining('Item 1'), expect.stringContaining('Item 3'), expect.stringContaining('Item 2')]);
    expect(firesOf(made.all.id).map((fire) => fire.state)).toEqual(['caught-up', 'caught-up', 'caught-up']);
    expect(runsOf(made.latest.id).map((run) => run.prompt)).toEqual([expect.stringContaining('Item 3')]);
    expect(firesOf(made.latest.id).map((fire) => [fire.event, fire.state])).toEqual(
      expect.arrayContaining([['item 1', 'missed'], ['item 2', 'missed'], ['item 3', 'caught-up']]),
    );
    expect(runsOf(made.skip.id)).toEqual([]);
    expect(firesOf(made.skip.id).map((fire) => [fire.state, fire.reason])).toEqual([['missed', 'steward_off'], ['missed', 'steward_off'], ['missed', 'steward_off']]);
    expect(services.automations.get(made.skip.id).health.missedLast30Days).toBe(3);
    for (const automation of Object.values(made)) expect(store.sourceState.get(automation.id, 'etag')).toBe('"v2"');
  });

  it('records an event the filter passes over as skipped, with why, and runs none for it', async () => {
    const script = scriptedKind();
    servicesWith(script);
    const automation = createFeed({ filter: [{ field: 'author', contains: 'ann' }] });
    services.sources.start();
    const { ctx } = await waitFor(() => script.attempts[0], { what: 'the source to start' });
    ctx.emit([event(1, { author: 'Bob' }), event(2, { author: 'ANNE' }), event(3)], {});
    expect(runsOf(automation.id).map((run) => run.prompt)).toEqual([expect.stringContaining('Item 2')]);
    expect(firesOf(automation.id).map((fire) => [fire.event, fire.state, fire.detail])).toEqual([
      ['item 1', 'skipped', 'Not run: event.author is "Bob", which does not contain "ann".'],
      ['item 2', 'fired', null],
      ['item 3', 'skipped', 'Not run: event.author is missing.'],
    ]);
  });

  it('moves the cursor with the runs or not at all: a refused write leaves both as they were', async () => {
    const script = scriptedKind();
    servicesWith(script);
    const automation = createFeed();
    services.sources.start();
    const { ctx } = await waitFor(() => script.attempts[0], { what: 'the source to start' });
    ctx.emit([event(1)], { set: [['seen:item-1', '1']] });
    // A run row that cannot be written (its id already taken) fails the transaction half way.
    store.db.exec("CREATE TRIGGER refuse BEFORE INSERT ON runs WHEN NEW.prompt LIKE '%Item 3%' BEGIN SELECT RAISE(ABORT, 'disk says no'); END");
    expect(() => ctx.emit([event(2), event(3)], { set: [['seen:item-2', '1'], ['seen:item-3', '1']] })).toThrow('disk says no');
    expect(runsOf(automation.id)).toHaveLength(1);
    expect(firesOf(automation.id)).toHaveLength(1);
    expect([...store.sourceState.entries(automation.id).keys()]).toEqual(['seen:item-1']);
  });

  it('gives a run started by hand a prompt that says there is no event, and refuses {{event}} without an event trigger', () => {
    servicesWith(scriptedKind());
    const automation = createFeed();
    const run = services.automations.runNow(automation.id);
    expect(run.prompt).toBe('Read this: (no event: this run was started by hand)');
    expect(() => services.automations.update(automation.id, { cronExpression: '0 9 * * *' })).toThrow(/only an event trigger .* fills/);
    expect(() => services.automations.create({ name: 'x', prompt: 'p', cronExpression: '0 9 * * *', timezone: 'UTC', enabled: true, catchUp: 'all', notify: 'default', memory: 'fresh' })).toThrow(/catchUp "all" is for an event trigger/);
  });
});

describe('the source over its life', () => {
  it('is failing with the error, retried, and raises the unhealthy notice once after the setting\'s failures, and recovered once', async () => {
    const script = scriptedKind();
    const manager = servicesWith(script);
    const automation = createFeed();
    services.sources.start();
    const health = () => manager.health(store.automations.get(automation.id)!)!;
    for (let failure = 1; failure <= 4; failure++) {
      const attempt = await waitFor(() => script.attempts[failure - 1], { what: `attempt ${failure}` });
      expect(health().state).toBe(failure === 1 ? 'checking' : 'failing');
      // Until a first look is handed over, a retry keeps its phase: a baseline stays a baseline.
      expect(attempt.ctx.phase).toBe(failure <= 2 ? 'first' : 'reconnect');
      if (failure === 2) attempt.ctx.emit([event(0)], { set: [['etag', '"v1"']] }, { initial: true });
      attempt.fail(new Error('connection refused by example.com:443'));
      await waitFor(() => health().failures === failure, { what: `failure ${failure} counted` });
      expect(health()).toMatchObject({ state: 'failing', error: 'connection refused by example.com:443' });
    }
    const { ctx } = await waitFor(() => script.attempts[4], { what: 'attempt 5' });
    expect(ctx.phase).toBe('reconnect');
    expect(notices().map((notice) => notice.kind)).toEqual(['automation-unhealthy']);
    expect(notices()[0].body).toContain('failed 3 times in a row: connection refused by example.com:443');
    expect(services.automations.get(automation.id).source).toMatchObject({ state: 'failing', failures: 4 });
    ctx.alive('polled every 15 min');
    expect(health()).toMatchObject({ state: 'listening', error: null, failures: 0, how: 'polled every 15 min' });
    expect(notices().map((notice) => notice.kind)).toEqual(['automation-unhealthy', 'automation-recovered']);
    // A reconnect's first look runs what it finds: it came while the source was failing.
    ctx.emit([event(7)], {}, { initial: true });
    expect(runsOf(automation.id)).toHaveLength(1);
  });

  it('cannot pass for alive when it falls silent: the watchdog abandons the attempt and starts another', async () => {
    const script = scriptedKind(300);
    const manager = servicesWith(script);
    const automation = createFeed();
    services.sources.start();
    const first = await waitFor(() => script.attempts[0], { what: 'the source to start' });
    first.ctx.alive('IDLE');
    expect(manager.health(store.automations.get(automation.id)!)!.state).toBe('listening');
    const failing = await waitFor(() => manager.health(store.automations.get(automation.id)!), { what: 'the silent source to be failing', until: (health) => health?.state === 'failing' });
    expect(failing!.error).toMatch(/^no sign of life for \d+ s/);
    expect(first.ctx.signal.aborted).toBe(true);
    await waitFor(() => script.attempts[1], { what: 'a new attempt' });
    // The abandoned attempt can no longer move the cursor or start runs.
    expect(() => first.ctx.emit([event(1)], { set: [['k', 'v']] })).toThrow('this source was stopped');
    expect(runsOf(automation.id)).toEqual([]);
  });

  it('keeps running through a rename, starts afresh from a new baseline when its trigger changes, stops when disabled or deleted', async () => {
    const script = scriptedKind();
    servicesWith(script);
    const automation = createFeed();
    services.sources.start();
    const first = await waitFor(() => script.attempts[0], { what: 'the source to start' });
    first.ctx.emit([], { set: [['seen:a', '1']] }, { initial: true });
    services.automations.update(automation.id, { name: 'renamed', prompt: 'New prompt {{event.title}}' });
    first.ctx.emit([event(1)], {});
    expect(runsOf(automation.id)[0].prompt).toContain('New prompt');
    expect(script.attempts).toHaveLength(1);

    services.automations.update(automation.id, { trigger: { feed: { url: 'https://example.org/other.xml', pollMinutes: 5, filter: [] } } });
    const second = await waitFor(() => script.attempts[1], { what: 'the changed source to start' });
    expect(first.ctx.signal.aborted).toBe(true);
    expect(second.ctx.phase).toBe('first');
    expect(store.sourceState.entries(automation.id).size).toBe(0);

    services.automations.update(automation.id, { enabled: false });
    await waitFor(() => second.ctx.signal.aborted, { what: 'the disabled source to stop' });
    services.automations.update(automation.id, { enabled: true });
    const third = await waitFor(() => script.attempts[2], { what: 'the source switched back on' });
    expect(third.ctx.phase).toBe('first');
    third.ctx.emit([], { set: [['seen:b', '1']] }, { initial: true });
    services.automations.delete(automation.id);
    await waitFor(() => third.ctx.signal.aborted, { what: 'the deleted source to stop' });
    expect(store.sourceState.has(automation.id)).toBe(false);
  });

  it('stops every source while automations are paused and passes over what came meanwhile on resume', async () => {
    const script = scriptedKind();
    const manager = servicesWith(script);
    const automation = createFeed();
    services.sources.start();
    const first = await waitFor(() => script.attempts[0], { what: 'the source to start' });
    first.ctx.emit([], { set: [['seen:a', '1']] }, { initial: true });
    services.scheduler.setPaused(true);
    await waitFor(() => first.ctx.signal.aborted, { what: 'the paused source to stop' });
    expect(first.ctx.signal.aborted).toBe(true);
    expect(manager.health(store.automations.get(automation.id)!)).toMatchObject({ state: 'checking', how: 'not listening: automations are paused' });
    services.scheduler.setPaused(false);
    const second = await waitFor(() => script.attempts[1], { what: 'the resumed source' });
    expect(second.ctx.phase).toBe('resume');
    second.ctx.emit([event(1)], { set: [['seen:item-1', '1']] }, { initial: true });
    expect(runsOf(automation.id)).toEqual([]);
  });
});

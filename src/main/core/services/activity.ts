// The activity feed: every instance's log read with exact per-instance cursors. A poll takes, in
// one snapshot, each instance's lines after its cursor and merges them oldest first; when more
// than `limit` are new, cursors move only past what was returned, so polling with the returned
// cursors sees every line exactly once. Retention trims old lines; a cursor into trimmed lines
// resumes at the oldest kept one and the answer says how many were skipped.
import type { ActivityEvent, ActivityFeed, ActivityQuery, Cursors, Instance, InstanceActivityQuery } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import type { ActivityFilter, StoredActivityLine } from '../store/repositories/activity';
import { readSettings } from '../settings';
import type { ServiceContext } from './context';
import type { InstanceDirectory } from './live-events';
import type { z } from 'zod';

const pageSize = 100;
const hour = 60 * 60 * 1000;

/** Base64 (standard or URL-safe) of a JSON object of non-negative integers. */
export function decodeCursors(text: string): Cursors {
  const fail = (why: string) => new AppError('invalid_cursors', `cursors ${why}: pass back the cursors object a response returned, as Base64 of its JSON.`, { field: 'cursors' });
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8'));
  } catch {
    throw fail('is not Base64 of JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw fail('must be a JSON object');
  for (const [id, line] of Object.entries(parsed)) {
    if (!Number.isSafeInteger(line) || (line as number) < 0) throw fail(`for ${id} must be a whole number of at least 0`);
  }
  return parsed as Cursors;
}

const toIso = (value: string | undefined) => (value === undefined ? undefined : new Date(value).toISOString());

/** `directory`: every instance whose lines are kept here, this Steward's and its remotes'. `alsoTrim`: other logs trimmed on the same hourly tick (webhook deliveries); returns how many rows went. */
export function createActivityService(context: ServiceContext, directory: InstanceDirectory, alsoTrim: () => number = () => 0) {
  const { store } = context;

  function decorate(line: StoredActivityLine, instance: Pick<Instance, 'name' | 'avatarUrl'>): ActivityEvent {
    return {
      instanceId: line.instanceId,
      instanceName: instance.name,
      avatarUrl: instance.avatarUrl,
      label: line.label as ActivityEvent['label'],
      kind: line.kind as ActivityEvent['kind'],
      timestamp: line.timestamp,
      displayText: line.displayText,
      raw: line.raw,
      line: line.line,
      runId: line.runId,
    };
  }

  function filterOf(query: ActivityQuery): ActivityFilter {
    return {
      kinds: query.kinds,
      labels: query.labels?.map((label) => (label === 'none' ? '' : label)),
      since: toIso(query.since),
      until: toIso(query.until),
    };
  }

  function feed(query: ActivityQuery): ActivityFeed {
    const given = query.cursors === undefined ? undefined : decodeCursors(query.cursors);
    return store.read(() => {
      const instances = query.location === 'local' ? store.instances.list() : directory.all();
      const byId = new Map(instances.map((instance) => [instance.id, instance]));
      const inScope = query.instanceIds ? instances.filter((instance) => query.instanceIds!.includes(instance.id)) : instances;
      const heads = store.activity.heads();
      const headOf = (id: string) => heads.get(id) ?? { lastLine: 0, trimmedThrough: 0 };
      const filter = filterOf(query);
      const summary = instances.map(({ id, name, avatarUrl }) => ({ id, name, avatarUrl }));
      const withInstance = (line: StoredActivityLine) => decorate(line, byId.get(line.instanceId)!);

      if (given === undefined) {
        const instanceIds = query.instanceIds ?? (query.location === 'local' ? instances.map((instance) => instance.id) : undefined);
        const events = store.activity.latest(query.limit, { ...filter, instanceIds }).map(withInstance);
        const cursors = Object.fromEntries(instances.map((instance) => [instance.id, headOf(instance.id).lastLine]));
        return { events, cursors, instances: summary, hasMore: false, skipped: {} };
      }

      // Each instance in scope is a queue of its lines after its cursor, in line order; the merge
      // takes the oldest head among them, so what an instance returns is always a prefix.
      const queues = inScope.map((instance) => {
        const head = headOf(instance.id);
        const from = Math.min(given[instance.id] ?? 0, head.lastLine);
        // An instance with nothing after its cursor is not read at all: a poll costs what is new.
        return { id: instance.id, head, from, taken: from, page: [] as StoredActivityLine[], exhausted: from >= head.lastLine, skipped: Math.max(0, head.trimmedThrough - from) };
      });
      const refill = (queue: (typeof queues)[number]) => {
        if (queue.page.length > 0 || queue.exhausted) return;
        queue.page = store.activity.after(queue.id, queue.taken, pageSize, filter);
        queue.exhausted = queue.page.length < pageSize;
      };
      const events: ActivityEvent[] = [];
      for (;;) {
        let next: (typeof queues)[number] | undefined;
        for (const queue of queues) {
          refill(queue);
          const candidate = queue.page[0];
          if (!candidate) continue;
          const best = next?.page[0];
          if (!best || candidate.timestamp < best.timestamp || (candidate.timestamp === best.timestamp && candidate.instanceId < best.instanceId)) next = queue;
        }
        if (!next || events.length === query.limit) break;
        const line = next.page.shift()!;
        next.taken = line.line;
        events.push(withInstance(line));
      }
      const hasMore = queues.some((queue) => queue.page.length > 0);
      const cursors: Cursors = {};
      // Instances outside the filter keep the cursor they came with.
      for (const [id, line] of Object.entries(given)) if (byId.has(id)) cursors[id] = line;
      // A queue with nothing left was read to its end: every line up to the head was looked at.
      for (const queue of queues) cursors[queue.id] = queue.page.length === 0 && queue.exhausted ? queue.head.lastLine : queue.taken;
      const skipped = Object.fromEntries(queues.filter((queue) => queue.skipped > 0).map((queue) => [queue.id, queue.skipped]));
      return { events, cursors, instances: summary, hasMore, skipped };
    });
  }

  function instanceLines(id: string, query: z.output<typeof InstanceActivityQuery>) {
    return store.read(() => {
      const instance = directory.get(id);
      if (!instance) throw new AppError('not_found', `No instance ${id}.`);
      const head = store.activity.head(id);
      const lines = store.activity.after(id, query.cursor, query.limit + 1);
      const hasMore = lines.length > query.limit;
      const events = lines.slice(0, query.limit).map((line) => decorate(line, instance));
      const cursor = hasMore ? events.at(-1)!.line : Math.max(query.cursor, head.lastLine);
      return { events, lineCount: head.lastLine, cursor, hasMore, skipped: Math.max(0, head.trimmedThrough - query.cursor) };
    });
  }

  /** Deletes what retention no longer keeps: past `activity.retentionLines` per instance or older than `activity.retentionDays`. */
  function trim(): number {
    const { retentionLines: maxLines, retentionDays: maxDays } = readSettings(store).activity;
    const cutoff = maxDays === null ? undefined : new Date(context.now().getTime() - maxDays * 24 * hour).toISOString();
    let removed = 0;
    for (const [instanceId, head] of store.activity.heads()) {
      const byCount = maxLines === null ? 0 : head.lastLine - maxLines;
      const byAge = cutoff === undefined ? 0 : store.activity.lastLineBefore(instanceId, cutoff);
      const through = Math.max(byCount, byAge);
      if (through > head.trimmedThrough) removed += store.transaction(() => store.activity.trim(instanceId, through));
    }
    return removed;
  }

  let timer: unknown;
  return {
    feed,
    instanceLines,
    trim,
    decorate,
    /** Trims now and every hour. */
    startRetention(): void {
      const tick = () => {
        try {
          const removed = trim();
          if (removed > 0) context.logger.info({ removed }, 'activity retention trimmed old lines');
          const deliveries = alsoTrim();
          if (deliveries > 0) context.logger.info({ removed: deliveries }, 'retention trimmed old webhook deliveries');
        } catch (error) {
          context.logger.error({ err: error }, 'activity retention failed');
        }
        timer = context.clock.setTimer(tick, hour);
      };
      tick();
    },
    stopRetention(): void {
      if (timer !== undefined) context.clock.clearTimer(timer);
      timer = undefined;
    },
  };
}

export type ActivityService = ReturnType<typeof createActivityService>;

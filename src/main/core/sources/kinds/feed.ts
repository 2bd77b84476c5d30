// The feed source: polls an RSS, Atom, RDF or JSON feed every pollMinutes and hands over each item
// it has not seen, oldest first, as one event. The cursor holds the ids seen (`seen:<id>` = the
// item's published time, or when it was first seen), the ETag and Last-Modified of the last answer,
// `since` (when the baseline was taken) and `forgotBefore` (see forgetAfterMs). All of it moves only
// with the runs, in emit's transaction, so an item is never run twice, whatever stops Steward when.
import type { FeedTrigger } from '../../../../shared/contract';
import type { CursorChange, SourceContext, SourceEvent, SourceKind } from '../source-kind';
import { fetchFeed } from './feed-fetch';
import { type FeedItem, type ParsedFeed, readFeed } from './feed-items';
import { sleep } from '../sleep';

const seenPrefix = 'seen:';

/**
 * How long an id that left the feed is remembered. Feeds list their latest items, so an id that
 * left rarely comes back; but some feeds reorder, or drop an item for a while and list it again.
 * Thirty days covers that while keeping the set bounded (roughly the items a feed lists plus those
 * of the last 30 days), and `forgotBefore` guards the rest: an unseen item published no later than
 * the newest forgotten one may be one that was forgotten, so it is recorded seen, not run.
 */
export const forgetAfterMs = 30 * 24 * 60 * 60 * 1000;
/** However busy the feed, at most this many ids that left it are kept (the oldest go first). */
export const maxGoneIds = 5000;

/** Items shown by the preview of a feed whose items carry no dates. */
const previewUndated = 5;

const titleInSummary = (title: string) => (title.length > 120 ? `${title.slice(0, 119)}…` : title) || '(untitled)';

function feedName(feed: ParsedFeed, url: string): string {
  return feed.title || new URL(url).host;
}

export function eventOf(item: FeedItem, feed: string, foundAt: string): SourceEvent {
  return {
    key: item.id,
    at: item.published ?? foundAt,
    summary: `New in ${feed}: "${titleInSummary(item.title)}"`,
    fields: { feed, title: item.title, link: item.link ?? null, author: item.author ?? null, published: item.published ?? null, text: item.text, categories: item.categories, id: item.id },
  };
}

/** The feed's items once each (a feed may list one id twice: the first stands). */
function distinct(items: FeedItem[]): FeedItem[] {
  const found = new Map<string, FeedItem>();
  for (const item of items) if (!found.has(item.id)) found.set(item.id, item);
  return [...found.values()];
}

/** Oldest first: by published time when every item has one, else the reverse of the feed's order (feeds list newest first). */
function oldestFirst(items: FeedItem[]): FeedItem[] {
  const reversed = [...items].reverse();
  return reversed.every((item) => item.published !== undefined) ? reversed.sort((a, b) => (a.published! < b.published! ? -1 : a.published! > b.published! ? 1 : 0)) : reversed;
}

export interface Look {
  events: SourceEvent[];
  change: { set: [string, string][]; delete: string[] };
  /** Unseen items passed over because they may be ones forgotten (see forgetAfterMs). */
  passedOver: number;
}

/** What a look at `feed` finds against the cursor: the new items' events and the cursor's move. */
export function lookAt(feed: ParsedFeed, url: string, cursor: SourceContext<FeedTrigger>['cursor'], now: Date): Look {
  const nowIso = now.toISOString();
  const name = feedName(feed, url);
  const seen = cursor.entries(seenPrefix);
  const items = distinct(feed.items);
  const listed = new Set(items.map((item) => seenPrefix + item.id));
  const set: [string, string][] = [];
  const remove: string[] = [];

  // Forget ids that left the feed long ago, and the oldest beyond maxGoneIds.
  const gone = [...seen].filter(([key]) => !listed.has(key)).sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  const horizon = new Date(now.getTime() - forgetAfterMs).toISOString();
  const forgotten = gone.filter(([, value], index) => value < horizon || index < gone.length - maxGoneIds);
  let forgotBefore = cursor.get('forgotBefore');
  for (const [key, value] of forgotten) {
    remove.push(key);
    if (forgotBefore === undefined || value > forgotBefore) forgotBefore = value;
  }
  if (forgotBefore !== undefined && forgotBefore !== cursor.get('forgotBefore')) set.push(['forgotBefore', forgotBefore]);

  const fresh = items.filter((item) => !seen.has(seenPrefix + item.id));
  let passedOver = 0;
  const events: SourceEvent[] = [];
  for (const item of oldestFirst(fresh)) {
    // A date to come (a feed's mistake) is kept as now: forgetting goes by it, and must not wait on it.
    set.push([seenPrefix + item.id, item.published !== undefined && item.published < nowIso ? item.published : nowIso]);
    if (item.published !== undefined && forgotBefore !== undefined && item.published <= forgotBefore) passedOver += 1;
    else events.push(eventOf(item, name, nowIso));
  }
  return { events, change: { set, delete: remove }, passedOver };
}

/** The cursor's ETag and Last-Modified as the answer left them. */
function validators(change: Look['change'], cursor: SourceContext<FeedTrigger>['cursor'], answer: { etag: string | undefined; lastModified: string | undefined }): void {
  for (const [key, value] of [['etag', answer.etag], ['lastModified', answer.lastModified]] as const) {
    if (value !== undefined && value !== cursor.get(key)) change.set.push([key, value]);
    if (value === undefined && cursor.get(key) !== undefined) change.delete.push(key);
  }
}

/**
 * Waits until the core's clock reaches `due`, looking at it every second rather than trusting one
 * long timer: after a laptop wakes, a poll that fell due while it slept happens at once.
 */
async function until(ctx: Pick<SourceContext<FeedTrigger>, 'now' | 'signal'>, due: number): Promise<void> {
  for (;;) {
    const left = due - ctx.now().getTime();
    if (left <= 0 || ctx.signal.aborted) return;
    await sleep(Math.min(left, 1000), ctx.signal);
  }
}

function parsed(url: string, body: string, contentType: string | undefined): ParsedFeed {
  try {
    return readFeed(body, contentType);
  } catch (error) {
    throw new Error(`${url} is not a feed: ${(error as Error).message}`, { cause: error });
  }
}

export const feedSource: SourceKind<FeedTrigger> = {
  kind: 'feed',
  livenessMs: (config) => config.pollMinutes * 60_000,

  async run(ctx) {
    const { config, cursor, signal } = ctx;
    const how = `polled every ${config.pollMinutes} min`;
    let initial = true;
    while (!signal.aborted) {
      // The first look ever takes the baseline: what the feed lists now is seen, run for none. Asked
      // of the cursor, not only of the phase: a first look that failed is retried as a reconnect.
      const baseline = initial && cursor.get('since') === undefined;
      const startedAt = ctx.now().getTime();
      let answer: Awaited<ReturnType<typeof fetchFeed>>;
      try {
        answer = await fetchFeed(config.url, { reach: (host, port, named) => ctx.reach(host, port, named), signal, etag: cursor.get('etag'), lastModified: cursor.get('lastModified') });
      } catch (error) {
        if (signal.aborted) return;
        throw error;
      }
      if (answer.status === 'ok') {
        const feed = parsed(config.url, answer.body, answer.contentType);
        const look = lookAt(feed, config.url, cursor, ctx.now());
        validators(look.change, cursor, answer);
        if (baseline) look.change.set.push(['since', ctx.now().toISOString()]);
        if (look.passedOver > 0) ctx.logger.info({ passedOver: look.passedOver }, 'feed: items older than ids already forgotten were recorded seen, not run');
        const change: CursorChange = look.change;
        if (initial || look.events.length > 0 || look.change.set.length > 0 || look.change.delete.length > 0) {
          ctx.emit(baseline ? [] : look.events, change, { initial });
        }
      } else if (answer.etag !== cursor.get('etag') || answer.lastModified !== cursor.get('lastModified')) {
        const change: Look['change'] = { set: [], delete: [] };
        validators(change, cursor, answer);
        ctx.emit([], change, { initial });
      }
      ctx.alive(how);
      initial = false;
      await until(ctx, startedAt + config.pollMinutes * 60_000);
    }
  },

  async preview(config, tools) {
    const answer = await fetchFeed(config.url, { reach: (host, port, named) => tools.reach(host, port, named), signal: tools.signal });
    if (answer.status !== 'ok') return [];
    const feed = parsed(config.url, answer.body, answer.contentType);
    const now = tools.now();
    const nowIso = now.toISOString();
    const name = feedName(feed, config.url);
    const items = distinct(feed.items);
    if (!items.some((item) => item.published !== undefined)) return items.slice(0, previewUndated).map((item) => eventOf(item, name, nowIso));
    const dayAgo = new Date(now.getTime() - 24 * 60 * 60 * 1000).toISOString();
    return oldestFirst(items.filter((item) => item.published !== undefined && item.published >= dayAgo))
      .reverse()
      .map((item) => eventOf(item, name, nowIso));
  },
};

// A fetched feed read with feedsmith (RSS 0.9x/2.0, Atom 0.3/1.0, RDF, JSON Feed 1.0/1.1) into the
// few things a feed trigger needs of each item: a stable id, its title, link, author, published
// time, text and categories. Anything that is not a feed is an Error saying what it is instead.
import { createHash } from 'node:crypto';
import { type AnyFeed, type AtomFeed, DetectError, type JsonFeed, MalformedError, type RdfFeed, type RssFeed, parseFeed } from 'feedsmith';
import { htmlToText, oneLine, tidy } from './feed-text';

export interface FeedItem {
  /** The cursor's and the event's key: the item's guid, id or link (hashed when longer than keeps well), else a hash of its content. */
  id: string;
  title: string;
  link: string | undefined;
  author: string | undefined;
  /** ISO UTC, or undefined when the feed gives no readable date. */
  published: string | undefined;
  /** Its content or summary as plain text. */
  text: string;
  categories: string[];
}

export interface ParsedFeed {
  format: 'rss' | 'atom' | 'rdf' | 'json';
  title: string;
  /** In the feed's order (most feeds: newest first). */
  items: FeedItem[];
}

/** Ids up to this long are kept as written; longer ones are hashed (a cursor key stays small). */
const maxIdLength = 200;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export function itemKey(raw: string): string {
  const id = raw.trim();
  return id.length <= maxIdLength ? id : `sha256:${sha256(id)}`;
}

/** A date as a feed writes it (RFC 822, ISO 8601, …) as ISO UTC; undefined when it does not read as one. */
export function isoDate(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const time = Date.parse(value.trim());
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/** An Atom text construct as text: html and xhtml without their markup. */
const atomText = (text: AtomFeed.Text | AtomFeed.Content | undefined): string => {
  const value = text?.value ?? '';
  return text?.type === 'html' || text?.type === 'xhtml' || /html/i.test(text?.type ?? '') ? htmlToText(value) : tidy(value);
};

const names = (values: (string | undefined)[]): string | undefined => {
  const found = [...new Set(values.map((value) => (value === undefined ? '' : oneLine(value))).filter((value) => value !== ''))];
  return found.length > 0 ? found.join(', ') : undefined;
};

const nonEmpty = (...values: (string | undefined)[]): string | undefined => values.map((value) => value?.trim()).find((value) => value !== undefined && value !== '');

/** An item without guid, id or link: its content decides its id, so it is still seen once. */
const contentId = (title: string, published: string | undefined, text: string) => `sha256:${sha256(JSON.stringify([title, published ?? '', text]))}`;

function item(fields: { id: string | undefined; title: string; link: string | undefined; author: string | undefined; published: string | undefined; text: string; categories: (string | undefined)[] }): FeedItem {
  const { title, published, text } = fields;
  return {
    id: fields.id !== undefined ? itemKey(fields.id) : contentId(title, published, text),
    title,
    link: fields.link,
    author: fields.author,
    published,
    text,
    categories: [...new Set(fields.categories.map((category) => (category === undefined ? '' : oneLine(category))).filter((category) => category !== ''))],
  };
}

function rssItem(entry: RssFeed.Item<string>): FeedItem {
  const link = nonEmpty(entry.link);
  const text = htmlToText(nonEmpty(entry.content?.encoded, entry.description) ?? '');
  return item({
    id: nonEmpty(entry.guid?.value, link),
    title: oneLine(entry.title ?? ''),
    link,
    author: names([...(entry.dc?.creators ?? []), ...(entry.authors ?? []).map((person) => person.name ?? person.email)]),
    published: isoDate(entry.pubDate) ?? isoDate(entry.dc?.dates?.[0]),
    text,
    categories: [...(entry.categories ?? []).map((category) => category.name), ...(entry.dc?.subjects ?? [])],
  });
}

function atomEntry(entry: AtomFeed.Entry<string>): FeedItem {
  const links = entry.links ?? [];
  const link = nonEmpty((links.find((each) => each.rel === undefined || each.rel === 'alternate') ?? links[0])?.href);
  return item({
    id: nonEmpty(entry.id, link),
    title: oneLine(atomText(entry.title)),
    link,
    author: names([...(entry.authors ?? []).map((person) => person.name), ...(entry.dc?.creators ?? [])]),
    published: isoDate(entry.published) ?? isoDate(entry.updated) ?? isoDate(entry.dc?.dates?.[0]),
    text: entry.content?.value ? atomText(entry.content) : atomText(entry.summary),
    categories: (entry.categories ?? []).map((category) => category.label ?? category.term),
  });
}

function rdfItem(entry: RdfFeed.Item<string>): FeedItem {
  const link = nonEmpty(entry.link);
  return item({
    id: nonEmpty(entry.rdf?.about, link),
    title: oneLine(entry.title ?? ''),
    link,
    author: names(entry.dc?.creators ?? []),
    published: isoDate(entry.dc?.dates?.[0]),
    text: htmlToText(nonEmpty(entry.content?.encoded, entry.description) ?? ''),
    categories: entry.dc?.subjects ?? [],
  });
}

function jsonItem(entry: JsonFeed.Item<string>): FeedItem {
  const link = nonEmpty(entry.url, entry.external_url);
  // JSON Feed's id is a string, but feeds in the wild write numbers.
  const raw: unknown = entry.id;
  const id = typeof raw === 'string' ? raw : typeof raw === 'number' ? String(raw) : undefined;
  return item({
    id: nonEmpty(id, link),
    title: oneLine(entry.title ?? ''),
    link,
    author: names((entry.authors ?? []).map((person) => person.name)),
    published: isoDate(entry.date_published) ?? isoDate(entry.date_modified),
    text: entry.content_text ? tidy(entry.content_text) : entry.content_html ? htmlToText(entry.content_html) : tidy(entry.summary ?? ''),
    categories: entry.tags ?? [],
  });
}

/** What a body that is not a feed looks like, in words. */
function notAFeed(body: string, contentType: string | undefined): string {
  const start = body.replace(/^\uFEFF/, '').trimStart().slice(0, 1000).toLowerCase();
  if (start === '') return 'the answer is empty';
  if (/html/.test(contentType ?? '') || start.startsWith('<!doctype html') || /^(?:<\?xml[^>]*>\s*)?<html[\s>]/.test(start)) return 'it is an HTML page (perhaps the site, not its feed: look for a link to RSS or Atom on it)';
  if (start.startsWith('{') || start.startsWith('[')) return 'it is JSON, but not a JSON Feed';
  if (start.startsWith('<')) return 'it is XML, but neither RSS, Atom nor RDF';
  return `it is not RSS, Atom or JSON Feed${contentType ? ` (${contentType.split(';')[0]})` : ''}`;
}

/** The feed in `body`; throws an Error whose message says why it is not one. */
export function readFeed(body: string, contentType: string | undefined): ParsedFeed {
  let parsed: AnyFeed<string>;
  try {
    parsed = parseFeed<string>(body);
  } catch (error) {
    if (error instanceof DetectError) throw new Error(notAFeed(body, contentType), { cause: error });
    const cause = error instanceof MalformedError && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    if (error instanceof MalformedError) throw new Error(`its XML is malformed${cause}`, { cause: error });
    throw new Error(`it has no feed in it (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  switch (parsed.format) {
    case 'rss':
      return { format: 'rss', title: oneLine(parsed.feed.title ?? ''), items: (parsed.feed.items ?? []).map(rssItem) };
    case 'atom':
      return { format: 'atom', title: oneLine(atomText(parsed.feed.title)), items: (parsed.feed.entries ?? []).map(atomEntry) };
    case 'rdf':
      return { format: 'rdf', title: oneLine(parsed.feed.title ?? ''), items: (parsed.feed.items ?? []).map(rdfItem) };
    case 'json':
      return { format: 'json', title: oneLine(parsed.feed.title ?? ''), items: (parsed.feed.items ?? []).map(jsonItem) };
  }
}

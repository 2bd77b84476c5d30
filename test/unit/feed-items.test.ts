// What the feed source reads of a feed (readFeed: RSS, Atom, RDF, JSON Feed into items; HTML into
// text) and what a look finds against the cursor (lookAt): new items oldest first, each id once,
// long ids hashed, ids that left the feed forgotten after 30 days (or past 5000), and an unseen item
// no newer than a forgotten one passed over rather than run a second time.
import { describe, expect, it } from 'vitest';
import { readFeed } from '../../src/main/core/sources/kinds/feed-items';
import { htmlToText } from '../../src/main/core/sources/kinds/feed-text';
import { forgetAfterMs, lookAt, maxGoneIds } from '../../src/main/core/sources/kinds/feed';

describe('readFeed', () => {
  it('reads RSS 2.0: guid, link, dc:creator, pubDate, content:encoded before description, categories', () => {
    const feed = readFeed(
      `<?xml version="1.0"?><rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>Blog &amp; Co</title>
      <item><title>Hello</title><link>https://b.example/1</link><guid isPermaLink="false">tag:b,1</guid><dc:creator>Bo</dc:creator><pubDate>Fri, 27 Nov 2026 10:00:00 +0100</pubDate>
      <description>short</description><content:encoded><![CDATA[<p>Long &ldquo;text&rdquo;</p>]]></content:encoded><category>a</category><category>b</category><category>a</category></item>
      <item><title>No guid</title><link>https://b.example/2</link></item></channel></rss>`,
      'application/rss+xml',
    );
    expect(feed.title).toBe('Blog & Co');
    expect(feed.items).toEqual([
      { id: 'tag:b,1', title: 'Hello', link: 'https://b.example/1', author: 'Bo', published: '2026-11-27T09:00:00.000Z', text: 'Long “text”', categories: ['a', 'b'] },
      { id: 'https://b.example/2', title: 'No guid', link: 'https://b.example/2', author: undefined, published: undefined, text: '', categories: [] },
    ]);
  });

  it('reads Atom: html titles and content as text, the alternate link, published else updated', () => {
    const feed = readFeed(
      `<feed xmlns="http://www.w3.org/2005/Atom"><title type="html">A &lt;b&gt;feed&lt;/b&gt;</title><id>urn:f</id><updated>2026-11-27T00:00:00Z</updated>
      <entry><id>urn:1</id><title type="html">One &lt;i&gt;x&lt;/i&gt;</title><link rel="self" href="https://a.example/self"/><link href="https://a.example/1"/><updated>2026-11-26T00:00:00Z</updated><summary>plain &lt;b&gt; stays</summary></entry>
      <entry><id>urn:2</id><title>Two</title><published>2026-11-25T00:00:00Z</published><updated>2026-11-26T00:00:00Z</updated><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>X</p><p>Y</p></div></content><author><name>Ann</name></author><category term="t" label="Tee"/></entry></feed>`,
      undefined,
    );
    expect(feed.title).toBe('A feed');
    expect(feed.items[0]).toMatchObject({ id: 'urn:1', title: 'One x', link: 'https://a.example/1', published: '2026-11-26T00:00:00.000Z', text: 'plain <b> stays' });
    expect(feed.items[1]).toMatchObject({ id: 'urn:2', title: 'Two', link: undefined, author: 'Ann', published: '2026-11-25T00:00:00.000Z', text: 'X\n\nY', categories: ['Tee'] });
  });

  it('reads RDF (RSS 1.0) and JSON Feed', () => {
    const rdf = readFeed(
      `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel rdf:about="https://r.example/"><title>R</title><link>https://r.example/</link><description>d</description></channel>
      <item rdf:about="https://r.example/1"><title>One</title><link>https://r.example/1</link><dc:date>2026-11-27T08:00:00Z</dc:date></item></rdf:RDF>`,
      undefined,
    );
    expect(rdf).toMatchObject({ format: 'rdf', title: 'R', items: [{ id: 'https://r.example/1', title: 'One', published: '2026-11-27T08:00:00.000Z' }] });
    const json = readFeed(JSON.stringify({ version: 'https://jsonfeed.org/version/1', title: 'J', items: [{ id: '7', url: 'https://j.example/7', content_text: 'Plain\n\n\n\ntext', tags: ['x'] }] }), 'application/json');
    expect(json).toMatchObject({ format: 'json', title: 'J', items: [{ id: '7', link: 'https://j.example/7', text: 'Plain\n\ntext', categories: ['x'] }] });
  });

  it('hashes ids too long to keep, and gives an item without guid, id or link an id from its content', () => {
    const long = `https://x.example/${'a'.repeat(300)}`;
    const feed = readFeed(`<rss version="2.0"><channel><title>T</title><item><guid>${long}</guid><title>L</title></item><item><title>Bare</title><description>d</description></item><item><title>Bare</title><description>d</description></item></channel></rss>`, undefined);
    expect(feed.items[0].id).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(feed.items[1].id).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(feed.items[2].id).toBe(feed.items[1].id);
  });

  it('says what a body is when it is not a feed', () => {
    const reason = (body: string, type?: string) => {
      try {
        readFeed(body, type);
        return 'read as a feed';
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(reason('<!DOCTYPE html><html><body>x</body></html>')).toMatch(/^it is an HTML page/);
    expect(reason('<html lang="en"><head></head></html>', 'text/html; charset=utf-8')).toMatch(/^it is an HTML page/);
    expect(reason('{"hello": "world"}')).toBe('it is JSON, but not a JSON Feed');
    expect(reason('<?xml version="1.0"?><note><to>x</to></note>')).toBe('it is XML, but neither RSS, Atom nor RDF');
    expect(reason('')).toBe('the answer is empty');
    expect(reason('plain words', 'text/plain')).toBe('it is not RSS, Atom or JSON Feed (text/plain)');
    expect(reason('<rss version="2.0"><channel><title>x</title><item><title>a</item></channel></rss>')).toMatch(/^its XML is malformed/);
  });
});

describe('htmlToText', () => {
  it('keeps the words: tags gone, blocks on lines, scripts and comments dropped, entities decoded', () => {
    expect(htmlToText('<h1>Title</h1><p>One&nbsp;&amp;&#32;two &#x2014; <a href="x">three</a></p><!-- hidden --><script>evil()</script><style>p{}</style><ul><li>a</li><li>b</li></ul>')).toBe('Title\n\nOne & two — three\n\na\nb');
    expect(htmlToText('a<br>b<br/>c <img src="x" alt="a cat"> d')).toBe('a\nb\nc a cat d');
    expect(htmlToText('5 < 6 and &unknown; &amp &#0; &#x110000;')).toBe('5 < 6 and &unknown; &amp \ufffd \ufffd');
  });
});

describe('lookAt', () => {
  const now = new Date('2026-11-27T12:00:00Z');
  const cursorOf = (entries: Record<string, string>) => ({
    get: (key: string) => entries[key],
    entries: (prefix = '') => new Map(Object.entries(entries).filter(([key]) => key.startsWith(prefix)).sort()),
  });
  const feed = (items: { id: string; published?: string }[]) => ({ format: 'rss' as const, title: 'F', items: items.map((item) => ({ title: item.id, link: undefined, author: undefined, text: '', categories: [], published: undefined, ...item })) });

  it('finds the unseen items, oldest first, each once, and records each seen at its published time', () => {
    const look = lookAt(feed([{ id: 'c', published: '2026-11-27T11:00:00.000Z' }, { id: 'a', published: '2026-11-27T09:00:00.000Z' }, { id: 'c', published: '2026-11-27T11:00:00.000Z' }, { id: 'b', published: '2026-11-27T10:00:00.000Z' }]), 'http://f.example/', cursorOf({ 'seen:b': '2026-11-27T10:00:00.000Z' }), now);
    expect(look.events.map((event) => event.key)).toEqual(['a', 'c']);
    expect(look.events[0]).toMatchObject({ at: '2026-11-27T09:00:00.000Z', summary: 'New in F: "a"' });
    expect(look.change.set).toEqual([
      ['seen:a', '2026-11-27T09:00:00.000Z'],
      ['seen:c', '2026-11-27T11:00:00.000Z'],
    ]);
    expect(look.change.delete).toEqual([]);
  });

  it('takes undated items in the reverse of the feed order, and keeps them seen from now; a date to come counts as now', () => {
    const look = lookAt(feed([{ id: 'new' }, { id: 'old' }, { id: 'future', published: '2030-01-01T00:00:00.000Z' }]), 'http://f.example/', cursorOf({}), now);
    expect(look.events.map((event) => event.key)).toEqual(['future', 'old', 'new']);
    expect(new Map(look.change.set)).toEqual(new Map([['seen:future', now.toISOString()], ['seen:old', now.toISOString()], ['seen:new', now.toISOString()]]));
  });

  it('forgets ids that left the feed more than 30 days ago, never one the feed still lists', () => {
    const old = new Date(now.getTime() - forgetAfterMs - 1000).toISOString();
    const recent = new Date(now.getTime() - forgetAfterMs + 60_000).toISOString();
    const look = lookAt(feed([{ id: 'listed', published: old }]), 'http://f.example/', cursorOf({ 'seen:listed': old, 'seen:gone-old': old, 'seen:gone-recent': recent }), now);
    expect(look.change.delete).toEqual(['seen:gone-old']);
    expect(look.change.set).toEqual([['forgotBefore', old]]);
  });

  it(`keeps at most ${maxGoneIds} ids that left the feed, forgetting the oldest`, () => {
    const entries: Record<string, string> = {};
    for (let n = 0; n < maxGoneIds + 3; n++) entries[`seen:gone-${n}`] = new Date(now.getTime() - (n + 1) * 1000).toISOString();
    const look = lookAt(feed([]), 'http://f.example/', cursorOf(entries), now);
    expect(look.change.delete.sort()).toEqual([`seen:gone-${maxGoneIds}`, `seen:gone-${maxGoneIds + 1}`, `seen:gone-${maxGoneIds + 2}`].sort());
    expect(look.change.set).toEqual([['forgotBefore', entries[`seen:gone-${maxGoneIds}`]]]);
  });

  it('passes over an unseen item no newer than the newest forgotten one (it may be one), and runs newer ones', () => {
    const look = lookAt(feed([{ id: 'back', published: '2026-09-01T00:00:00.000Z' }, { id: 'new', published: '2026-11-27T11:00:00.000Z' }]), 'http://f.example/', cursorOf({ forgotBefore: '2026-10-01T00:00:00.000Z', 'seen:x': '2026-11-27T00:00:00.000Z' }), now);
    expect(look.events.map((event) => event.key)).toEqual(['new']);
    expect(look.passedOver).toBe(1);
    expect(look.change.set.map(([key]) => key).sort()).toEqual(['seen:back', 'seen:new']);
  });
});

// One fetch of a feed: a conditional GET (ETag, Last-Modified) over Node's http/https, following at
// most 5 redirects. Every hop's host is judged by the address rules (`reach`, with the URL the user
// wrote as the one named host) and the connection goes to the address judged, through a lookup that
// answers it: the name is not looked up a second time, so a DNS answer that changes in between
// (rebinding) leads nowhere else, and a redirect to this machine, the LAN or cloud metadata is
// refused unless it is the host the user named. Bounded in time and size, gzip/deflate/br accepted.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { TextDecoder } from 'node:util';
import zlib from 'node:zlib';
import { parseAddress } from '../../../../shared/addresses';

export const maxRedirects = 5;
export const defaultTimeoutMs = 20_000;
/** The most of a feed read, decoded: 5 MB holds thousands of items; a bigger answer is not a feed worth reading. */
export const maxFeedBytes = 5 * 1024 * 1024;

export type Reach = (host: string, port: number, named: { host: string; port: number }) => Promise<string>;

export interface FetchOptions {
  reach: Reach;
  signal: AbortSignal;
  etag?: string | undefined;
  lastModified?: string | undefined;
  timeoutMs?: number;
  maxBytes?: number;
}

export type FetchResult =
  | { status: 'not-modified'; etag: string | undefined; lastModified: string | undefined }
  | { status: 'ok'; body: string; contentType: string | undefined; etag: string | undefined; lastModified: string | undefined; url: string };

const portOf = (url: URL) => Number(url.port || (url.protocol === 'https:' ? 443 : 80));

/** A lookup that answers `address` whatever it is asked: the connection goes where the check said. */
function pinnedTo(address: string): LookupFunction {
  const family = parseAddress(address)?.kind() === 'ipv6' ? 6 : 4;
  return (_hostname, options, callback) => {
    if (options.all) (callback as unknown as (error: null, all: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

function get(url: URL, address: string, headers: Record<string, string>, signal: AbortSignal): Promise<http.IncomingMessage> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    // A connection of its own (agent: false): a pooled one may lead to where an earlier lookup said.
    const request = client.request(url, { method: 'GET', headers, signal, agent: false, lookup: pinnedTo(address) });
    request.on('response', resolve);
    request.on('error', reject);
    request.end();
  });
}

/** The charset the answer names (Content-Type, else the XML declaration, else a BOM); UTF-8 otherwise. */
function charsetOf(bytes: Buffer, contentType: string | undefined): string {
  const declared = /;\s*charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType ?? '')?.[1];
  if (declared) return declared;
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  const head = bytes.subarray(0, 200).toString('latin1');
  return /^(?:\uFEFF|ï»¿)?\s*<\?xml[^>]*\bencoding\s*=\s*["']([\w.:-]+)["']/i.exec(head)?.[1] ?? 'utf-8';
}

/** windows-1252's 0x80–0x9F (the web reads ISO-8859-1 and ASCII as windows-1252 too); Node's decoder reads them as Latin-1's control codes. */
const cp1252High = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

function decode(bytes: Buffer, contentType: string | undefined): string {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charsetOf(bytes, contentType));
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  if (decoder.encoding === 'windows-1252') return bytes.toString('latin1').replace(/[\u0080-\u009f]/g, (char) => cp1252High[char.charCodeAt(0) - 0x80]);
  return decoder.decode(bytes);
}

/** The body decoded from its Content-Encoding, refused past maxBytes (a small gzip can unpack to gigabytes). */
async function readBody(response: http.IncomingMessage, maxBytes: number): Promise<Buffer> {
  const length = Number(response.headers['content-length']);
  if (Number.isFinite(length) && length > maxBytes) throw new Error(`it is larger than ${maxBytes / (1024 * 1024)} MB (${Math.round(length / (1024 * 1024))} MB)`);
  const encoding = String(response.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder = encoding === 'gzip' || encoding === 'x-gzip' ? zlib.createGunzip() : encoding === 'deflate' ? zlib.createInflate() : encoding === 'br' ? zlib.createBrotliDecompress() : undefined;
  const stream: Readable = decoder ? response.pipe(decoder) : response;
  // A decoding error is thrown on the decoder, not on the response the loop reads.
  response.on('error', (error) => decoder?.destroy(error));
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) throw new Error(`it is larger than ${maxBytes / (1024 * 1024)} MB`);
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR' || code?.startsWith('ERR__ERROR_FORMAT') || code === 'ERR_BROTLI_DECOMPRESSION_FAILED') throw new Error(`its ${encoding} encoding is broken`, { cause: error });
    throw error;
  } finally {
    response.destroy();
    decoder?.destroy();
  }
  return Buffer.concat(chunks);
}

const headerText = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value)?.trim() || undefined;

/** What went wrong with a connection, in words. */
function connectionWords(error: unknown, host: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ECONNREFUSED') return `nothing answers at ${host} (connection refused)`;
  if (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || (error as Error).message === 'aborted') return `${host} closed the connection before the feed was read`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `${host} cannot be reached (${code})`;
  if (code?.startsWith('ERR_TLS') || code?.includes('CERT') || code === 'DEPTH_ZERO_SELF_SIGNED_CERT') return `its TLS certificate is not trusted (${code}: ${(error as Error).message})`;
  return (error as Error).message || String(error);
}

/**
 * Fetches `configured` once. Throws an Error naming the feed and why (refused by the address rules,
 * no answer in time, a status other than 2xx/304, too big, too many redirects); rethrows the
 * abort when `signal` ends it.
 */
export async function fetchFeed(configured: string, options: FetchOptions): Promise<FetchResult> {
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const maxBytes = options.maxBytes ?? maxFeedBytes;
  const first = new URL(configured);
  const named = { host: first.hostname, port: portOf(first) };
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([options.signal, timeout]);
  const headers: Record<string, string> = {
    accept: 'application/rss+xml, application/atom+xml, application/feed+json, application/rdf+xml;q=0.9, application/xml;q=0.9, text/xml;q=0.9, application/json;q=0.8, */*;q=0.5',
    'accept-encoding': 'gzip, deflate, br',
    'user-agent': 'Steward (feed trigger)',
  };
  if (options.etag) headers['if-none-match'] = options.etag;
  if (options.lastModified) headers['if-modified-since'] = options.lastModified;

  let url = first;
  const where = () => (url.href === first.href ? first.href : `${first.href} (redirected to ${url.href})`);
  /** The URL that redirected to `url`, if any: a refusal of the hop names it. */
  let from: URL | undefined;
  try {
    for (let hops = 0; ; hops++) {
      const address = await options.reach(url.hostname, portOf(url), named).catch((error: Error) => {
        throw from ? new Error(`${from.href} redirects to ${url.href}: ${error.message}`, { cause: error }) : error;
      });
      let response: http.IncomingMessage;
      try {
        response = await get(url, address, headers, signal);
      } catch (error) {
        if (signal.aborted) throw error;
        throw new Error(`${where()} could not be fetched: ${connectionWords(error, url.host)}`, { cause: error });
      }
      const status = response.statusCode ?? 0;
      const location = headerText(response.headers.location);
      if (status >= 300 && status < 400 && status !== 304 && location) {
        response.resume();
        response.destroy();
        if (hops >= maxRedirects) throw new Error(`${first.href} redirects more than ${maxRedirects} times`);
        let next: URL;
        try {
          next = new URL(location, url);
        } catch (error) {
          throw new Error(`${where()} redirects to ${JSON.stringify(location.slice(0, 200))}, which is not a URL`, { cause: error });
        }
        if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new Error(`${where()} redirects to ${next.protocol} URL, which is not http or https`);
        from = url;
        url = next;
        continue;
      }
      const etag = headerText(response.headers.etag);
      const lastModified = headerText(response.headers['last-modified']);
      if (status === 304) {
        response.resume();
        response.destroy();
        return { status: 'not-modified', etag: etag ?? options.etag, lastModified: lastModified ?? options.lastModified };
      }
      if (status < 200 || status >= 300) {
        response.resume();
        response.destroy();
        throw new Error(`${where()} answered ${status} ${response.statusMessage ?? ''}`.trimEnd());
      }
      const contentType = headerText(response.headers['content-type']);
      let bytes: Buffer;
      try {
        bytes = await readBody(response, maxBytes);
      } catch (error) {
        if (signal.aborted) throw error;
        throw new Error(`${where()} could not be read: ${connectionWords(error, url.host)}`, { cause: error });
      }
      return { status: 'ok', body: decode(bytes, contentType), contentType, etag, lastModified, url: url.href };
    }
  } catch (error) {
    if (options.signal.aborted) throw options.signal.reason;
    if (timeout.aborted) throw new Error(`${where()} did not answer within ${Math.round(timeoutMs / 1000)} s`, { cause: error });
    throw error;
  }
}

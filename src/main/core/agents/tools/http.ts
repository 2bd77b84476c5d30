// http_request: one HTTP request with a timeout; the response's status, type and (capped) body. In
// a sandboxed run each hop (the URL and every redirect) is judged as the sandbox's proxy judges a
// connection, and the request goes to the address that was judged: the name is not looked up a
// second time, so a DNS answer that changes between the check and the connection (rebinding) does
// not lead it anywhere else.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { parseAddress } from '../../../../shared/addresses';
import { destination, requestOf, stewardServes } from '../../sandbox/egress';
import type { SandboxRun } from '../../sandbox/sandbox-run';
import { type Tool, ToolError, capText, numberArg, stringArg } from './tool';

const maxRedirects = 10;

const maxBodyChars = 30_000;

/** What is read of a body at most; the rest is left unread. */
const maxBodyBytes = 16 * 1024 * 1024;

/** Headers that are the first origin's alone: a redirect to another origin does not carry them. */
const originHeaders = ['authorization', 'cookie', 'proxy-authorization'];

/** Where the URL's host may be reached from this run: undefined to let the system resolve it (no sandbox), else the address judged. */
async function addressFor(url: URL, sandbox: SandboxRun | undefined): Promise<string | undefined> {
  if (!sandbox) return undefined;
  const { policy } = sandbox;
  const target = await destination(requestOf(url), { rules: policy.network, refused: policy.refused, stewardPort: policy.stewardPort });
  if ('refused' in target) {
    throw new ToolError(`The sandbox refused ${url.href}: ${target.refused}${target.allow ? `; to allow it, add ${target.allow} to the instance's sandbox network` : ''}.`);
  }
  if (target.to === 'address') return target.address;
  if (!stewardServes(url.pathname)) throw new ToolError(`The sandbox refused ${url.href}: it is Steward's own port, where a run reaches /mcp alone.`);
  return '127.0.0.1';
}

/** A lookup that answers `address` whatever it is asked: the connection goes where the check said. */
function pinnedTo(address: string): LookupFunction {
  const family = parseAddress(address)?.kind() === 'ipv6' ? 6 : 4;
  return (_hostname, options, callback) => {
    if (options.all) (callback as unknown as (error: null, all: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

interface Hop {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

function send(hop: Hop, address: string | undefined, signal: AbortSignal): Promise<http.IncomingMessage> {
  const client = hop.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    // A connection of its own (agent: false): a pooled one may lead to where an earlier lookup said.
    const request = client.request(hop.url, { method: hop.method, headers: hop.headers, signal, agent: false, ...(address === undefined ? {} : { lookup: pinnedTo(address) }) });
    request.on('response', resolve);
    request.on('error', reject);
    request.end(hop.body);
  });
}

/** The body as text, decoded as the server encoded it, read up to maxBodyBytes. */
async function readText(response: http.IncomingMessage): Promise<string> {
  const encoding = String(response.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder = encoding === 'gzip' || encoding === 'x-gzip' ? zlib.createGunzip() : encoding === 'deflate' ? zlib.createInflate() : encoding === 'br' ? zlib.createBrotliDecompress() : undefined;
  const stream: Readable = decoder ? response.pipe(decoder) : response;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size >= maxBodyBytes) break;
  }
  response.destroy();
  return Buffer.concat(chunks).toString('utf8');
}

export const httpTool: Tool = {
  name: 'http_request',
  acts: true,
  description: 'Make an HTTP request and get the status, content type and body (text, cut when long).',
  parameters: {
    type: 'object',
    properties: {
      url: { type: 'string', description: 'An http or https URL' },
      method: { type: 'string', enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'], default: 'GET' },
      headers: { type: 'object', additionalProperties: { type: 'string' } },
      body: { type: 'string' },
      timeoutSeconds: { type: 'integer', minimum: 1, maximum: 120, default: 30 },
    },
    required: ['url'],
    additionalProperties: false,
  },
  async run(args, { signal, sandbox }) {
    const text = stringArg(args, 'url');
    if (!/^https?:\/\//i.test(text)) throw new ToolError('The url must start with http:// or https://.');
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new ToolError(`${text} is not a URL.`);
    }
    const method = stringArg(args, 'method', 'GET').toUpperCase();
    const headers = args.headers === undefined ? {} : (args.headers as Record<string, string>);
    const body = args.body === undefined ? undefined : stringArg(args, 'body');
    const timeout = AbortSignal.timeout(numberArg(args, 'timeoutSeconds', 30, 1, 120) * 1000);
    const either = AbortSignal.any([signal, timeout]);
    let hop: Hop = { url, method, headers, body };
    let response = await send(hop, await addressFor(url, sandbox), either);
    for (let count = 0; count < maxRedirects && response.statusCode! >= 300 && response.statusCode! < 400 && response.headers.location; count++) {
      response.resume();
      const next = new URL(response.headers.location, hop.url);
      if (next.protocol !== 'http:' && next.protocol !== 'https:') break;
      const keepsMethod = response.statusCode === 307 || response.statusCode === 308;
      const sameOrigin = next.origin === hop.url.origin;
      const nextHeaders = Object.fromEntries(Object.entries(hop.headers).filter(([name]) => sameOrigin || !originHeaders.includes(name.toLowerCase())));
      hop = { url: next, method: keepsMethod ? hop.method : hop.method === 'HEAD' ? 'HEAD' : 'GET', headers: nextHeaders, body: keepsMethod ? hop.body : undefined };
      response = await send(hop, await addressFor(next, sandbox), either);
    }
    const content = hop.method === 'HEAD' ? '' : await readText(response);
    response.destroy();
    return `HTTP ${response.statusCode} ${response.statusMessage ?? ''}\ncontent-type: ${response.headers['content-type'] ?? ''}\n\n${capText(content, maxBodyChars)}`.trimEnd();
  },
};

// http_request: one HTTP request with a timeout; the response's status, type and (capped) body. In
// a sandboxed run each hop (the URL and every redirect) must be a host the sandbox allows.
import { reachable } from '../../sandbox/egress';
import { type Tool, ToolError, capText, numberArg, stringArg } from './tool';

const maxRedirects = 10;

const maxBodyChars = 30_000;

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
    const url = stringArg(args, 'url');
    if (!/^https?:\/\//i.test(url)) throw new ToolError('The url must start with http:// or https://.');
    const method = stringArg(args, 'method', 'GET').toUpperCase();
    const headers = args.headers === undefined ? {} : (args.headers as Record<string, string>);
    const body = args.body === undefined ? undefined : stringArg(args, 'body');
    const timeout = AbortSignal.timeout(numberArg(args, 'timeoutSeconds', 30, 1, 120) * 1000);
    const either = AbortSignal.any([signal, timeout]);
    let response = await fetch(await checked(url), { method, headers, body, signal: either, redirect: sandbox ? 'manual' : 'follow' });
    for (let hop = 0; sandbox && hop < maxRedirects && response.status >= 300 && response.status < 400 && response.headers.has('location'); hop++) {
      const next = new URL(response.headers.get('location')!, response.url || url).toString();
      const keepsMethod = response.status === 307 || response.status === 308;
      response = await fetch(await checked(next), { method: keepsMethod ? method : 'GET', headers, body: keepsMethod ? body : undefined, signal: either, redirect: 'manual' });
    }

    async function checked(target: string): Promise<string> {
      if (!sandbox) return target;
      const why = await reachable(sandbox.policy.network, target, sandbox.policy.refused);
      if (why !== undefined) throw new ToolError(`The sandbox refused ${target}: ${why}; add its host to the instance's sandbox network to allow it.`);
      return target;
    }
    const text = method === 'HEAD' ? '' : await response.text();
    return `HTTP ${response.status} ${response.statusText}\ncontent-type: ${response.headers.get('content-type') ?? ''}\n\n${capText(text, maxBodyChars)}`.trimEnd();
  },
};

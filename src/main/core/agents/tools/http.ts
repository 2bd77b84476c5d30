// http_request: one HTTP request with a timeout; the response's status, type and (capped) body.
import { type Tool, ToolError, capText, numberArg, stringArg } from './tool';

const maxBodyChars = 30_000;

export const httpTool: Tool = {
  name: 'http_request',
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
  async run(args, { signal }) {
    const url = stringArg(args, 'url');
    if (!/^https?:\/\//i.test(url)) throw new ToolError('The url must start with http:// or https://.');
    const method = stringArg(args, 'method', 'GET').toUpperCase();
    const headers = args.headers === undefined ? {} : (args.headers as Record<string, string>);
    const body = args.body === undefined ? undefined : stringArg(args, 'body');
    const timeout = AbortSignal.timeout(numberArg(args, 'timeoutSeconds', 30, 1, 120) * 1000);
    const response = await fetch(url, { method, headers, body, signal: AbortSignal.any([signal, timeout]), redirect: 'follow' });
    const text = method === 'HEAD' ? '' : await response.text();
    return `HTTP ${response.status} ${response.statusText}\ncontent-type: ${response.headers.get('content-type') ?? ''}\n\n${capText(text, maxBodyChars)}`.trimEnd();
  },
};

// A scripted Anthropic Messages API server on loopback, as Claude Code uses it through
// ANTHROPIC_BASE_URL: the agent's turns are POST /v1/messages with `stream: true`, answered with
// the real SSE sequence (message_start with the input usage, ping, content_block_start /
// content_block_delta (thinking_delta + signature_delta, text_delta, input_json_delta) /
// content_block_stop per block, message_delta with stop_reason and output usage, message_stop),
// or an HTTP error with an Anthropic error body (529 overloaded_error, 429 rate_limit_error, ...).
// A turn is a streamed request that offers the CLI's tools and is not a compaction summary; the
// CLI's other calls (side calls, token counting, the model list) get plausible answers and leave
// the script alone. Every request is recorded, so a test can assert what the model saw; unknown
// paths answer 404 and are kept in `unhandled`.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Turn {
  /** A thinking block first, as extended thinking streams it (thinking_delta, then signature_delta). */
  thinking?: string;
  /** Assistant text, in the pieces it streams in. */
  text?: string[];
  /** tool_use blocks, after the text; their input streams as JSON pieces. */
  calls?: { name: string; input: Record<string, unknown> }[];
  usage?: Usage;
  /** Refuse the request with this HTTP status and an Anthropic error body (529: overloaded). */
  status?: number;
  /** Answer only once this settles: a test can see what the CLI said while it waited. */
  after?: Promise<unknown>;
}

export interface Usage {
  /** Uncached input tokens, as the API counts them apart from the cache's. */
  input: number;
  output: number;
  cacheRead?: number;
  cacheCreation?: number;
}

/** A content block of a request's message, as the CLI sends it. */
export interface Block {
  type: string;
  text?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
  [key: string]: unknown;
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** `turn`: a scripted agent turn; `side`: a call of the CLI's own; or the endpoint's verb. */
  kind: 'turn' | 'side' | 'count_tokens' | 'models';
  headers: http.IncomingHttpHeaders;
  body: {
    model?: string;
    stream?: boolean;
    system?: string | Block[];
    messages?: { role: string; content: string | Block[] }[];
    tools?: { name: string; [key: string]: unknown }[];
    [key: string]: unknown;
  };
  /** The usage this server answered with, when it answered with a message. */
  usage?: Usage;
}

export interface AnthropicServer {
  baseUrl: string;
  requests: RecordedRequest[];
  /** The agent's turns only, in order. */
  turns(): RecordedRequest[];
  /** Requests this server does not speak: `METHOD path`. */
  unhandled: string[];
  /** Replaces the turns still to play; a turn past the end is a plain "Done." */
  script(turns: Turn[]): void;
  close(): Promise<void>;
}

/** Everything a request's messages say in text, in order: text, tool inputs and tool results. */
export function conversationText(request: RecordedRequest): string {
  const blockText = (block: Block): string => {
    if (block.type === 'text') return block.text ?? '';
    if (block.type === 'tool_use') return `${block.name} ${JSON.stringify(block.input)}`;
    if (block.type === 'tool_result') return typeof block.content === 'string' ? block.content : (Array.isArray(block.content) ? (block.content as Block[]).map(blockText).join('\n') : '');
    return '';
  };
  return (request.body.messages ?? []).map((message) => (typeof message.content === 'string' ? message.content : message.content.map(blockText).join('\n'))).join('\n');
}

const defaultUsage: Usage = { input: 100, output: 10 };

/** The text of the newest user message. */
function lastUserText(request: RecordedRequest): string {
  const last = (request.body.messages ?? []).findLast((message) => message.role === 'user');
  if (!last) return '';
  return typeof last.content === 'string' ? last.content : last.content.map((block) => block.text ?? '').join('\n');
}

/** Claude Code 2.1.330 summarises a conversation (compaction) with the agent's own prompt and tools, and this request last. */
const isCompaction = (request: RecordedRequest) => lastUserText(request).startsWith('CRITICAL: Respond with TEXT ONLY');

/** The agent loop streams and offers the CLI's tools; its side calls do not, or ask for a summary. */
const isTurn = (request: RecordedRequest) => request.body.stream === true && (request.body.tools ?? []).some((tool) => tool.name === 'Bash') && !isCompaction(request);

function sideAnswer(request: RecordedRequest): Turn {
  const text = isCompaction(request) ? '<analysis>Short.</analysis>\n<summary>The user and the assistant talked; nothing is pending.</summary>' : 'Steward test';
  return { text: [text], usage: { input: 20, output: 3 } };
}

const errorTypes: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export async function startAnthropicServer(): Promise<AnthropicServer> {
  let turns: Turn[] = [];
  const requests: RecordedRequest[] = [];
  const unhandled: string[] = [];
  const open = new Set<http.ServerResponse>();
  let ids = 0;
  const id = (prefix: string) => `${prefix}_${String(++ids).padStart(24, '0')}`;

  const json = (response: http.ServerResponse, status: number, body: unknown): void => {
    response.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') }).end(JSON.stringify(body));
  };

  const server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      const path = (request.url ?? '').split('?')[0];
      const record = (kind: RecordedRequest['kind']): RecordedRequest => {
        const recorded: RecordedRequest = { method: request.method ?? '', path, kind, headers: request.headers, body: raw ? (JSON.parse(raw) as RecordedRequest['body']) : {} };
        requests.push(recorded);
        return recorded;
      };
      if (request.method === 'GET' && path === '/v1/models') {
        record('models');
        return json(response, 200, { data: [{ type: 'model', id: 'claude-sonnet-4-5', display_name: 'Claude Sonnet 4.5', created_at: '2025-09-29T00:00:00Z' }], has_more: false, first_id: 'claude-sonnet-4-5', last_id: 'claude-sonnet-4-5' });
      }
      if (request.method === 'POST' && path === '/v1/messages/count_tokens') {
        record('count_tokens');
        return json(response, 200, { input_tokens: Math.ceil(raw.length / 4) });
      }
      if (request.method !== 'POST' || path !== '/v1/messages') {
        unhandled.push(`${request.method} ${request.url}`);
        return json(response, 404, { type: 'error', error: { type: 'not_found_error', message: `Not found: ${path}` } });
      }
      const recorded = record('turn');
      recorded.kind = isTurn(recorded) ? 'turn' : 'side';
      const turn: Turn = recorded.kind === 'turn' ? (turns.shift() ?? { text: ['Done.'] }) : sideAnswer(recorded);
      open.add(response);
      response.on('close', () => open.delete(response));
      void (turn.after ?? Promise.resolve()).then(() => answer(recorded, turn, response));
    });
  });

  function answer(recorded: RecordedRequest, turn: Turn, response: http.ServerResponse): void {
    if (response.destroyed) return;
    if (turn.status) {
      const type = errorTypes[turn.status] ?? 'api_error';
      return json(response, turn.status, { type: 'error', error: { type, message: turn.status === 529 ? 'Overloaded' : `scripted ${type} (${turn.status})` }, request_id: id('req') });
    }
    recorded.usage = turn.usage ?? defaultUsage;
    if (recorded.body.stream !== true) return json(response, 200, message(recorded, turn, recorded.usage, contentOf(turn)));
    stream(recorded, turn, recorded.usage, response);
  }

  function contentOf(turn: Turn): Block[] {
    const thinking = turn.thinking === undefined ? [] : [{ type: 'thinking', thinking: turn.thinking, signature: Buffer.from(`signed ${turn.thinking}`).toString('base64') }];
    const text = turn.text?.length ? [{ type: 'text', text: turn.text.join('') }] : [];
    return [...thinking, ...text, ...(turn.calls ?? []).map((call) => ({ type: 'tool_use', id: id('toolu'), name: call.name, input: call.input }))];
  }

  /** The Message object: whole (a non-streaming answer), or empty as message_start carries it. */
  function message(request: RecordedRequest, turn: Turn, usage: Usage, content: Block[] | 'start') {
    const complete = content !== 'start';
    return {
      id: id('msg'),
      type: 'message',
      role: 'assistant',
      model: request.body.model ?? 'claude-sonnet-4-5',
      content: complete ? content : [],
      stop_reason: complete ? (turn.calls?.length ? 'tool_use' : 'end_turn') : null,
      stop_sequence: null,
      usage: {
        input_tokens: usage.input,
        cache_creation_input_tokens: usage.cacheCreation ?? 0,
        cache_read_input_tokens: usage.cacheRead ?? 0,
        output_tokens: complete ? usage.output : 1,
        service_tier: 'standard',
      },
    };
  }

  function stream(request: RecordedRequest, turn: Turn, usage: Usage, response: http.ServerResponse): void {
    const send = (type: string, fields: Record<string, unknown>) => response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`);
    response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'request-id': id('req') });
    send('message_start', { message: message(request, turn, usage, 'start') });
    send('ping', {});
    contentOf(turn).forEach((block, index) => {
      if (block.type === 'thinking') {
        send('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
        send('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: block.thinking } });
        send('content_block_delta', { index, delta: { type: 'signature_delta', signature: block.signature } });
      } else if (block.type === 'text') {
        send('content_block_start', { index, content_block: { type: 'text', text: '' } });
        for (const piece of turn.text ?? []) send('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
      } else {
        send('content_block_start', { index, content_block: { ...block, input: {} } });
        // The API streams tool input as partial JSON; the client joins the pieces.
        const input = JSON.stringify(block.input);
        const cut = Math.ceil(input.length / 2);
        for (const partial_json of ['', input.slice(0, cut), input.slice(cut)]) send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
      }
      send('content_block_stop', { index });
    });
    send('message_delta', { delta: { stop_reason: turn.calls?.length ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: usage.output } });
    send('message_stop', {});
    response.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    turns: () => requests.filter((request) => request.kind === 'turn'),
    unhandled,
    script(next) {
      turns = [...next];
    },
    close() {
      for (const response of open) response.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** What a user puts in the instance's env to point Claude Code at this server, with its own config and temp folders. */
export function claudeCodeEnv(server: AnthropicServer, configDir: string, tmpDir: string): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: server.baseUrl,
    ANTHROPIC_API_KEY: 'test-key',
    ANTHROPIC_MODEL: 'claude-sonnet-4-5',
    IS_SANDBOX: '1',
    CLAUDE_CONFIG_DIR: configDir,
    CLAUDE_CODE_TMPDIR: tmpDir,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
  };
}

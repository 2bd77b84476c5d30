// A scripted OpenAI-compatible server on loopback: it speaks the real Chat Completions wire format
// (SSE chunks with content and tool_calls deltas, a usage chunk, [DONE]) and GET /models, so the
// real `openai` client is exercised. Each completion request takes the next scripted turn.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedToolCall {
  name: string;
  /** The arguments JSON, in the pieces it streams in. */
  argumentPieces: string[];
}

export interface Turn {
  text?: string[];
  toolCalls?: ScriptedToolCall[];
  /** Hold the stream open after the first chunk (a model that is slow to answer). */
  stall?: boolean;
  /** Answer with this HTTP status and an OpenAI error body instead. */
  status?: number;
  /** Reasoning deltas (`reasoning_content`, as Ollama, vLLM and DeepSeek stream them), before the text. */
  reasoning?: string[];
  /** Why the reply ended (default `tool_calls` after tool calls, else `stop`). */
  finishReason?: string;
  /** The usage chunk's figures (default 100 prompt and 20 completion tokens). */
  usage?: { prompt_tokens: number; completion_tokens: number };
}

export interface RecordedRequest {
  headers: http.IncomingHttpHeaders;
  body: { model: string; stream: boolean; messages: { role: string; content: string | null; tool_calls?: unknown[]; tool_call_id?: string }[]; tools?: { function: { name: string } }[] };
}

export interface OpenAiServer {
  baseUrl: string;
  requests: RecordedRequest[];
  /** The turns still to play; a request past the end gets a plain "done". */
  script(turns: Turn[] | ((request: RecordedRequest) => Turn)): void;
  models: string[];
  close(): Promise<void>;
}

const sse = (response: http.ServerResponse, data: unknown) => response.write(`data: ${JSON.stringify(data)}\n\n`);

export async function startOpenAiServer(): Promise<OpenAiServer> {
  let turns: Turn[] | ((request: RecordedRequest) => Turn) = [];
  const requests: RecordedRequest[] = [];
  const open = new Set<http.ServerResponse>();
  const state = { models: ['qwen3:8b'] };

  const server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      if (request.method === 'GET' && request.url === '/v1/models') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ object: 'list', data: state.models.map((id) => ({ id, object: 'model', created: 1763719200, owned_by: 'library' })) }));
        return;
      }
      if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
        response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found', type: 'invalid_request_error' } }));
        return;
      }
      const recorded: RecordedRequest = { headers: request.headers, body: JSON.parse(raw) as RecordedRequest['body'] };
      requests.push(recorded);
      const turn = typeof turns === 'function' ? turns(recorded) : (turns.shift() ?? { text: ['done'] });
      if (turn.status) {
        response.writeHead(turn.status, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: `scripted ${turn.status}`, type: 'invalid_request_error', code: null } }));
        return;
      }
      play(recorded, turn, response);
    });
  });

  function play(request: RecordedRequest, turn: Turn, response: http.ServerResponse) {
    open.add(response);
    response.on('close', () => open.delete(response));
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const base = { id: `chatcmpl-${requests.length}`, object: 'chat.completion.chunk', created: 1763719200, model: request.body.model };
    sse(response, { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
    if (turn.stall) return;
    for (const piece of turn.reasoning ?? []) sse(response, { ...base, choices: [{ index: 0, delta: { reasoning_content: piece }, finish_reason: null }] });
    for (const piece of turn.text ?? []) sse(response, { ...base, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
    (turn.toolCalls ?? []).forEach((call, index) => {
      const id = `call_${requests.length}_${index}`;
      sse(response, { ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, id, type: 'function', function: { name: call.name, arguments: '' } }] }, finish_reason: null }] });
      for (const piece of call.argumentPieces) sse(response, { ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: piece } }] }, finish_reason: null }] });
    });
    sse(response, { ...base, choices: [{ index: 0, delta: {}, finish_reason: turn.finishReason ?? (turn.toolCalls?.length ? 'tool_calls' : 'stop') }] });
    const usage = turn.usage ?? { prompt_tokens: 100, completion_tokens: 20 };
    sse(response, { ...base, choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } });
    response.end('data: [DONE]\n\n');
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script(next) {
      turns = typeof next === 'function' ? next : [...next];
    },
    get models() {
      return state.models;
    },
    set models(ids: string[]) {
      state.models = ids;
    },
    close() {
      for (const response of open) response.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

// A scripted OpenAI Responses API server on loopback, as Codex uses it: POST /v1/responses with
// `stream: true` answered with the real SSE sequence (response.created, output_item.added, text,
// reasoning-summary and argument deltas, output_item.done for message / reasoning / function_call /
// custom_tool_call items, response.completed with usage), or an HTTP error with an OpenAI error
// body. Each request takes the next scripted turn and is recorded, so a test can assert what the
// model saw. Anything else asked of it is answered 404 and kept in `unhandled`, so a test can tell
// when the CLI wanted more than this server speaks (Codex 0.169 with a custom provider asks nothing else).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Turn {
  /** A reasoning summary before the rest of the output. */
  reasoning?: string;
  /** Assistant text, in the pieces it streams in. */
  text?: string[];
  /**
   * Tool calls, in order: function calls (Codex's `exec_command` with `{cmd}`) take JSON
   * arguments; custom (freeform) tools such as Codex's `apply_patch` take raw text input.
   */
  calls?: ({ name: string; namespace?: string; arguments: Record<string, unknown> } | { name: string; input: string })[];
  usage?: { input: number; output: number; cached?: number };
  /** Break the stream after response.created, as a dropped connection does (Codex 0.169 retries it silently). */
  drop?: boolean;
  /** Refuse the request with this HTTP status and an OpenAI error body. */
  status?: number;
}

export interface RecordedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: { model: string; stream: boolean; input: InputItem[]; tools: { type: string; name?: string; parameters?: unknown }[]; [key: string]: unknown };
}

/** An item of a request's `input`: messages, earlier function calls and their outputs. */
export interface InputItem {
  type: string;
  role?: string;
  content?: { type: string; text?: string }[];
  name?: string;
  arguments?: string;
  call_id?: string;
  output?: unknown;
}

export interface ResponsesServer {
  baseUrl: string;
  requests: RecordedRequest[];
  /** Requests this server does not speak: `METHOD path`. */
  unhandled: string[];
  /** Replaces the turns still to play; a request past the end gets a plain "Done." */
  script(turns: Turn[]): void;
  close(): Promise<void>;
}

/** Everything a request's input says in text, in order: message text, call arguments and outputs. */
export function inputText(request: RecordedRequest): string {
  return request.body.input
    .map((item) => [...(item.content ?? []).map((part) => part.text ?? ''), item.arguments ?? '', typeof item.output === 'string' ? item.output : JSON.stringify(item.output ?? '')].join('\n'))
    .join('\n');
}

const defaultUsage: NonNullable<Turn['usage']> = { input: 100, output: 10 };

export async function startResponsesServer(): Promise<ResponsesServer> {
  let turns: Turn[] = [];
  const requests: RecordedRequest[] = [];
  const unhandled: string[] = [];
  const open = new Set<http.ServerResponse>();

  const server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/responses') {
        unhandled.push(`${request.method} ${request.url}`);
        response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found', type: 'invalid_request_error', code: null } }));
        return;
      }
      const recorded: RecordedRequest = { path: request.url, headers: request.headers, body: JSON.parse(raw) as RecordedRequest['body'] };
      requests.push(recorded);
      const turn = turns.shift() ?? { text: ['Done.'] };
      if (turn.status) {
        response.writeHead(turn.status, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: `scripted refusal (${turn.status})`, type: 'invalid_request_error', param: null, code: null } }));
        return;
      }
      open.add(response);
      response.on('close', () => open.delete(response));
      play(recorded, turn, response);
    });
  });

  function play(request: RecordedRequest, turn: Turn, response: http.ServerResponse): void {
    const responseId = `resp_${requests.length}`;
    let sequence = 0;
    const send = (type: string, fields: Record<string, unknown>) => response.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...fields })}\n\n`);
    const envelope = (status: string, output: unknown[]) => ({ id: responseId, object: 'response', created_at: 1795430000, status, model: request.body.model, output });
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    send('response.created', { response: envelope('in_progress', []) });
    if (turn.drop) {
      response.destroy();
      return;
    }
    send('response.in_progress', { response: envelope('in_progress', []) });
    const output: Record<string, unknown>[] = [];
    const item = (done: Record<string, unknown>, added: Record<string, unknown>, stream: (outputIndex: number) => void) => {
      const outputIndex = output.length;
      send('response.output_item.added', { output_index: outputIndex, item: added });
      stream(outputIndex);
      send('response.output_item.done', { output_index: outputIndex, item: done });
      output.push(done);
    };

    if (turn.reasoning !== undefined) {
      const id = `rs_${requests.length}`;
      const part = { type: 'summary_text', text: turn.reasoning };
      item({ id, type: 'reasoning', summary: [part] }, { id, type: 'reasoning', summary: [] }, (outputIndex) => {
        send('response.reasoning_summary_part.added', { item_id: id, output_index: outputIndex, summary_index: 0, part: { type: 'summary_text', text: '' } });
        send('response.reasoning_summary_text.delta', { item_id: id, output_index: outputIndex, summary_index: 0, delta: turn.reasoning });
        send('response.reasoning_summary_text.done', { item_id: id, output_index: outputIndex, summary_index: 0, text: turn.reasoning });
        send('response.reasoning_summary_part.done', { item_id: id, output_index: outputIndex, summary_index: 0, part });
      });
    }
    if (turn.text?.length) {
      const id = `msg_${requests.length}`;
      const text = turn.text.join('');
      const part = { type: 'output_text', text, annotations: [] };
      const message = { id, type: 'message', role: 'assistant' };
      item({ ...message, status: 'completed', content: [part] }, { ...message, status: 'in_progress', content: [] }, (outputIndex) => {
        const at = { item_id: id, output_index: outputIndex, content_index: 0 };
        send('response.content_part.added', { ...at, part: { ...part, text: '' } });
        for (const delta of turn.text ?? []) send('response.output_text.delta', { ...at, delta });
        send('response.output_text.done', { ...at, text });
        send('response.content_part.done', { ...at, part });
      });
    }
    (turn.calls ?? []).forEach((call, index) => {
      const callId = `call_${requests.length}_${index}`;
      if ('input' in call) {
        const id = `ctc_${requests.length}_${index}`;
        const base = { id, type: 'custom_tool_call', name: call.name, call_id: callId };
        item({ ...base, status: 'completed', input: call.input }, { ...base, status: 'in_progress', input: '' }, (outputIndex) => {
          send('response.custom_tool_call_input.delta', { item_id: id, output_index: outputIndex, delta: call.input });
          send('response.custom_tool_call_input.done', { item_id: id, output_index: outputIndex, input: call.input });
        });
        return;
      }
      const id = `fc_${requests.length}_${index}`;
      const args = JSON.stringify(call.arguments);
      // MCP tools come as namespaces (`mcp__<server>`): a call names the namespace and the tool.
      const base = { id, type: 'function_call', name: call.name, ...(call.namespace === undefined ? {} : { namespace: call.namespace }), call_id: callId };
      item({ ...base, status: 'completed', arguments: args }, { ...base, status: 'in_progress', arguments: '' }, (outputIndex) => {
        send('response.function_call_arguments.delta', { item_id: id, output_index: outputIndex, delta: args });
        send('response.function_call_arguments.done', { item_id: id, output_index: outputIndex, arguments: args });
      });
    });

    const usage = turn.usage ?? defaultUsage;
    send('response.completed', {
      response: {
        ...envelope('completed', output),
        usage: {
          input_tokens: usage.input,
          input_tokens_details: { cached_tokens: usage.cached ?? 0 },
          output_tokens: usage.output,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: usage.input + usage.output,
        },
      },
    });
    response.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
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

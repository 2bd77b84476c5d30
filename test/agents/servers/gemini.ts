// A scripted Gemini API server on loopback, as Gemini CLI uses it through GOOGLE_GEMINI_BASE_URL:
// the agent's turns are POST /v1beta/models/{model}:streamGenerateContent?alt=sse, answered with
// SSE chunks of candidates (text parts, then functionCall parts, finishReason on the last) and
// usageMetadata (the prompt on every chunk, the full count on the last). The CLI's side calls
// (its model router, next-speaker and loop checks, session summaries: generateContent, mostly
// with a JSON response schema) get plausible answers and leave the script alone; countTokens,
// embeddings and the model list are answered too. Every request is recorded, so a test can assert
// what the model saw; anything else is answered 404 and kept in `unhandled`.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Turn {
  /** Assistant text, in the pieces it streams in. */
  text?: string[];
  /** Function calls, after the text. */
  calls?: { name: string; args: Record<string, unknown> }[];
  usage?: Usage;
  /** Refuse the request with this HTTP status and a Google API error body. */
  status?: number;
}

export interface Usage {
  input: number;
  output: number;
  cached?: number;
}

/** A part of a request's content, as the CLI sends it. */
export interface Part {
  text?: string;
  functionCall?: { name: string; args?: Record<string, unknown>; id?: string };
  functionResponse?: { name: string; response?: unknown; id?: string };
  [key: string]: unknown;
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** The model named in the path. */
  model: string;
  /** `turn`: a scripted agent turn; `side`: one of the CLI's own calls (router, checks, summary); or the endpoint's verb. */
  kind: 'turn' | 'side' | 'countTokens' | 'embed' | 'models';
  headers: http.IncomingHttpHeaders;
  body: {
    contents?: { role?: string; parts: Part[] }[];
    systemInstruction?: { parts: Part[] };
    tools?: { functionDeclarations?: { name: string }[] }[];
    generationConfig?: Record<string, unknown>;
    [key: string]: unknown;
  };
  /** The usage this server answered with, when it answered with a generation. */
  usage?: Usage;
}

export interface GeminiServer {
  baseUrl: string;
  requests: RecordedRequest[];
  /** Requests this server does not speak: `METHOD path`. */
  unhandled: string[];
  /** Replaces the turns still to play; a turn past the end is a plain "Done." */
  script(turns: Turn[]): void;
  /** The scripted turns the CLI asked for, in order. */
  turns(): RecordedRequest[];
  close(): Promise<void>;
}

/** Everything a request's contents say, in order: text, function calls and their responses. */
export function contentsText(request: RecordedRequest): string {
  return (request.body.contents ?? [])
    .flatMap((content) => content.parts)
    .map((part) => part.text ?? (part.functionCall ? JSON.stringify(part.functionCall) : part.functionResponse ? JSON.stringify(part.functionResponse) : ''))
    .join('\n');
}

const defaultUsage: Usage = { input: 1_000, output: 20 };
const sideUsage: Usage = { input: 50, output: 8 };

/**
 * Answers to the JSON schemas of the CLI's side calls, by property: the numerical and the classic
 * router pick the fast model, the next-speaker check hands the turn back to the user, the loop
 * check sees no loop. Other properties get a value of their schema's type.
 */
const sideAnswers: Record<string, unknown> = {
  complexity_reasoning: 'A bounded, specific task.',
  complexity_score: 15,
  reasoning: 'A bounded, specific task.',
  model_choice: 'flash',
  next_speaker: 'user',
  unproductive_state_analysis: 'The conversation makes progress.',
  unproductive_state_confidence: 0,
};

type Schema = { type?: string; properties?: Record<string, Schema>; enum?: unknown[]; items?: Schema; minimum?: number };

function valueOf(schema: Schema, name = ''): unknown {
  if (name in sideAnswers) return sideAnswers[name];
  if (schema.enum?.length) return schema.enum[0];
  switch ((schema.type ?? 'string').toLowerCase()) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, property]) => [key, valueOf(property, key)]));
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    default:
      return 'ok';
  }
}

const usageMetadata = (usage: Usage, final: boolean) => ({
  promptTokenCount: usage.input,
  ...(final ? { candidatesTokenCount: usage.output } : {}),
  totalTokenCount: usage.input + (final ? usage.output : 0),
  ...(usage.cached ? { cachedContentTokenCount: usage.cached } : {}),
});

export async function startGeminiServer(): Promise<GeminiServer> {
  let script: Turn[] = [];
  const requests: RecordedRequest[] = [];
  const unhandled: string[] = [];
  const open = new Set<http.ServerResponse>();
  let responses = 0;

  const json = (response: http.ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(body));
  };
  const refuse = (response: http.ServerResponse, status: number, message: string) =>
    json(response, status, { error: { code: status, message, status: status === 404 ? 'NOT_FOUND' : status === 429 ? 'RESOURCE_EXHAUSTED' : 'INVALID_ARGUMENT' } });

  const server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      open.add(response);
      response.on('close', () => open.delete(response));
      const url = new URL(request.url ?? '/', 'http://localhost');
      const call = /^\/v1(?:beta|alpha)?\/models\/([^/:]+)(?::(\w+))?$/.exec(url.pathname);
      const listing = /^\/v1(?:beta|alpha)?\/models$/.test(url.pathname);
      const method = request.method ?? 'GET';
      if (!(listing && method === 'GET') && !(call && (method === 'POST' || (method === 'GET' && !call[2])))) {
        unhandled.push(`${method} ${request.url}`);
        return refuse(response, 404, `Method not found: ${method} ${url.pathname}`);
      }
      const model = call?.[1] ?? '';
      const verb = call?.[2];
      const body = (raw ? JSON.parse(raw) : {}) as RecordedRequest['body'];
      const record = (kind: RecordedRequest['kind']): RecordedRequest => {
        const recorded: RecordedRequest = { method, path: request.url ?? '', model, kind, headers: request.headers, body };
        requests.push(recorded);
        return recorded;
      };
      if (listing || !verb) {
        record('models');
        const describe = (name: string) => ({ name: `models/${name}`, version: '001', displayName: name, inputTokenLimit: 1_048_576, outputTokenLimit: 65_536, supportedGenerationMethods: ['generateContent', 'countTokens'] });
        return json(response, 200, listing ? { models: ['gemini-2.5-pro', 'gemini-2.5-flash'].map(describe) } : describe(model));
      }
      switch (verb) {
        case 'countTokens':
          record('countTokens');
          return json(response, 200, { totalTokens: Math.ceil(raw.length / 4) });
        case 'embedContent':
        case 'batchEmbedContents': {
          record('embed');
          const embedding = { values: Array.from({ length: 8 }, (_, index) => index / 8) };
          return json(response, 200, verb === 'embedContent' ? { embedding } : { embeddings: ((body.requests as unknown[] | undefined) ?? [0]).map(() => embedding) });
        }
        case 'generateContent':
        case 'streamGenerateContent':
          return generate(verb === 'streamGenerateContent', body, record, response, model);
        default:
          unhandled.push(`${method} ${request.url}`);
          return refuse(response, 404, `Method not found: ${verb}`);
      }
    });
  });

  function generate(stream: boolean, body: RecordedRequest['body'], record: (kind: RecordedRequest['kind']) => RecordedRequest, response: http.ServerResponse, model: string): void {
    const config = body.generationConfig ?? {};
    const schema = (config.responseJsonSchema ?? config.responseSchema) as Schema | undefined;
    // The agent's own turns stream and carry tools; a non-streamed call, or one that asks for JSON, is the CLI's.
    const side = !stream || schema !== undefined || config.responseMimeType === 'application/json';
    const recorded = record(side ? 'side' : 'turn');
    const turn: Turn = side ? { text: [schema ? JSON.stringify(valueOf(schema)) : 'A short summary.'], usage: sideUsage } : (script.shift() ?? { text: ['Done.'] });
    if (turn.status) return refuse(response, turn.status, `scripted refusal (${turn.status})`);
    const usage = turn.usage ?? defaultUsage;
    recorded.usage = usage;
    const responseId = `resp-${++responses}`;
    const parts: Record<string, unknown>[] = [...(turn.text ?? []).map((text) => ({ text })), ...(turn.calls ?? []).map((call) => ({ functionCall: { name: call.name, args: call.args } }))];
    const chunk = (chunkParts: Record<string, unknown>[], final: boolean) => ({
      candidates: [{ content: { role: 'model', parts: chunkParts }, ...(final ? { finishReason: 'STOP' } : {}), index: 0 }],
      usageMetadata: usageMetadata(usage, final),
      modelVersion: model,
      responseId,
    });
    if (!stream) return json(response, 200, chunk(parts, true));
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    // Text streams piece by piece; the function calls come whole, in the last chunk.
    const pieces: Record<string, unknown>[][] = [...(turn.text ?? []).map((text) => [{ text }])];
    const calls = parts.filter((part) => 'functionCall' in part);
    if (calls.length) pieces.push(calls);
    if (pieces.length === 0) pieces.push([]);
    pieces.forEach((piece, index) => response.write(`data: ${JSON.stringify(chunk(piece, index === pieces.length - 1))}\r\n\r\n`));
    response.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    unhandled,
    script(turns) {
      script = [...turns];
    },
    turns: () => requests.filter((request) => request.kind === 'turn'),
    async close() {
      for (const response of open) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// A scripted OpenAI Chat Completions server for CLIs that take an OpenAI-compatible provider
// (OpenCode): the loopback server of test/support/openai-server.ts, with the CLI's side calls
// (session titles, summaries: requests that offer no tools) answered apart, so that only the
// agent's own model calls play the script.
import { type RecordedRequest, type Turn, startOpenAiServer } from '../../support/openai-server';

export type { RecordedRequest, Turn };

export interface ChatCompletionsServer {
  /** Ends in /v1, as an OpenAI-compatible provider's baseURL. */
  baseUrl: string;
  /** The agent's model calls, in order, each with the body as sent. */
  requests: RecordedRequest[];
  /** Calls that were not the agent's (titles, summaries). */
  sideRequests: RecordedRequest[];
  /** The next turns of the agent's model calls; past the end each call gets a plain "done". */
  script(turns: Turn[]): void;
  close(): Promise<void>;
}

/** A request the agent loop did not make: CLIs send title and summary prompts without tools. */
const isSideCall = (request: RecordedRequest) => !request.body.tools?.length;

export async function startChatCompletionsServer(): Promise<ChatCompletionsServer> {
  const server = await startOpenAiServer();
  const requests: RecordedRequest[] = [];
  const sideRequests: RecordedRequest[] = [];
  let turns: Turn[] = [];
  server.script((request) => {
    if (isSideCall(request)) {
      sideRequests.push(request);
      return { text: ['Scripted title'], usage: { prompt_tokens: 7, completion_tokens: 3 } };
    }
    requests.push(request);
    return turns.shift() ?? { text: ['done'] };
  });
  return {
    baseUrl: server.baseUrl,
    requests,
    sideRequests,
    script(next) {
      turns = [...next];
    },
    close: () => server.close(),
  };
}

/** A tool call whose arguments arrive in `pieces` chunks, as models stream them. */
export function toolCall(name: string, args: object, pieces = 2): NonNullable<Turn['toolCalls']>[number] {
  const json = JSON.stringify(args);
  const size = Math.ceil(json.length / pieces);
  return { name, argumentPieces: Array.from({ length: pieces }, (_, i) => json.slice(i * size, (i + 1) * size)) };
}

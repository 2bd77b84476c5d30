// The built-in agent's `http` tool decides by addresses too (issue 29, "What to build" 3): its
// requests leave from Steward, not the sandbox, so its own check is all there is. With every host
// allowed ("*"), a model told by a stranger's payload asks for this machine under spellings a string
// check does not know; a server on a port never named counts the connections it gets: none. The
// port named with its host is reached (the tool works).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenAiServer, startOpenAiServer } from '../../support/openai-server';
import { lacks } from '../../support/requirements';
import { type Lab, type Listener, listen, openLab } from './lab';

const skip = lacks('sandbox');
let lab: Lab;
let model: OpenAiServer;
let secret: Listener;
let given: Listener;

beforeAll(async () => {
  if (skip) return;
  lab = await openLab();
  model = await startOpenAiServer();
  secret = await listen('a service on a port never named');
  given = await listen('the service named with its port', '127.0.0.1');
});
afterAll(async () => {
  await secret?.close();
  await given?.close();
  await model?.close();
  await lab?.close();
});

const hosts = ['127.0.0.2', '127.1', '0.0.0.0', '2130706433', '0x7f000001', 'localhost.', '[::ffff:7f00:1]', '[::ffff:127.0.0.1]', '[0:0:0:0:0:0:0:1]', '[::]', '[::ffff:0:0]', '[::127.0.0.1]'];

describe.skipIf(skip)("the built-in agent's http tool, with every host allowed", () => {
  it('reaches no port of this machine that was not named, under any spelling', async () => {
    const urls = [`http://127.0.0.1:${given.port}/`, ...hosts.map((host) => `http://${host}:${secret.port}/`)];
    const instance = await lab.instance(
      { provider: 'openai', baseUrl: model.baseUrl, model: 'qwen3:8b', tools: ['http'] },
      { mode: 'sandbox', network: ['*', `127.0.0.1:${given.port}`] },
    );
    model.script([{ toolCalls: urls.map((url) => ({ name: 'http_request', argumentPieces: [JSON.stringify({ url })] })) }, { text: ['Done.'] }]);
    const before = secret.connections;
    const run = await lab.run(instance, 'Fetch these', 30_000);
    expect(run.status, run.error ?? '').toBe('succeeded');
    const results = model.requests[model.requests.length - 1].body.messages.filter((message) => message.role === 'tool').map((message) => message.content ?? '');
    expect(results[0]).toMatch(/^HTTP 200/);
    const reached = results.slice(1).map((result, index) => `${hosts[index]} ${result.split('\n')[0]}`).filter((line) => / HTTP 2\d\d/.test(line));
    expect(reached).toEqual([]);
    expect(secret.connections - before, 'connections the server never named got').toBe(0);
  });
});

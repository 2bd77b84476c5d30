// The built-in agent's http_request in a sandboxed run, which leaves from Steward's own process:
// each hop goes where the sandbox's rules said, to the address that was checked. A resolver that
// answers a public address for the check and loopback for the connection (DNS rebinding) does not
// lead it to this machine; a redirect to a spelling of this machine is refused like the machine
// itself; Steward's own port answers /mcp alone. No bubblewrap needed: the tool runs outside.
import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { httpTool } from '../../src/main/core/agents/tools/http';
import { parseRule } from '../../src/main/core/sandbox/network-rules';
import type { SandboxRun } from '../../src/main/core/sandbox/sandbox-run';

/** A sandbox as the tool sees it: its policy's network. */
function sandboxWith(network: string[], stewardPort?: number): SandboxRun {
  const policy = { workspaceDir: '/w', home: '/w', readable: [], links: [], protected: [], writable: [], hidden: [], denied: [], network: network.map((entry) => parseRule(entry)!), stewardPort, refused: [] };
  return { tool: 'test', policy, wrap: () => ({ command: '', args: [], env: {} }), limitReached: () => undefined, close: async () => undefined };
}

const fetchWith = (url: string, sandbox: SandboxRun | undefined, extra: object = {}) => httpTool.run({ url, timeoutSeconds: 1, ...extra }, { workspaceDir: '/w', env: {}, signal: new AbortController().signal, sandbox });

/** A loopback server answering `answer(path)`; what it was asked, in order. */
async function server(answer: (request: http.IncomingMessage, response: http.ServerResponse) => void): Promise<{ port: number; asked: string[]; close(): void }> {
  const asked: string[] = [];
  const listening = http.createServer((request, response) => {
    asked.push(`${request.method} ${request.url}`);
    answer(request, response);
  });
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  return { port: (listening.address() as AddressInfo).port, asked, close: () => listening.close() };
}

/** The system resolver, for `name` only: the first lookup answers `first`, every later one `then` (both lookup APIs share the count). */
function rebinding(name: string, first: string, then: string): void {
  let calls = 0;
  const answer = () => (calls++ === 0 ? first : then);
  const family = (address: string) => (address.includes(':') ? 6 : 4);
  const callback = dns.lookup;
  vi.spyOn(dns, 'lookup').mockImplementation(((host: string, options: unknown, done?: unknown) => {
    const cb = (typeof options === 'function' ? options : done) as (...args: unknown[]) => void;
    const opts = (typeof options === 'object' && options !== null ? options : {}) as dns.LookupOptions;
    if (host !== name) return (callback as (...args: unknown[]) => void)(host, opts, cb);
    const address = answer();
    if (opts.all) cb(null, [{ address, family: family(address) }]);
    else cb(null, address, family(address));
  }));
  const promised = dns.promises.lookup.bind(dns.promises);
  vi.spyOn(dns.promises, 'lookup').mockImplementation((async (host: string, options: dns.LookupOptions) => {
    if (host !== name) return promised(host, options as dns.LookupAllOptions);
    const address = answer();
    return options?.all ? [{ address, family: family(address) }] : { address, family: family(address) };
  }) as typeof dns.promises.lookup);
}

let inside: Awaited<ReturnType<typeof server>>;

beforeAll(async () => {
  inside = await server((_request, response) => response.end('what only this machine may see'));
});
afterEach(() => {
  vi.restoreAllMocks();
  inside.asked.length = 0;
});
afterAll(() => inside?.close());

describe("the built-in agent's http_request in a sandbox", () => {
  it('connects to the address it checked: a resolver that changes its answer (rebinding) does not lead it to this machine', async () => {
    // Checked: a local-network address the list allows by name. Connected: whatever the resolver says next.
    rebinding('rebind.example', '10.255.255.1', '127.0.0.1');
    await expect(fetchWith(`http://rebind.example:${inside.port}/`, sandboxWith(['rebind.example']))).rejects.toThrow();
    expect(inside.asked).toEqual([]);
  });

  it('judges each redirect as it judges the URL: a spelling of this machine is this machine', async () => {
    const redirecting = await server((_request, response) => response.writeHead(302, { location: `http://[::ffff:127.0.0.1]:${inside.port}/` }).end());
    try {
      await expect(fetchWith(`http://127.0.0.1:${redirecting.port}/`, sandboxWith(['*', `127.0.0.1:${redirecting.port}`]))).rejects.toThrow(
        `The sandbox refused http://[::ffff:7f00:1]:${inside.port}/: it is this machine, whose services a run reaches only at a port its network list names (127.0.0.1:port); to allow it, add 127.0.0.1:${inside.port} to the instance's sandbox network.`,
      );
      expect(redirecting.asked).toEqual(['GET /']);
      expect(inside.asked).toEqual([]);
    } finally {
      redirecting.close();
    }
  });

  it("reaches Steward's own port at /mcp alone", async () => {
    const steward = inside.port;
    const sandbox = sandboxWith([`127.0.0.1:${steward}`], steward);
    await expect(fetchWith(`http://127.0.0.1:${steward}/api/system`, sandbox)).rejects.toThrow(`The sandbox refused http://127.0.0.1:${steward}/api/system: it is Steward's own port, where a run reaches /mcp alone.`);
    await expect(fetchWith(`http://[::ffff:7f00:1]:${steward}/api/runs/x/cancel`, sandbox, { method: 'POST' })).rejects.toThrow(/Steward's own port/);
    expect(await fetchWith(`http://localhost:${steward}/mcp?x=1`, sandbox, { method: 'POST', body: '{}' })).toMatch(/^HTTP 200 OK\n/);
    expect(inside.asked).toEqual(['POST /mcp?x=1']);
  });

  it('outside a sandbox, follows redirects and decodes what the server compressed', async () => {
    const zlib = await import('node:zlib');
    const origin = await server((request, response) => {
      if (request.url === '/start') return void response.writeHead(303, { location: '/end' }).end();
      response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(zlib.gzipSync('squeezed'));
    });
    try {
      expect(await fetchWith(`http://127.0.0.1:${origin.port}/start`, undefined, { method: 'POST', body: 'x' })).toBe('HTTP 200 OK\ncontent-type: text/plain\n\nsqueezed');
      expect(origin.asked).toEqual(['POST /start', 'GET /end']);
    } finally {
      origin.close();
    }
  });
});

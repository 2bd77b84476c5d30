// A loopback proxy that adds `Authorization: Bearer <key>` to every request it forwards, for clients
// that cannot send a header of their own (the MCP conformance suite). Everything else passes as
// it came, Host and Origin included, so the target's DNS-rebinding checks see the client's
// headers; bodies and answers stream through (server-sent events too).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AuthProxy {
  url: string;
  close(): Promise<void>;
}

export async function startAuthProxy(target: string, key: string): Promise<AuthProxy> {
  const { hostname, port } = new URL(target);
  const server = http.createServer((request, response) => {
    const upstream = http.request({ hostname, port, method: request.method, path: request.url, headers: { ...request.headers, authorization: `Bearer ${key}` } }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on('error', () => response.destroy());
    // A client that goes away ends its stream upstream too.
    response.once('close', () => upstream.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

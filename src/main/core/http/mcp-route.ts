// /mcp: the MCP server over Streamable HTTP, stateless (a server and a transport per request),
// behind the same API-key check as the contract's routes; the key (its scope, a run's key its run)
// decides which tools it sees and may call. The SDK writes the response itself; it is loaded at the
// first request, so a daemon nobody asks over MCP starts without it. A body that is not JSON text is
// answered as JSON-RPC says (-32700), not in the REST error shape. Each open request (a GET's stream,
// a tool call under way) is held by its key (credential-holds.ts) and cut off when the key is
// revoked or its run ends.
import type { FastifyInstance } from 'fastify';
import type { Dispatch } from '../dispatch';
import type { Services } from '../compose-services';
import { createErrorHandler, toAppError } from './errors';
import type { Logger } from '../logger';

/** JSON-RPC 2.0's code for a body that does not parse. */
const parseErrorCode = -32700;

export async function registerMcpRoute(app: FastifyInstance, services: Services, dispatch: Dispatch, logger: Logger): Promise<void> {
  const handleError = createErrorHandler(logger);
  await app.register(async (scope) => {
    scope.setErrorHandler((error: Error, request, reply) => {
      const known = toAppError(error);
      if (known?.code !== 'invalid_json') return handleError(error, request, reply);
      void reply.code(400).send({ jsonrpc: '2.0', id: null, error: { code: parseErrorCode, message: `Parse error: ${known.message}`, data: known.toBody().error } });
    });
    scope.route({
      method: ['POST', 'GET', 'DELETE'],
      url: '/mcp',
      // Refused before its body is read.
      onRequest: async (request) => void services.access.authenticate(request.headers),
      handler: async (request, reply) => {
        const [{ createMcpServer }, { StreamableHTTPServerTransport }] = await Promise.all([
          import('../mcp-server'),
          import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
        ]);
        // Asked again: the key may have been revoked while the body came in or the SDK loaded.
        const caller = services.access.authenticate(request.headers);
        const server = createMcpServer(dispatch, caller);
        // Plain JSON answers: a stateless server has nothing to stream, and SSE framing costs each call.
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
        reply.hijack();
        const forget = services.holds.hold(caller, 'mcp', () => reply.raw.destroy());
        reply.raw.on('close', () => {
          forget();
          void transport.close();
          void server.close();
        });
        await server.connect(transport);
        await transport.handleRequest(request.raw, reply.raw, request.body);
      },
    });
  });
}

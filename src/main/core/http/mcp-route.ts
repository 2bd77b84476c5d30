// /mcp: the MCP server over Streamable HTTP, stateless (a server and a transport per request),
// behind the same API-key check as the contract's routes. The SDK writes the response itself.
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance } from 'fastify';
import { createDispatch } from '../dispatch';
import type { Handlers } from '../handlers';
import { createMcpServer } from '../mcp-server';
import type { Services } from '../services';

export function registerMcpRoute(app: FastifyInstance, services: Services, handlers: Handlers): void {
  const dispatch = createDispatch(handlers);
  app.route({
    method: ['POST', 'GET', 'DELETE'],
    url: '/mcp',
    onRequest: async (request) => {
      services.access.authenticate(request.headers);
    },
    handler: async (request, reply) => {
      const server = createMcpServer(dispatch);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      reply.hijack();
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  });
}

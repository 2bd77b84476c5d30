// One Fastify route per contract operation, dispatched through the handler map, behind the API-key
// check and the scope the operation needs.
import type { FastifyInstance } from 'fastify';
import { type Operation, type OperationName, operations } from '../../../shared/contract';
import type { Dispatch } from '../dispatch';
import type { MappedName } from '../handlers';
import type { Services } from '../compose-services';
import { type Caller, authorize } from '../caller';

/** `/api/automations/{id}` → `/api/automations/:id` */
/** The operations that take no key (health, the OpenAPI document) are called as a reader. */
const anonymous: Caller = { scope: 'read' };

export const fastifyPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

export function registerOperationRoutes(
  app: FastifyInstance,
  dispatch: Dispatch,
  services: Services,
  include: (name: OperationName) => boolean = () => true,
): void {
  const callers = new WeakMap<object, Caller>();
  for (const [name, operation] of Object.entries(operations) as [OperationName, Operation][]) {
    if (operation.customRoute || !include(name)) continue;
    app.route({
      method: operation.method,
      url: fastifyPath(operation.path),
      exposeHeadRoute: operation.method === 'GET',
      ...(operation.maxBodyBytes ? { bodyLimit: operation.maxBodyBytes } : {}),
      onRequest: operation.auth
        ? async (request) => {
            // Refused before the body is read; dispatch authorizes again, as it does for every door.
            const caller = services.access.authenticate(request.headers);
            authorize(caller, operation);
            callers.set(request, caller);
          }
        : undefined,
      handler: async (request, reply) => {
        const output = await dispatch(name as MappedName, { params: request.params, query: request.query, body: request.body }, callers.get(request) ?? anonymous);
        if (operation.status === 204) return reply.code(204).send();
        return reply.code(operation.status).send(output);
      },
    });
  }
}

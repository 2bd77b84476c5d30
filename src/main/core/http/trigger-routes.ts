// POST and GET /api/webhooks/trigger/{token}: no API key, the token is the credential. The token
// is checked before the body is read, and the body is capped while it streams in.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { maxTriggerBytes, operations } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import type { Services } from '../services';
import type { TriggerDelivery } from '../services/triggers';
import type { WebhookRecord } from '../store/repositories/webhooks';
import { fastifyPath } from './operation-routes';
import { payloadFromBody, payloadFromQuery } from './trigger-payload';

const maxIdempotencyKeyLength = 255;

function idempotencyKey(request: FastifyRequest): string | null {
  const header = request.headers['idempotency-key'] ?? request.headers['x-github-delivery'];
  const key = Array.isArray(header) ? header[0] : header;
  if (key === undefined || key === '') return null;
  if (key.length > maxIdempotencyKeyLength) {
    throw new AppError('invalid_field', `Idempotency-Key must be at most ${maxIdempotencyKeyLength} characters.`, { field: 'Idempotency-Key' });
  }
  return key;
}

export async function registerTriggerRoutes(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(async (scope) => {
    // Every body reaches the handler as raw bytes, at most maxTriggerBytes: Fastify refuses a larger
    // Content-Length before reading and stops a chunked body as soon as it passes the limit.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: maxTriggerBytes }, (_request, body, done) => done(null, body));
    scope.decorateRequest('webhook', null);
    scope.addHook('onRequest', async (request) => {
      const { token } = request.params as { token: string };
      (request as FastifyRequest & { webhook: WebhookRecord }).webhook = services.triggers.open(token);
    });

    const accept = async (request: FastifyRequest, delivery: Omit<TriggerDelivery, 'idempotencyKey'>) => {
      const webhook = (request as FastifyRequest & { webhook: WebhookRecord }).webhook;
      return services.triggers.accept(webhook, { ...delivery, idempotencyKey: idempotencyKey(request) });
    };

    scope.post(fastifyPath(operations['webhooks.trigger'].path), async (request, reply) => {
      const body = request.body as Buffer | undefined;
      const contentType = request.headers['content-type'];
      const payload = payloadFromBody(contentType, body);
      const result = await accept(request, { method: 'POST', contentType: contentType ?? null, bytes: body?.length ?? 0, payload });
      return reply.code(result.replayed ? 200 : 202).send({ run: result.run });
    });

    scope.get(fastifyPath(operations['webhooks.triggerGet'].path), async (request, reply) => {
      const payload = payloadFromQuery(request.query as Record<string, unknown>);
      const result = await accept(request, { method: 'GET', contentType: null, bytes: 0, payload });
      return reply.code(result.replayed ? 200 : 202).send({ run: result.run });
    });
  });
}

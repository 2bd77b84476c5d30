// POST and GET /api/webhooks/trigger/{token}: no API key, the token is the credential. The token
// is checked before the body is read, and the body is capped while it streams in.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { maxTriggerBytes, operations } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import type { Services } from '../services';
import type { WebhookRecord } from '../store/repositories/webhooks';
import { toAppError } from './errors';
import { fastifyPath } from './operation-routes';
import { payloadFromBody, payloadFromQuery } from './trigger-payload';

const maxIdempotencyKeyLength = 255;

type TriggerRequest = FastifyRequest<{ Params: { token: string } }> & { webhook: WebhookRecord | null };

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
  const { triggers } = services;

  await app.register(async (scope) => {
    // Every body reaches the handler as raw bytes, at most maxTriggerBytes: Fastify refuses a larger
    // Content-Length before reading and stops a chunked body as soon as it passes the limit.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: maxTriggerBytes }, (_request, body, done) => done(null, body));
    scope.decorateRequest('webhook', null);

    scope.addHook('onRequest', async (request) => {
      const trigger = request as TriggerRequest;
      trigger.webhook = triggers.find(trigger.params.token);
      triggers.assertEnabled(trigger.webhook);
      triggers.assertRoom();
    });
    scope.addHook('onError', async (request, _reply, error) => {
      const { webhook } = request as TriggerRequest;
      const refusal = toAppError(error);
      if (webhook && refusal) {
        triggers.recordRefusal(webhook, { method: request.method, contentType: request.headers['content-type'] ?? null, error: refusal });
      }
    });

    scope.post(fastifyPath(operations['webhooks.trigger'].path), async (request, reply) => {
      const trigger = request as TriggerRequest;
      const body = request.body as Buffer | undefined;
      triggers.checkSignature(trigger.webhook!, request.headers, body ?? Buffer.alloc(0));
      const payload = payloadFromBody(request.headers['content-type'], body);
      const result = await triggers.accept(trigger.params.token, { payload, idempotencyKey: idempotencyKey(request) });
      return reply.code(result.replayed ? 200 : 202).send({ run: result.run });
    });

    scope.get(fastifyPath(operations['webhooks.triggerGet'].path), async (request, reply) => {
      const trigger = request as TriggerRequest;
      triggers.checkSignature(trigger.webhook!, request.headers, Buffer.alloc(0));
      const payload = payloadFromQuery(request.query as Record<string, unknown>);
      const result = await triggers.accept(trigger.params.token, { payload, idempotencyKey: idempotencyKey(request) });
      return reply.code(result.replayed ? 200 : 202).send({ run: result.run });
    });
  });
}

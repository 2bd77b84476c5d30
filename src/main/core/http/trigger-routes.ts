// POST and GET /api/webhooks/trigger/{token}: no API key, the token is the credential. The token
// is checked before the body is read, and the body is capped at the webhook's own limit: from
// Content-Length before reading, or while a chunked body streams in.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { operations } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import type { Services } from '../compose-services';
import { type TriggerRequest, type TriggerResult, tooLarge } from '../services/triggers';
import type { WebhookRecord } from '../store/repositories/webhooks';
import { requestTimedOut, timeoutError } from './connection-limits';
import { toAppError } from './errors';
import { fastifyPath } from './operation-routes';

type Trigger = FastifyRequest<{ Params: { token: string } }> & { webhook: WebhookRecord | null; receivedAt: Date | null };

/** Reads the body, refusing it with 413 as soon as it passes `limit` bytes (callback style, as Fastify's own reader). */
function readCapped(stream: IncomingMessage, limit: number, done: (error: Error | null, body?: Buffer) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const stop = () => {
    stream.removeListener('data', onData);
    stream.removeListener('end', onEnd);
    stream.removeListener('error', onError);
  };
  function onData(chunk: Buffer): void {
    size += chunk.length;
    if (size <= limit) {
      chunks.push(chunk);
      return;
    }
    stop();
    stream.pause();
    done(tooLarge(limit));
  }
  function onEnd(): void {
    stop();
    done(null, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
  }
  function onError(error: Error): void {
    stop();
    // A body that stalled until the request timeout is recorded as that, not as a broken one.
    done(requestTimedOut(stream.socket) ? timeoutError() : new AppError('invalid_body', `The body could not be read: ${error.message}`));
  }
  stream.on('data', onData);
  stream.on('end', onEnd);
  stream.on('error', onError);
}

function requestOf(request: Trigger, body: Buffer | undefined): TriggerRequest {
  return {
    method: request.method,
    headers: request.headers,
    query: request.query as Record<string, string | string[]>,
    body,
    origin: 'sender',
    receivedAt: request.receivedAt ?? new Date(),
  };
}

function answer(reply: FastifyReply, result: TriggerResult): FastifyReply {
  reply.code(result.status);
  if (result.kind === 'skipped') return reply.send({ skipped: true, reason: result.reason });
  if (result.kind === 'challenge') return reply.send({ challenge: result.challenge });
  return reply.send({ run: result.run });
}

export async function registerTriggerRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const { triggers } = services;

  await app.register(async (scope) => {
    // Every body reaches the handler as raw bytes, read here against the webhook's limit.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (request: FastifyRequest, payload: IncomingMessage, done: (error: Error | null, body?: Buffer) => void) => readCapped(payload, (request as Trigger).webhook!.maxPayloadBytes, done));
    scope.decorateRequest('webhook', null);
    scope.decorateRequest('receivedAt', null);

    scope.addHook('onRequest', async (request) => {
      const trigger = request as Trigger;
      trigger.receivedAt = triggers.now();
      trigger.webhook = triggers.find(trigger.params.token);
      triggers.assertEnabled(trigger.webhook);
      triggers.assertRoom();
      if (request.method === 'POST') triggers.assertSize(trigger.webhook, request.headers['content-length']);
    });
    scope.addHook('onError', async (request, _reply, error) => {
      const trigger = request as Trigger;
      const refusal = toAppError(error);
      if (trigger.webhook && refusal) {
        await triggers.recordRefusal(trigger.webhook, requestOf(trigger, Buffer.isBuffer(request.body) ? request.body : undefined), refusal);
      }
    });

    scope.post(fastifyPath(operations['webhooks.trigger'].path), async (request, reply) => {
      const trigger = request as Trigger;
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      return answer(reply, await triggers.handle(trigger.webhook!, requestOf(trigger, body)));
    });

    scope.get(fastifyPath(operations['webhooks.triggerGet'].path), async (request, reply) => {
      const trigger = request as Trigger;
      return answer(reply, await triggers.handle(trigger.webhook!, requestOf(trigger, undefined)));
    });
  });
}

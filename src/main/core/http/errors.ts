// Every failure becomes the API's error body: AppErrors as they are, Fastify's own errors by
// code, anything else a 500 without internals. No HTML, no stack traces.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../shared/errors';
import type { Logger } from '../logger';
import { storageErrorOf } from '../store/storage-condition';
import { lingerOnClose } from './lingering-close';

const fastifyCodes: Record<string, () => AppError> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => new AppError('unsupported_media_type', 'Send the request body as application/json.'),
  FST_ERR_CTP_BODY_TOO_LARGE: () => new AppError('payload_too_large', 'The request body is too large: this endpoint takes at most 1 MiB.'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => new AppError('invalid_json', 'The body is empty but Content-Type says JSON.'),
  FST_ERR_CTP_INVALID_JSON_BODY: () => new AppError('invalid_json', 'The body is not valid JSON.'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => new AppError('invalid_body', 'Content-Length does not match the body.'),
  FST_ERR_CTP_INVALID_CONTENT_TYPE: () => new AppError('unsupported_media_type', 'The Content-Type header is not valid.'),
};

export function toAppError(error: FastifyError | Error): AppError | undefined {
  if (error instanceof AppError) return error;
  const storage = storageErrorOf(error);
  if (storage) return storage;
  const code = (error as FastifyError).code;
  if (code && fastifyCodes[code]) return fastifyCodes[code]();
  const status = (error as FastifyError).statusCode;
  // The JSON parser throws SyntaxErrors (and prototype-poisoning errors) marked 400.
  if (status === 400 && (error instanceof SyntaxError || /JSON|__proto__|constructor/i.test(error.message))) {
    return new AppError('invalid_json', `The body is not valid JSON: ${error.message}`);
  }
  if (status === 413) return new AppError('payload_too_large', 'The request body is too large.');
  if (status === 415) return new AppError('unsupported_media_type', 'The request body has a media type this endpoint does not take.');
  if (status !== undefined && status >= 400 && status < 500) return new AppError('invalid_body', error.message);
  return undefined;
}

export function createErrorHandler(logger: Logger) {
  return (error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): void => {
    const known = toAppError(error);
    if (!known) {
      logger.error({ err: error, method: request.method, url: request.routeOptions.url }, 'request failed');
      void reply.code(500).send({ error: { code: 'internal_error', message: 'Something went wrong inside Steward; the log has the details.' } });
      return;
    }
    if (known.headers) void reply.headers(known.headers);
    // The client may still be sending a body we will not read: close, lingering so it reads the 413.
    if (known.code === 'payload_too_large') {
      void reply.header('connection', 'close');
      lingerOnClose(request.raw);
    }
    void reply.code(known.status).send(known.toBody());
  };
}

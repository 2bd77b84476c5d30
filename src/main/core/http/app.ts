// Builds the Fastify app (no listening here): the contract's routes, the trigger routes, /mcp, and
// one error shape for everything that goes wrong.
import Fastify, { type FastifyInstance } from 'fastify';
import { AppError } from '../../../shared/errors';
import type { Dispatch } from '../dispatch';
import type { Logger } from '../logger';
import type { Services } from '../compose-services';
import { jsonBodyText } from '../json-text';
import { answerClientError, limitConnectionsPerClient } from './connection-limits';
import { createErrorHandler, toAppError } from './errors';
import { registerEventStream } from './event-stream';
import { type HttpLimits, defaultHttpLimits, requestCheckMs } from './limits';
import { registerMcpRoute } from './mcp-route';
import { registerOperationRoutes } from './operation-routes';
import { registerTriggerRoutes } from './trigger-routes';
import { isDecisionLinkUrl, linkErrorPage, registerApprovalLinks } from './approval-links';
import { type WebOptions, registerWeb } from './web';

/**
 * An empty body is no body, whatever Content-Type says: `curl -X DELETE -H 'Content-Type:
 * application/json'` must work. Non-empty bodies must be JSON, and text (json-text.ts).
 */
function acceptEmptyBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    if (body.length === 0) return done(null, undefined);
    let text: string;
    try {
      text = jsonBodyText(body);
    } catch (error) {
      return done(error as Error, undefined);
    }
    void parseJson(request, text, done);
  });
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body: Buffer, done) => {
    if (body.length === 0) done(null, undefined);
    else done(new AppError('unsupported_media_type', 'Send the request body as application/json.'), undefined);
  });
}

function noSchemaCompiler(): never {
  throw new Error('Fastify route schemas are not compiled: validate with the contract (zod) instead.');
}

/**
 * `triggersOnly`: the listener the tunnel forwards to. It serves the trigger paths, the approvals'
 * decision links (GET and POST /api/approvals/links/{token}) and /api/health, and nothing else,
 * whatever the method or credentials: no management API, no web UI, no event stream, no MCP.
 */
export async function buildHttpApp(
  { services, dispatch, logger }: { services: Services; dispatch: Dispatch; logger: Logger },
  options: { triggersOnly?: boolean; web?: WebOptions; limits?: HttpLimits } = {},
): Promise<FastifyInstance> {
  const handleApiError = createErrorHandler(logger);
  // On a decision link's path every answer is a page, errors that reached no route too: a phone shows no JSON.
  const handleError: typeof handleApiError = (error, request, reply) => {
    const known = isDecisionLinkUrl(request.url) ? toAppError(error) : undefined;
    if (!known) return handleApiError(error, request, reply);
    const notALink = known.code === 'not_found' || known.code === 'invalid_url' || known.code === 'invalid_body';
    void linkErrorPage(reply, known.status, notALink ? 'No request has this link: check that the whole link was copied.' : known.message);
  };
  const limits = options.limits ?? defaultHttpLimits;
  const app = Fastify({
    logger: false,
    bodyLimit: 1024 * 1024,
    // A request whose body stalls is answered 408 and closed (connection-limits.ts says how).
    requestTimeout: limits.requestTimeoutMs,
    // 64 KiB of request head (Node's default is 16): a feed poll's cursors name every instance,
    // and 400 of them (this Steward's and its remotes') take 19 KB.
    http: { maxHeaderSize: 64 * 1024, requestTimeout: limits.requestTimeoutMs, headersTimeout: Math.min(60_000, limits.requestTimeoutMs), connectionsCheckingInterval: requestCheckMs(limits) },
    clientErrorHandler: answerClientError,
    // A HEAD must never fire a trigger or redeem a login link, so a route answers HEAD only where it
    // says so: the operations' GETs (which only read) and the page's files.
    exposeHeadRoutes: false,
    return503OnClosing: true,
    routerOptions: { maxParamLength: 200, ignoreTrailingSlash: true },
    // Inputs are checked with the contract's zod schemas and no route declares a Fastify schema,
    // so Fastify's own compilers (ajv, fast-json-stringify) are never loaded: a faster start.
    schemaController: { compilersFactory: { buildValidator: noSchemaCompiler, buildSerializer: noSchemaCompiler } },
    // Errors Fastify raises before any route (a URL that is not valid percent-encoding) get our
    // error shape too.
    frameworkErrors: (error, request, reply) => {
      const known = error.code === 'FST_ERR_BAD_URL' ? new AppError('invalid_url', 'The URL is not valid percent-encoding.') : error;
      handleError(known, request, reply);
    },
  });
  limitConnectionsPerClient(app.server, limits.connectionsPerClient);
  app.setErrorHandler(handleError);
  acceptEmptyBodies(app);
  app.setNotFoundHandler((request, reply) => {
    if (isDecisionLinkUrl(request.url)) return void linkErrorPage(reply, 404, 'No request has this link: check that the whole link was copied.');
    const error = new AppError('not_found', `No route for ${request.method} ${request.url.split('?')[0]}.`);
    void reply.code(404).send(error.toBody());
  });
  // The guard's hook first: it must run for every route after it.
  if (!options.triggersOnly) registerWeb(app, services, options.web ?? { webRoot: undefined, allowedHosts: [] });
  registerOperationRoutes(app, dispatch, services, options.triggersOnly ? (name) => name === 'health.get' : undefined);
  await registerTriggerRoutes(app, services);
  registerApprovalLinks(app, services, logger);
  if (!options.triggersOnly) {
    registerEventStream(app, services, limits);
    await registerMcpRoute(app, services, dispatch, logger);
  }
  await app.ready();
  return app;
}

// Liveness and the API's own description; neither needs a key.
import { z } from 'zod';
import { NoInput, NoQuery, defineOperation } from './common';

export const healthOperations = {
  'health.get': defineOperation({
    name: 'health.get', method: 'GET', path: '/api/health', summary: 'Liveness',
    auth: false, status: 200, params: NoInput, query: NoQuery, body: z.undefined(),
    output: z.object({ status: z.literal('ok'), version: z.string(), uptimeSeconds: z.number() }),
  }),
  'openapi.get': defineOperation({
    name: 'openapi.get', method: 'GET', path: '/api/openapi.json', summary: 'This API as an OpenAPI 3.1 document',
    auth: false, status: 200, params: NoInput, query: NoQuery, body: z.undefined(),
    output: z.record(z.string(), z.unknown()),
  }),
};

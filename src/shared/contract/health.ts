// Liveness and the API's own description (neither needs a key), and facts about this Steward.
import { z } from 'zod';
import { NoInput, NoQuery, defineOperation } from './common';

export const healthOperations = {
  'health.get': defineOperation({
    name: 'health.get', method: 'GET', path: '/api/health', summary: 'Liveness',
    auth: false, status: 200, params: NoInput, query: NoQuery, body: z.undefined(),
    output: z.object({
      status: z.enum(['ok', 'degraded']).describe('degraded: Steward runs but cannot write (see reason)'),
      reason: z.string().optional().describe('Why it is degraded'),
      version: z.string(),
      contract: z.int().describe('The version of this API contract; a Steward follows remotes that speak its own'),
      uptimeSeconds: z.number(),
    }),
  }),
  'system.get': defineOperation({
    name: 'system.get', method: 'GET', path: '/api/system', summary: "This Steward: version, data folder, API address",
    auth: true, status: 200, params: NoInput, query: NoQuery, body: z.undefined(),
    output: z.object({ system: z.object({ version: z.string(), dataDir: z.string(), apiUrl: z.string() }) }),
  }),
  'openapi.get': defineOperation({
    name: 'openapi.get', method: 'GET', path: '/api/openapi.json', summary: 'This API as an OpenAPI 3.1 document',
    auth: false, status: 200, params: NoInput, query: NoQuery, body: z.undefined(),
    output: z.record(z.string(), z.unknown()),
  }),
};

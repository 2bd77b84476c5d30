// The OpenAPI 3.1 document, derived from the contract (JSON Schema 2020-12 from the zod schemas).
import { z } from 'zod';
import { type Operation, operations } from '../../../shared/contract';
import { ErrorBody, errorStatus } from '../../../shared/errors';
import { operationErrors } from './operation-errors';

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

function parameters(operation: Operation): JsonSchema[] {
  const result: JsonSchema[] = [];
  for (const [location, schema] of [['path', operation.params], ['query', operation.query]] as const) {
    const described = jsonSchema(schema, 'input');
    const properties = (described.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((described.required ?? []) as string[]);
    for (const [name, property] of Object.entries(properties)) {
      result.push({ name, in: location, required: location === 'path' || required.has(name), schema: property });
    }
    if (location === 'query' && described.additionalProperties && Object.keys(properties).length === 0) {
      result.push({ name: 'parameters', in: 'query', required: false, style: 'form', explode: true, schema: { type: 'object', additionalProperties: described.additionalProperties } });
    }
  }
  return result;
}

function requestBody(operation: Operation): JsonSchema | undefined {
  if (operation.method === 'GET' || operation.method === 'DELETE') return undefined;
  if (operation.customRoute) {
    return { required: false, content: { 'application/json': { schema: {} }, 'text/plain': { schema: { type: 'string' } } } };
  }
  // A body whose every field is optional may be left out (POST /api/automations/{id}/run).
  const required = !operation.body.safeParse({}).success;
  return { required, content: { 'application/json': { schema: jsonSchema(operation.body, 'input') } } };
}

/** Each 4XX/5XX status the operation can answer, with the error codes it answers it with. */
function errorResponses(operation: Operation): Record<string, unknown> {
  const byStatus = new Map<number, string[]>();
  for (const [code] of operationErrors(operation)) {
    const codes = byStatus.get(errorStatus[code]) ?? [];
    if (!codes.includes(code)) codes.push(code);
    byStatus.set(errorStatus[code], codes);
  }
  const schema = (codes: string[]) => ({
    allOf: [{ $ref: '#/components/schemas/Error' }, { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: codes } } } } }],
  });
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => [String(status), { description: codes.join(', '), content: { 'application/json': { schema: schema(codes) } } }]),
  );
}

export function buildOpenApiDocument(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of Object.values(operations) as Operation[]) {
    const success = operation.output
      ? { description: operation.summary, content: { 'application/json': { schema: jsonSchema(operation.output, 'output') } } }
      : { description: 'No content' };
    const body = requestBody(operation);
    (paths[operation.path] ??= {})[operation.method.toLowerCase()] = {
      operationId: operation.name,
      summary: operation.summary,
      tags: [operation.name.split('.')[0]],
      security: operation.auth ? [{ bearer: [] }] : [],
      ...(operation.auth ? { 'x-steward-scope': operation.scope } : {}),
      // How far an agent's run (its own key) reaches with it: self, own or prompts; absent, refused to it.
      ...(operation.auth ? { 'x-steward-run-key': operation.runKey ?? 'refused' } : {}),
      parameters: parameters(operation),
      ...(body ? { requestBody: body } : {}),
      responses: {
        [String(operation.status)]: success,
        ...errorResponses(operation),
        default: { description: 'Any other error (a full disk, a full queue, an internal error)', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Steward API', version, description: 'Run AI agents on schedules, webhooks and on demand.' },
    servers: [{ url: 'http://127.0.0.1:7321' }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key made with `steward keys create`' } },
      schemas: { Error: jsonSchema(ErrorBody, 'output') },
    },
  };
}

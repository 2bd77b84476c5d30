// GET /api/openapi.json is a valid OpenAPI 3.1 document that covers every operation.
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../src/shared/contract';
import { type TestCore, startTestCore } from '../support/core';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(() => t.close());

describe('OpenAPI', () => {
  it('validates as OpenAPI 3.1 and lists every operation with its status', async () => {
    const document = (await t.api('GET', '/api/openapi.json')).body;
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');

    for (const operation of Object.values(operations)) {
      const described = document.paths[operation.path]?.[operation.method.toLowerCase()];
      expect(described, operation.name).toBeDefined();
      expect(described.operationId).toBe(operation.name);
      expect(Object.keys(described.responses)).toContain(String(operation.status));
      expect(described.security.length > 0).toBe(operation.auth);
    }
  });

  it('describes request bodies from the same schemas the server validates with', async () => {
    const document = (await t.api('GET', '/api/openapi.json')).body;
    const createBody = document.paths['/api/automations'].post.requestBody.content['application/json'].schema;
    expect(createBody.required).toEqual(expect.arrayContaining(['name', 'prompt']));
    expect(Object.keys(createBody.properties)).toEqual(expect.arrayContaining(['cronExpression', 'trigger', 'retry', 'budget']));
    expect(createBody.additionalProperties).toBe(false);
    expect(createBody.properties.timezone.default).toBe('UTC');
  });
});

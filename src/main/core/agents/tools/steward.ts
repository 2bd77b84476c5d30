// The steward tools: the built-in agent manages Steward itself (the seed's manager role) through
// the same operations and validation as the HTTP API.
import { z } from 'zod';
import { operations } from '../../../../shared/contract';
import type { Dispatch } from '../../dispatch';
import type { MappedName } from '../../handlers';
import type { Tool } from './tool';

const exposed: { name: string; operation: MappedName; withId?: boolean }[] = [
  { name: 'list_automations', operation: 'automations.list' },
  { name: 'create_automation', operation: 'automations.create' },
  { name: 'update_automation', operation: 'automations.update', withId: true },
  { name: 'list_webhooks', operation: 'webhooks.list' },
  { name: 'create_webhook', operation: 'webhooks.create' },
  { name: 'update_webhook', operation: 'webhooks.update', withId: true },
  { name: 'list_instances', operation: 'instances.list' },
  { name: 'send_prompt', operation: 'runs.create' },
];

function parametersOf(operation: MappedName, withId: boolean): Record<string, unknown> {
  const body = operations[operation].body;
  const schema = body instanceof z.ZodUndefined ? { type: 'object', properties: {} } : (z.toJSONSchema(body, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>);
  delete schema.$schema;
  if (!withId) return schema;
  return {
    ...schema,
    properties: { id: { type: 'string', description: 'The id of the one to update' }, ...(schema.properties as object) },
    required: ['id', ...((schema.required as string[] | undefined) ?? [])],
  };
}

export function stewardTools(dispatch: Dispatch): Tool[] {
  return exposed.map(({ name, operation, withId = false }) => {
    const definition = operations[operation];
    const takesBody = !(definition.body instanceof z.ZodUndefined);
    return {
      name,
      description: `Steward: ${definition.summary}.`,
      parameters: parametersOf(operation, withId),
      async run(args) {
        const { id, ...rest } = args;
        const output = await dispatch(operation, { params: withId ? { id } : {}, query: {}, body: takesBody ? (withId ? rest : args) : undefined });
        return JSON.stringify(output);
      },
    };
  });
}

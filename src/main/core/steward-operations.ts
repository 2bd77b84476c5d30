// The operations Steward exposes as tools, to its built-in agent and to MCP clients: one list, one
// input schema per tool (the operation's params, query and body as one JSON object), dispatched
// through the contract's validation like an HTTP request.
import { z } from 'zod';
import { operations } from '../../shared/contract';
import { type Caller, mayCall } from './caller';
import type { Dispatch, MappedName, RawInput } from './operation-call';

export interface StewardOperation {
  /** The tool's name (snake_case, as models and MCP clients expect). */
  name: string;
  operation: MappedName;
  /** What the model reads, when the operation's summary is not enough. */
  description?: string;
  /** Only a run may call it: offered to callers with a run's key only. */
  forRuns?: true;
}

const reportOutcomeDescription = [
  'Steward: report what came of this run, once you know (you may call it again; the last report counts).',
  'status "nothing_to_report": you checked and found nothing new or worth a person\'s time; the run stays quiet (folded in the feed, no notification).',
  'status "done": you did what was asked and it worked.',
  'status "needs_attention": a person should look (something is wrong, a decision is needed, or you could not finish); they are notified.',
  'summary: one or two sentences saying what you found or did (at most 500 characters).',
].join(' ');

export const stewardOperations: readonly StewardOperation[] = [
  { name: 'list_automations', operation: 'automations.list' },
  { name: 'get_automation', operation: 'automations.get' },
  { name: 'create_automation', operation: 'automations.create' },
  { name: 'update_automation', operation: 'automations.update' },
  { name: 'list_webhooks', operation: 'webhooks.list' },
  { name: 'get_webhook', operation: 'webhooks.get' },
  { name: 'create_webhook', operation: 'webhooks.create' },
  { name: 'update_webhook', operation: 'webhooks.update' },
  { name: 'export_config', operation: 'config.export' },
  {
    name: 'apply_config',
    operation: 'config.apply',
    description: 'Steward: apply configuration files (YAML documents of instances, automations and webhooks, matched by kind and name) in one transaction; dryRun true shows the changes first. An admin key only: an agent\'s run cannot apply.',
  },
  { name: 'list_instances', operation: 'instances.list', description: "Steward: list instances (for an agent's run: its own, and the ones that accept its prompts)." },
  {
    name: 'send_prompt',
    operation: 'runs.create',
    description: "Steward: send a prompt to an instance: a run, queued now (for an agent's run: its own instance, or one that accepts its prompts; read the answer with get_run_messages).",
  },
  { name: 'get_run', operation: 'runs.get' },
  { name: 'get_run_messages', operation: 'runs.messages' },
  { name: 'list_activity', operation: 'activity.list' },
  { name: 'ask_human', operation: 'approvals.ask' },
  { name: 'approval_prompt', operation: 'approvals.permission' },
  { name: 'report_outcome', operation: 'runs.reportOutcome', description: reportOutcomeDescription, forRuns: true },
];

/** The tools `caller` may call: by its key's scope, or a run's by the reach each operation declares; report_outcome for a run only. */
export const stewardOperationsFor = (caller: Caller): StewardOperation[] =>
  stewardOperations.filter((tool) => mayCall(caller, operations[tool.operation]) && (!tool.forRuns || caller.runId !== undefined));

type Part = keyof RawInput;

function partSchemas(operation: MappedName): [Part, z.ZodType][] {
  const { params, query, body } = operations[operation];
  return (
    [
      ['params', params],
      ['query', query],
      ['body', body],
    ] as [Part, z.ZodType][]
  ).filter(([, schema]) => schema instanceof z.ZodObject);
}

/** The JSON Schema of a tool's arguments: the properties of params, query and body side by side. */
export function stewardInputSchema(operation: MappedName): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [part, schema] of partSchemas(operation)) {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown>; required?: string[] };
    for (const [key, property] of Object.entries(json.properties ?? {})) {
      properties[key] = part === 'params' && key === 'id' ? { ...(property as object), description: `The id of the ${operations[operation].path.split('/')[2].replace(/s$/, '')}` } : property;
    }
    required.push(...(json.required ?? []));
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

/** Tool arguments back into the request parts: keys the params or query declare go there, the rest is the body. */
export function splitArguments(operation: MappedName, args: Record<string, unknown>): RawInput {
  const raw: RawInput = { params: {}, query: {} };
  const schemas = partSchemas(operation);
  const takesBody = schemas.some(([part]) => part === 'body');
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    const owner = schemas.find(([part, schema]) => part !== 'body' && key in (schema as z.ZodObject).shape)?.[0];
    if (owner) (raw[owner] as Record<string, unknown>)[key] = value;
    else body[key] = value;
  }
  // Without a body, stray arguments still reach validation (as the query): an unknown field is refused.
  if (takesBody) raw.body = body;
  else Object.assign(raw.query as object, body);
  return raw;
}

export function describeOperation({ operation, description }: StewardOperation): string {
  return description ?? `Steward: ${operations[operation].summary}.`;
}

export function callStewardOperation(dispatch: Dispatch, operation: MappedName, args: Record<string, unknown>, caller?: Caller): Promise<unknown> {
  return dispatch(operation, splitArguments(operation, args), caller);
}

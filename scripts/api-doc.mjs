// Writes docs/api.md, the operation reference, and docs/steward-config.schema.json, the JSON
// Schema editors check configuration files with, from the contract. The OpenAPI document the server
// serves (src/main/core/http/openapi.ts, JSON Schema from the zod schemas) gives each operation's
// fields; the contract gives what that document leaves implicit (auth, status); the errors are the
// ones the contract's rules and the services state (api-doc-errors.mjs).
//   npm run docs:api              writes docs/api.md
//   tsx scripts/api-doc.mjs --check   exits 1 while docs/api.md differs (test/unit/api-doc.test.ts)
// It imports the TypeScript contract, so it runs under tsx.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as contract from '../src/shared/contract/index.ts';
import { errorStatus } from '../src/shared/errors.ts';
import { buildOpenApiDocument } from '../src/main/core/http/openapi.ts';
import { errorMeanings, operationErrors } from '../src/main/core/http/operation-errors.ts';
import { cell, code, fieldRows, namedType, namedTypes, table, toSchema, typeAnchor, typeText } from './api-doc-fields.mjs';

const { operations } = contract;
const operationAnchor = (name) => name.replace('.', '-').toLowerCase();

export const apiDocPath = path.resolve(import.meta.dirname, '../docs/api.md');
export const configSchemaPath = path.resolve(import.meta.dirname, '../docs/steward-config.schema.json');

/** The contract's sections, in the order the reference lists them. */
const sections = [
  ['Health and this Steward', contract.healthOperations],
  ['Automations and the scheduler', contract.automationOperations],
  ['Fires, spend and the agenda', { ...contract.fireOperations, ...contract.spendOperations, ...contract.agendaOperations }],
  ['Webhooks and their triggers', contract.webhookOperations],
  ['Webhook deliveries', contract.deliveryOperations],
  ['Instances', contract.instanceOperations],
  ['Agents on this machine', contract.agentOperations],
  ['Runs and threads', { ...contract.runOperations, ...contract.outcomeOperations }],
  ['Activity and live events', contract.activityOperations],
  ['API keys', contract.apiKeyOperations],
  ['Secrets', contract.secretOperations],
  ['Settings', contract.settingsOperations],
  ['Tunnel', contract.tunnelOperations],
  ['Remote Stewards', contract.remoteOperations],
  ['Notification channels', contract.notificationOperations],
  ['Approvals', contract.approvalOperations],
  ['Configuration as files', contract.configOperations],
];

function keyLine(operation) {
  if (!operation.auth) return 'none: anyone who can reach the port may call it';
  const scope = `an API key of scope ${code(operation.scope)}${operation.scope === 'admin' ? '' : ' or wider'}`;
  const runKey = {
    self: `a run's own key too, for its own run (${code('runKey: self')})`,
    own: `a run's own key too, for its own instance's only (${code('runKey: own')})`,
    prompts: `a run's own key too, for its own instance and those that accept its prompts (${code('runKey: prompts')})`,
  }[operation.runKey];
  return `${scope}; ${runKey ?? `never a run's own key (${code('runKey')} none)`}`;
}

const bodyTaken = (operation) => operation.method === 'POST' || operation.method === 'PUT' || operation.method === 'PATCH';

function renderOperation(operation, documented) {
  const lines = [`### ${operation.name}`, '', `<a id="${operationAnchor(operation.name)}"></a>\`${operation.method} ${operation.path}\` — ${documented.summary}`, ''];
  lines.push(`- **Key**: ${keyLine(operation)}`);
  lines.push(`- **Answers**: ${operation.status}${operation.output ? '' : ' with no body'}`, '');
  const pathRows = documented.parameters.filter((parameter) => parameter.in === 'path').map((parameter) => ({ field: parameter.name, type: typeText(parameter.schema), required: true, description: parameter.schema.description ?? '' }));
  if (pathRows.length > 0) lines.push('**Path**', '', ...table(pathRows));
  const queryRows = documented.parameters
    .filter((parameter) => parameter.in === 'query')
    .map((parameter) => ({ field: parameter.name, type: typeText(parameter.schema), required: parameter.required, description: parameter.schema.description ?? '' }));
  if (queryRows.length > 0) lines.push('**Query**', '', ...table(queryRows));
  if (operation.customRoute && bodyTaken(operation)) {
    lines.push('**Body**: whatever the sender sends: JSON (`application/json`, which must parse) or text (`text/*`, form data, XML), up to the webhook\'s `maxPayloadBytes`; binary bodies are refused.', '');
  } else if (bodyTaken(operation)) {
    const body = documented.requestBody?.content['application/json']?.schema ?? {};
    const named = namedType(body);
    const rows = fieldRows(body, '', []);
    if (named) lines.push(`**Body** (JSON): a [${named}](#${typeAnchor(named)})`, '');
    else if (rows.length > 0) lines.push('**Body** (JSON)', '', ...table(rows));
    else lines.push('**Body**: none (an empty JSON object, or nothing)', '');
  }
  const content = documented.responses[String(operation.status)]?.content;
  const output = content?.['application/json']?.schema;
  if (operation.name === 'events.stream') {
    lines.push(`**Answer** ${operation.status}: \`text/event-stream\`, one event per change (see the summary); an \`activity\` event's data is an [ActivityEvent](#${typeAnchor('ActivityEvent')}) with its \`seq\`, a \`run\` event's a [Run](#${typeAnchor('Run')}), an \`instance\` event's an [Instance](#${typeAnchor('Instance')}).`, '');
  } else if (output) {
    const rows = fieldRows(output, '', []);
    if (rows.length > 0) lines.push(`**Answer** ${operation.status}`, '', ...table(rows, 'always'));
    else lines.push(`**Answer** ${operation.status}: ${typeText(output)}`, '');
  }
  const errors = operationErrors(operation);
  if (errors.length > 0) {
    lines.push('**Errors**', '', '| status | code | when |', '|---|---|---|', ...errors.map(([errorCode, why]) => `| ${errorStatus[errorCode]} | \`${errorCode}\` | ${cell(why)} |`), '');
  }
  return lines;
}

function renderTypes() {
  const lines = ['## Types', '', 'Shapes that recur across operations. Request-side shapes (AgentConfig, SandboxConfig, McpServerConfig, FilterCondition) are shown as written: a field with a default may be left out, and reads back with its value.', ''];
  for (const [name, schema, io] of namedTypes) {
    const json = toSchema(schema, io);
    lines.push(`### ${name}`, '', `<a id="${typeAnchor(name)}"></a>${json.description ?? ''}`.trimEnd(), '');
    const rows = fieldRows(json, '', [], name);
    lines.push(...(rows.length > 0 ? table(rows, io === 'output' ? 'always' : 'required') : [typeText(json, name), '']));
  }
  return lines;
}

function renderErrorCodes() {
  return [
    '## Error codes',
    '',
    'Every error is JSON, never HTML or a stack trace; a rejected request changes nothing:',
    '',
    '```json',
    '{"error": {"code": "invalid_cron", "message": "Invalid cron expression: expected 5 fields (...), got 4", "field": "cronExpression"}}',
    '```',
    '',
    '`field` names the field concerned, when there is one. A rejected request changes nothing, and an update that changes nothing (an empty or identical `PUT`/`PATCH`) is answered 200 with the resource as it was: `updatedAt` kept, no `changed` event.',
    '',
    'JSON bodies are text: invalid UTF-8 and lone surrogates (`"\\ud800"`) are 400 `invalid_json` naming the byte offset, on the API and the trigger path alike (`/mcp` answers JSON-RPC\'s `-32700` instead, and `-32602` for an unknown tool); names (of automations, webhooks, instances, API keys, notification channels) refuse control characters. A request whose headers or body stall is answered 408 and closed after 20 s (checked every 5 s), and one client address holds at most 512 connections.',
    '',
    '| status | code | meaning |',
    '|---|---|---|',
    ...Object.keys(errorStatus).map((errorCode) => `| ${errorStatus[errorCode]} | \`${errorCode}\` | ${cell(errorMeanings[errorCode])} |`),
    '',
  ];
}

const preamble = [
  '# API reference',
  '',
  '<!-- Generated by scripts/api-doc.mjs from src/shared/contract: do not edit; run `npm run docs:api`. -->',
  '',
  'Every operation of the contract (`src/shared/contract`), as the HTTP API serves it at `http://127.0.0.1:7321` (the port is `--port` or `STEWARD_PORT`). The same operations are the desktop app\'s IPC, the MCP server\'s tools where named in [agents.md](agents.md#mcp), and `GET /api/openapi.json` (OpenAPI 3.1, the scope as `x-steward-scope`, a run\'s key\'s reach as `x-steward-run-key`). Walk-throughs with curl are in the subject pages: [automations](automations.md), [webhooks](webhooks.md), [agents](agents.md), [runs and activity](runs-and-activity.md), [notifications](notifications.md).',
  '',
  '- **Keys**: every operation with a scope needs `Authorization: Bearer <key>` (`steward keys create`, or `POST /api/keys`). Scopes nest: `admin` ⊃ `runs` ⊃ `read`. A run\'s own key (and the built-in agent\'s steward tools) is not measured by a scope but by each operation\'s `runKey`: `self` (its own run), `own` (its own instance\'s: another instance\'s is 404, as if absent; lists hold only its own), `prompts` (its own instance, and one whose `acceptsPromptsFrom` names it and that is at least as confined, with the runs it started there); none: 403 ([security.md](security.md#keys-and-scopes)). No answer to a run\'s key holds an `agent.env` value (each is `[hidden]`).',
  '- **JSON in and out.** A single resource comes in an envelope (`{"automation": {...}}`), a list as `{"automations": [...]}`. Updates change only the fields sent; `null` is no value for a required field. DELETE answers 204.',
  '- **Every path of the management API** (all but the trigger URLs) refuses requests from browsers of other origins (403 `cross_origin`) and requests for a host name it does not know (403 `forbidden_host`; `--allowed-host` adds one); a URL that is not valid percent-encoding is 400 `invalid_url`; a body over 1 MiB is 413 `payload_too_large`.',
  '- **Every operation that writes** answers 503 `storage_full` (or `storage_read_only`) with `Retry-After: 30` while the disk under the data folder is full (or read-only); reads go on, and `GET /api/health` says `degraded`.',
  '- Outside the contract: `/mcp` (Steward\'s MCP server, Streamable HTTP, the same keys) and `/login?token=…` (the one-time link `steward serve` and `steward login-link` print, which sets the web UI\'s session cookie).',
  '',
];

export function renderApiDoc() {
  const document = buildOpenApiDocument('reference');
  const documented = new Map();
  for (const methods of Object.values(document.paths)) for (const entry of Object.values(methods)) documented.set(entry.operationId, entry);
  const listed = sections.flatMap(([, section]) => Object.keys(section));
  const missing = Object.keys(operations).filter((name) => !listed.includes(name));
  if (missing.length > 0) throw new Error(`scripts/api-doc.mjs lists no section for ${missing.join(', ')}: add its contract section to \`sections\`.`);

  const lines = [...preamble, '## Operations', ''];
  for (const [title, section] of sections) {
    lines.push(`- ${title}: ${Object.values(section).map((operation) => `[${operation.name}](#${operationAnchor(operation.name)})`).join(', ')}`);
  }
  lines.push('');
  for (const [title, section] of sections) {
    lines.push(`## ${title}`, '');
    for (const operation of Object.values(section)) lines.push(...renderOperation(operation, documented.get(operation.name)));
  }
  lines.push(...renderTypes(), ...renderErrorCodes());
  return `${lines.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const outputs = [
    [apiDocPath, renderApiDoc()],
    [configSchemaPath, `${JSON.stringify(contract.configJsonSchema(), null, 2)}\n`],
  ];
  for (const [file, rendered] of outputs) {
    const name = path.relative(process.cwd(), file);
    if (process.argv.includes('--check')) {
      const written = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
      if (written !== rendered) {
        const [old, now] = [written.split('\n'), rendered.split('\n')];
        const line = now.findIndex((text, index) => text !== old[index]);
        process.stderr.write(`${name} is stale: run npm run docs:api (it differs from line ${line + 1}: ${JSON.stringify(now[line] ?? '')})\n`);
        process.exit(1);
      }
      process.stdout.write(`${name} is current\n`);
    } else {
      fs.writeFileSync(file, rendered);
      process.stdout.write(`Wrote ${name}\n`);
    }
  }
}

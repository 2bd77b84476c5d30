// The errors each operation can answer, in one place for the OpenAPI document and docs/api.md:
// what each code means, the errors every operation of its kind answers (no key, a scope below
// its own, an unknown id, a body or query that does not parse), and those its service states
// beside them. The types check both against the contract: every code has a meaning, and an
// operation or code that no longer exists does not compile.
import { z } from 'zod';
import type { Operation, OperationName } from '../../../shared/contract';
import { type ErrorCode, errorStatus } from '../../../shared/errors';
import { routes } from '../remotes/routing';

/** An error code and when the operation answers it. */
export type ErrorNote = [ErrorCode, string];

export const errorMeanings: Record<ErrorCode, string> = {
  invalid_url: 'The URL is not valid percent-encoding (or, for a notification channel, not an http(s) URL).',
  invalid_json: 'The body says it is JSON but does not parse.',
  invalid_body: 'The body is not a JSON object, or could not be read.',
  invalid_query: 'The query string is not valid.',
  unknown_field: 'A field (or query parameter) the operation does not take, read-only ones included; `field` names it.',
  missing_field: 'A required field is missing; `field` names it.',
  invalid_field: 'A field of the wrong type, out of range, or naming something that does not exist; `field` names it.',
  invalid_cron: 'The cron expression is not five valid fields, or can never fire.',
  invalid_timezone: 'The timezone is not an IANA name.',
  invalid_time: 'A time is not a date and time such as 2026-11-28T09:00 (or one with its offset), or names a date that does not exist.',
  missing_payload_placeholder: 'A webhook template that uses neither `{{payload}}` nor a field of it.',
  invalid_template: 'A malformed placeholder in a template or idempotency key.',
  unknown_placeholder: 'A `{{placeholder}}` Steward does not fill there (a typo would be sent as written); `{{ spaced }}` braces are text.',
  invalid_cursors: 'The activity cursors are not Base64 of the cursors object a response returned.',
  invalid_trigger: 'An automation with both a `cronExpression` and a `trigger`, or neither.',
  invalid_config: 'A configuration file that does not parse or does not fit the contract; the message names each problem by file, line and column, and nothing was applied.',
  not_retryable: 'A retry policy names `auth` or `agent_error` in `on`: those never pass by waiting.',
  cycle: 'A chained automation would follow itself, directly or through others.',
  cross_location: "An update would move an automation or webhook to an instance on another Steward: it stays where it was made.",
  unauthorized: 'No API key, or one that is unknown or revoked (`WWW-Authenticate: Bearer`).',
  invalid_signature: "A webhook's required signature is missing, wrong, or (timestamped schemes) more than 5 minutes old.",
  forbidden: "The key's scope does not allow the operation, or a run's own key calls one it may not (x-steward-run-key).",
  run_depth_limit: 'A run started by a chain of runs as deep as `runner.maxRunDepth` tries to start another.',
  webhook_disabled: 'The webhook is disabled.',
  forbidden_host: 'The request names a host Steward does not answer to (`--allowed-host` adds one).',
  cross_origin: 'A browser request from another origin to the management API.',
  not_found: 'No such id, token or route.',
  request_timeout: 'The request\'s headers or body stalled: answered and closed after 20 s.',
  instance_in_use: 'Automations or webhooks still target the instance.',
  instance_busy: 'A run is running on the instance (delete with `?force=true` to cancel it).',
  default_instance: 'The default instance cannot be deleted.',
  tunnel_not_configured: 'No tunnel provider is chosen yet (`PUT /api/tunnel`).',
  not_replayable: 'The delivery was refused before its body was read: there is nothing to replay.',
  refused_delivery: 'The delivery was refused (a bad signature, say): its body was never verified; replay it with `{"force": true}`.',
  already_decided: 'The approval was already allowed or denied; the answer says by whom and when.',
  expired: 'The approval expired before this decision (no one answered in time, or its run ended).',
  remote_exists: 'That address is already followed as another remote.',
  over_budget: 'A run asked for by hand while its instance or automation is at or over its budget; the message names the budget and when it resets.',
  payload_too_large: "The body is larger than the webhook's `maxPayloadBytes` (1 MiB for the management API).",
  unsupported_media_type: 'A body of a type the operation does not take (binary trigger bodies, a non-JSON management body).',
  rate_limited: 'Too many requests; retry after `Retry-After` seconds.',
  too_many_connections: 'One client address already holds 512 connections; retry after `Retry-After` seconds.',
  too_many_streams: 'The key (or browser session) already holds 16 event streams; close one, or retry after `Retry-After` seconds.',
  internal_error: 'Something failed inside Steward; the log has the details (never the answer to bad input).',
  remote_unreachable: 'The remote Steward the call was for cannot be reached (the message says why and since when).',
  remote_unauthorized: "The remote Steward refused this Steward's key for it (revoked, or below admin), or its secret is not stored.",
  remote_incompatible: "The remote Steward does not speak this Steward's contract version, or answered with something that is not Steward's API.",
  remote_error: 'The remote Steward answered with an error this Steward does not know (a newer version); the message is its own.',
  source_unreachable: "An event trigger's source could not be read (a folder, a repository, a mail server, a feed): the message is its own words, or the address rules' refusal.",
  queue_full: 'More runs wait than `runner.maxQueued` allows; retry after `Retry-After` seconds.',
  storage_full: "The disk under the data folder is full; nothing was changed (`Retry-After: 30`).",
  storage_read_only: 'The data folder is read-only; nothing was changed (`Retry-After: 30`).',
};

const noInstance: ErrorNote = ['invalid_field', '`instanceId` names no instance.'];
const cron: ErrorNote[] = [
  ['invalid_cron', '`cronExpression` is not five valid fields (or a `@daily`-style name), or can never fire (`0 0 30 2 *`).'],
  ['invalid_timezone', '`timezone` is not an IANA name.'],
];
const triggerErrors: ErrorNote[] = [
  ['invalid_trigger', '`trigger` names no kind or two, or its kind\'s fields do not hold together (`every` with two units; `mail` moving without `moveTo`).'],
  ['invalid_time', '`trigger.at` or `trigger.every.from` is not a time such as 2026-11-28T09:00.'],
  ['invalid_field', '`trigger.at` is in the past; `catchUp` `all` without an event trigger; `{{event…}}` in the prompt without one.'],
  ['forbidden', "An agent's run (its key, or its steward tools) made or changed a `watch`, `git`, `mail` or `feed` trigger: only a person may."],
];
const template: ErrorNote[] = [
  ['missing_payload_placeholder', '`promptTemplate` uses neither `{{payload}}` nor a `{{payload.…}}` field.'],
  ['invalid_template', 'A malformed placeholder in `promptTemplate` or `idempotencyKey` (`{{payload..a}}`, a refused header).'],
  ['unknown_placeholder', '`promptTemplate` or `idempotencyKey` uses a `{{placeholder}}` other than `{{payload}}`, `{{payload.…}}`, `{{headers.…}}`, `{{query.…}}`.'],
];
const unknownPlaceholder: ErrorNote = ['unknown_placeholder', '`prompt` uses a `{{placeholder}}` other than `{{previous.output}}`, `.status`, `.runId`, `.summary`.'];
const notRetryable: ErrorNote = ['not_retryable', '`retry.on` names `auth` or `agent_error`: a refused key and the agent\'s own error fail the same way again.'];
const depth: ErrorNote = ['run_depth_limit', 'Called with a run\'s key whose run is already `runner.maxRunDepth` deep.'];
const queueFull: ErrorNote = ['queue_full', 'More than `runner.maxQueued` runs wait (`Retry-After: 30`).'];
const disabled: ErrorNote = ['webhook_disabled', 'The webhook is disabled.'];
const overBudget = (whose: string): ErrorNote => ['over_budget', `${whose} has spent its day's or month's budget (\`usdPerDay\`, \`tokensPerDay\`, \`usdPerMonth\`); the message names the budget and when it resets.`];
const trigger: ErrorNote[] = [
  ['invalid_field', 'An `Idempotency-Key` longer than 255 characters.'],
  ['invalid_signature', 'The webhook requires a signature and it is missing, wrong or too old.'],
  disabled,
  ['not_found', 'No webhook has this token (a regenerated token is unknown at once).'],
  queueFull,
];

/** Per operation: [error code, when], beside the errors every operation of its kind answers. */
const stated: Partial<Record<OperationName, ErrorNote[]>> = {
  'automations.create': [noInstance, ...cron, ...triggerErrors, unknownPlaceholder, depth, notRetryable],
  'automations.update': [noInstance, ...cron, ...triggerErrors, unknownPlaceholder, notRetryable],
  'agenda.get': [['invalid_field', '`to` more than 35 days after `from` or not after it, or an `after` that is no page\'s `nextAfter`.']],
  'webhooks.create': [noInstance, ...template, ['missing_field', '`promptTemplate` with a `generic` sender, or `signature.scheme` where the sender has none.'], depth, notRetryable],
  'webhooks.update': [noInstance, ...template, notRetryable],
  'automations.run': [overBudget('The automation or its instance')],
  'automations.preview': [
    ['invalid_trigger', 'The trigger is not an event trigger (watch, git, mail, feed).'],
    ['source_unreachable', "The source could not be read: the folder, repository, server or feed's own words, or the address rules' refusal."],
  ],
  'config.apply': [
    ['invalid_config', 'A file does not parse or a document does not fit the contract (a bad cron, an unknown field, a template without its placeholder, an instance, automation or secret named that does not exist): every problem as `file:line:col: …`, nothing applied.'],
    ['not_found', '`remote` names no remote Steward followed here.'],
    ['instance_in_use', 'A prune would delete an instance that an automation or webhook left in place still targets: nothing applied.'],
    ['instance_busy', 'A prune would delete an instance while a run is running on it: nothing applied.'],
    ['remote_unreachable', "`remote`'s Steward did not answer."],
  ],
  'config.export': [
    ['not_found', '`remote` names no remote Steward followed here.'],
    ['remote_unreachable', "`remote`'s Steward did not answer."],
  ],
  'config.setFolder': [['invalid_field', '`folder` is not a folder on this machine.']],
  'config.detach': [['not_found', 'No resource of this id came from a file.']],
  'config.writeBack': [['not_found', 'No resource of this id came from a file, or its file is not here (an upload) or no longer holds it: detach it instead.']],
  'webhooks.test': [disabled, queueFull, overBudget("The webhook's instance")],
  'webhooks.trigger': [
    ['invalid_json', 'A body sent as `application/json` that does not parse.'],
    ['invalid_body', 'The body could not be read.'],
    ...trigger,
    ['payload_too_large', "The body is larger than the webhook's `maxPayloadBytes`; decided from `Content-Length` before reading, or while it streams."],
    ['unsupported_media_type', 'A binary body, or a charset Steward cannot read.'],
  ],
  'webhooks.triggerGet': trigger,
  'deliveries.replay': [
    ['not_replayable', 'The delivery was refused before its body was read (too large, the webhook disabled or the queue full).'],
    ['refused_delivery', 'The delivery was refused (its signature did not match, say) and `force` is not `true`.'],
    disabled, queueFull, overBudget("The webhook's instance")],
  'instances.delete': [
    ['instance_in_use', 'Automations or webhooks target the instance: point them elsewhere or delete them first.'],
    ['instance_busy', 'A run is running on it and `force` is not `true`.'],
    ['default_instance', 'It is the default instance.'],
  ],
  'runs.create': [noInstance, ['invalid_field', '`threadId` names no chat thread (an automation\'s or webhook\'s thread cannot be continued).'], depth, queueFull, overBudget('The instance')],
  'runs.reportOutcome': [
    ['forbidden', "Called without a run's key: outcomes are for agents' runs (Steward's MCP server gives each run its key)."],
    ['not_found', "The key's run no longer exists."],
  ],
  'activity.list': [['invalid_cursors', '`cursors` is not Base64 (standard or URL-safe) of a cursors object.']],
  'secrets.put': [['invalid_field', 'The name is not 1–100 letters, digits, dots, dashes or underscores.']],
  'notifications.create': [
    ['invalid_url', '`url` is not an http:// or https:// URL.'],
    ['invalid_field', "`sources` names an automation, webhook or instance that does not exist; `tokenRef` on a channel that is not ntfy, or naming no stored secret."],
  ],
  'notifications.update': [
    ['invalid_url', '`url` is not an http:// or https:// URL.'],
    ['invalid_field', '`sources` names something that does not exist; `tokenRef` as for create; `regenerateSecret` on a channel that is not a webhook.'],
  ],
  'tunnel.start': [['tunnel_not_configured', 'No provider chosen yet: `PUT /api/tunnel` first.']],
  'remotes.create': [
    ['invalid_field', '`url` is not https:// (http:// only on loopback), holds a user name, a query or a fragment, or is this Steward itself; `apiKeyRef` names no stored secret.'],
    ['remote_exists', 'That URL is already followed.'],
  ],
  'remotes.check': [
    ['invalid_field', '`url` is not https:// (http:// only on loopback), or is this Steward itself.'],
    ['remote_exists', 'That URL is already followed.'],
  ],
  'remotes.update': [['invalid_field', 'As for create.'], ['remote_exists', 'That URL is already followed by another remote.']],
};

/** What an operation that may be answered by a remote Steward answers besides (remotes/routing.ts). */
const forwarded: ErrorNote[] = [
  ['remote_unreachable', 'It belongs to a remote Steward that cannot be reached now.'],
  ['remote_unauthorized', 'It belongs to a remote Steward that refuses this Steward\'s key.'],
  ['remote_incompatible', 'It belongs to a remote Steward that speaks another contract.'],
  ['remote_error', 'The remote Steward answered with an error code this Steward does not know.'],
];

const bodyTaken = (operation: Operation) => operation.method === 'POST' || operation.method === 'PUT' || operation.method === 'PATCH';

type Shape = { properties?: Record<string, Shape>; items?: Shape; required?: string[]; anyOf?: Shape[]; oneOf?: Shape[]; allOf?: Shape[] };

/** How many fields a schema has and requires, nested objects' and variants' (a union, an intersection) counted too. */
function fieldsOf(schema: z.ZodType): { fields: number; required: number } {
  const count = (shape: Shape): { fields: number; required: number } =>
    [...(shape.anyOf ?? []), ...(shape.oneOf ?? []), ...(shape.allOf ?? []), ...Object.values(shape.properties ?? {}), ...(shape.items ? [shape.items] : [])].map(count).reduce(
      (sum, each) => ({ fields: sum.fields + each.fields, required: sum.required + each.required }),
      { fields: Object.keys(shape.properties ?? {}).length, required: shape.required?.length ?? 0 },
    );
  return count(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Shape);
}

/** Its body or query has an instance field (instanceId, instanceIds). */
function namesInstance(operation: Operation): boolean {
  const keys = (schema: z.ZodType) => (schema instanceof z.ZodObject ? Object.keys(schema.shape) : []);
  return [...keys(operation.body), ...keys(operation.query)].some((key) => key === 'instanceId' || key === 'instanceIds');
}

/** The errors `operation` can answer, by status: the ones of its kind, then the ones its service states. */
export function operationErrors(operation: Operation): ErrorNote[] {
  const errors: ErrorNote[] = [];
  if (bodyTaken(operation) && !operation.customRoute) {
    errors.push(['invalid_json', 'The body is not valid JSON.'], ['invalid_body', 'The body is not a JSON object.'], ['unsupported_media_type', 'A body that is not application/json.'], ['unknown_field', 'A field this operation does not take (read-only fields included); `field` names it.']);
    const body = fieldsOf(operation.body);
    if (body.required > 0) errors.push(['missing_field', 'A required field is missing; `field` names it.']);
    if (body.fields > 0) errors.push(['invalid_field', 'A field of the wrong type or out of range; `field` names it.']);
  }
  if (fieldsOf(operation.query).fields > 0 && !operation.customRoute) {
    errors.push(['invalid_field', 'A query parameter of the wrong type or out of range.'], ['unknown_field', 'A query parameter this operation does not take.']);
  }
  if (operation.auth) errors.push(['unauthorized', 'No API key, or one that is unknown or revoked.']);
  if (operation.auth && (operation.scope !== 'read' || operation.runKey === undefined)) {
    errors.push(['forbidden', operation.runKey === undefined ? `The key's scope is below \`${operation.scope}\`, or it is a run's own key.` : `The key's scope is below \`${operation.scope}\`.`]);
  }
  const explicit = stated[operation.name as OperationName] ?? [];
  const pathParameters = [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
  // A run's own key is answered 404 for another instance's resource, as for one that does not exist.
  const ofAnother = operation.runKey === 'own' || operation.runKey === 'prompts' ? ", or, for a run's own key, another instance's" : '';
  if (pathParameters.length > 0 && !explicit.some(([code]) => code === 'not_found') && operation.name !== 'secrets.put') {
    errors.push(['not_found', `Unknown ${pathParameters.map((name) => `\`{${name}}\``).join(', ')}${ofAnother}.`]);
  } else if (pathParameters.length === 0 && ofAnother && namesInstance(operation)) {
    errors.push(['not_found', "For a run's own key: the `instanceId` (or `threadId`) named is another instance's, or one it may not prompt."]);
  }
  errors.push(...explicit);
  if (operation.name in routes) errors.push(...forwarded);
  if (operation.name === 'automations.update' || operation.name === 'webhooks.update') errors.push(['cross_location', '`instanceId` names an instance on another Steward than the one it lives on.']);
  const seen = new Set<string>();
  return errors
    .filter(([code, why]) => !seen.has(`${code}${why}`) && seen.add(`${code}${why}`))
    .filter(([code], index, all) => all.findIndex(([other]) => other === code) === index || explicit.some(([other]) => other === code))
    .sort(([a], [b]) => errorStatus[a] - errorStatus[b]);
}

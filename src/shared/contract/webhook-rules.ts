// What a webhook does with a request: its prompt template (placeholders), payload limit, filter,
// fencing, idempotency key and sender preset. Checked here, at save time, by every door.
import { z } from 'zod';
import { checkHeaderName, checkQueryName, parsePath, parseTemplate, usesPayload } from '../webhook-template';
import { unknownPlaceholderProblem } from '../placeholders';

export const payloadPlaceholder = '{{payload}}';
/** The seed's limit, still every webhook's default. */
export const maxTriggerBytes = 10_240;
/** The most a webhook may be set to take. */
export const maxPayloadBytesLimit = 1_048_576;

export const MaxPayloadBytes = z
  .int()
  .min(1, 'must be at least 1')
  .max(maxPayloadBytesLimit, `must be at most ${maxPayloadBytesLimit} (1 MiB)`)
  .describe(`The largest body accepted, in bytes (default ${maxTriggerBytes}, at most ${maxPayloadBytesLimit}); more is 413 payload_too_large`);

export const PromptTemplate = z
  .string()
  .max(100_000, 'must be at most 100000 characters')
  .superRefine((value, ctx) => {
    const parsed = parseTemplate(value, true);
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: `The prompt template has a malformed placeholder: ${parsed.message}`, params: { code: 'invalid_template' } });
    } else if (!usesPayload(parsed.value)) {
      ctx.addIssue({ code: 'custom', message: `The prompt template must include ${payloadPlaceholder} or a field of it such as {{payload.action}}`, params: { code: 'missing_payload_placeholder' } });
    } else {
      const problem = unknownPlaceholderProblem(value, 'webhook');
      if (problem) ctx.addIssue({ code: 'custom', message: problem, params: { code: 'unknown_placeholder' } });
    }
  })
  .describe('{{payload}}: the body as received; {{payload.a.b[0]}}: one field of a JSON or form body; {{headers.name}}, {{query.name}}');

export const IdempotencyKeyTemplate = z
  .string()
  .min(1, 'must not be empty')
  .max(1_000)
  .superRefine((value, ctx) => {
    const parsed = parseTemplate(value, true);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: `The idempotency key has a malformed placeholder: ${parsed.message}`, params: { code: 'invalid_template' } });
    else if (parsed.value.some((part) => part.kind === 'payload')) ctx.addIssue({ code: 'custom', message: 'must name fields or headers, not the whole {{payload}}' });
    else {
      const problem = unknownPlaceholderProblem(value, 'webhook');
      if (problem) ctx.addIssue({ code: 'custom', message: problem, params: { code: 'unknown_placeholder' } });
    }
  })
  .nullable()
  .describe('Where a request\'s idempotency key comes from, e.g. {{headers.x-github-delivery}} or {{payload.id}}; null: the Idempotency-Key (or X-GitHub-Delivery) header');

const Subject = z.string().min(1, 'must not be empty').max(500);
const Expected = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const FilterCondition = z
  .strictObject({
    header: Subject.optional().describe('A request header, e.g. x-github-event'),
    payload: Subject.optional().describe('A field of the JSON (or form) body, e.g. workflow_run.conclusion'),
    query: Subject.optional().describe('A query parameter'),
    equals: Expected.optional().describe('Holds when the value, as text, is this'),
    in: z.array(Expected).min(1).max(100).optional().describe('Holds when the value, as text, is one of these'),
    exists: z.boolean().optional().describe('true: holds when the value is present; false: when it is missing'),
  })
  .superRefine((condition, ctx) => {
    const subjects = (['header', 'payload', 'query'] as const).filter((key) => condition[key] !== undefined);
    const tests = (['equals', 'in', 'exists'] as const).filter((key) => condition[key] !== undefined);
    if (subjects.length !== 1) ctx.addIssue({ code: 'custom', message: 'must name exactly one of header, payload or query' });
    if (tests.length !== 1) ctx.addIssue({ code: 'custom', message: 'must have exactly one of equals, in or exists' });
    const [subject] = subjects;
    if (subjects.length !== 1 || !subject) return;
    const name = condition[subject]!;
    const checked = subject === 'header' ? checkHeaderName(name) : subject === 'query' ? checkQueryName(name) : parsePath(name);
    if (!checked.ok) ctx.addIssue({ code: 'custom', message: checked.message, path: [subject] });
  });
export type FilterCondition = z.output<typeof FilterCondition>;

export const Filter = z
  .array(FilterCondition)
  .max(20, 'must have at most 20 conditions')
  .describe('Conditions that must all hold; a request that fails one is answered 200 {"skipped": true, "reason": ...} and starts no run');

export const senders = ['generic', 'github', 'stripe', 'slack'] as const;
export const Sender = z
  .enum(senders)
  .describe('Who sends: github, stripe and slack fill defaults at creation (signature scheme, limit, idempotency key, template); slack also answers url_verification');
export type Sender = z.infer<typeof Sender>;

export const FencePayload = z.boolean().describe('true: each inserted payload, field, header or query value is wrapped in a block marked as untrusted data from an outside sender');

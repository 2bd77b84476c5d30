// Approvals: a person in the loop. A run that waits before it starts (an automation's or webhook's
// `approval`), an agent that asks before an action (an instance's `permissions: ask`), and an
// agent's question (`ask_human`) are each an approval, decided in the app, over the API, or by a
// single-use link from a notification, or expired when nobody answers.
import { z } from 'zod';
import { Id, IdParams, NoInput, Timestamp, defineOperation } from './common';

export const approvalKinds = ['run', 'tool', 'question'] as const;
export const approvalStatuses = ['pending', 'allowed', 'denied', 'expired'] as const;
export const deciders = ['ui', 'api', 'link', 'timeout'] as const;
export type Decider = (typeof deciders)[number];

const Seconds = (fallback: number) => z.int().min(10).max(7 * 24 * 3600).default(fallback);

export const ApprovalPolicy = z
  .strictObject({
    mode: z.enum(['none', 'before-run']).describe('before-run: each run waits for a person to allow it before the agent starts'),
    timeoutSeconds: Seconds(3600).describe('Unanswered this long, the run is cancelled'),
  })
  .describe('Whether its runs wait for a person before they start');
export type ApprovalPolicy = z.infer<typeof ApprovalPolicy>;
export const noApproval: ApprovalPolicy = { mode: 'none', timeoutSeconds: 3600 };

export const Permissions = z
  .strictObject({
    mode: z.enum(['bypass', 'ask']).describe("bypass: the agent acts without asking (as a run always did); ask: it asks Steward before an action, and a person decides"),
    timeoutSeconds: Seconds(600).describe('Unanswered this long, the action is denied and the agent carries on'),
  })
  .describe("Whether the instance's agent asks before it acts");
export type Permissions = z.infer<typeof Permissions>;
export const bypassPermissions: Permissions = { mode: 'bypass', timeoutSeconds: 600 };

export const ApprovalDetail = z.object({
  text: z.string().describe('What is asked, in words'),
  command: z.string().optional(),
  path: z.string().optional(),
  diff: z.string().optional(),
  url: z.string().optional(),
  tool: z.string().optional().describe('The tool the agent wants to use'),
  input: z.unknown().optional().describe("The tool's input, as the agent gave it"),
  options: z.array(z.string()).optional().describe("A question's options"),
});
export type ApprovalDetail = z.infer<typeof ApprovalDetail>;

export const Approval = z.object({
  id: Id('apr'),
  runId: Id('run'),
  instanceId: Id('ins'),
  kind: z.enum(approvalKinds),
  title: z.string(),
  detail: ApprovalDetail,
  status: z.enum(approvalStatuses),
  decidedBy: z.enum(deciders).nullable(),
  answer: z.string().nullable().describe("A question's answer"),
  note: z.string().nullable().describe("The person's note with the decision; the agent is told it"),
  createdAt: Timestamp,
  expiresAt: Timestamp,
  decidedAt: Timestamp.nullable(),
  links: z
    .object({ allow: z.string(), deny: z.string() })
    .optional()
    .describe('While pending, for admin callers: its single-use decision URLs (a GET shows a page, a POST decides)'),
});
export type Approval = z.infer<typeof Approval>;

export const ApprovalListQuery = z.strictObject({
  status: z.enum(['pending', 'decided']).optional(),
  runId: z.string().min(1).optional(),
  instanceId: z.string().min(1).optional(),
  before: z.string().min(1).optional().describe('An approval id: only older ones; pass the last of a page to page on'),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});

export const Decision = z.strictObject({
  decision: z.enum(['allow', 'deny']),
  answer: z.string().max(10_000).optional().describe("A question's answer (allow only)"),
  note: z.string().max(2_000).optional(),
});
export type Decision = z.infer<typeof Decision>;

export const Question = z.strictObject({
  question: z.string().min(1).max(10_000),
  options: z.array(z.string().min(1).max(500)).max(20).optional().describe('Answers to choose from; the person may still write another'),
  timeoutSeconds: z.int().min(10).max(24 * 3600).optional().describe('Default: the instance\'s permissions timeout (600 s)'),
});

export const PermissionRequest = z
  .object({
    tool_name: z.string().min(1),
    input: z.record(z.string(), z.unknown()).default({}),
    tool_use_id: z.string().optional(),
  })
  .describe("Claude Code's --permission-prompt-tool call");

const ApprovalEnvelope = z.object({ approval: Approval });

export const approvalOperations = {
  'approvals.list': defineOperation({
    name: 'approvals.list', method: 'GET', path: '/api/approvals', summary: 'List approvals, newest first',
    auth: true, runKey: 'own', status: 200, params: NoInput, query: ApprovalListQuery, body: z.undefined(), output: z.object({ approvals: z.array(Approval) }),
  }),
  'approvals.get': defineOperation({
    name: 'approvals.get', method: 'GET', path: '/api/approvals/{id}', summary: 'Get an approval',
    auth: true, runKey: 'own', status: 200, params: IdParams, query: z.object({}), body: z.undefined(), output: ApprovalEnvelope,
  }),
  'approvals.decide': defineOperation({
    name: 'approvals.decide', method: 'POST', path: '/api/approvals/{id}/decision', summary: 'Allow or deny a pending approval (answer a question)',
    auth: true, status: 200, params: IdParams, query: z.object({}), body: Decision, output: ApprovalEnvelope,
  }),
  'approvals.ask': defineOperation({
    name: 'approvals.ask', method: 'POST', path: '/api/approvals/questions', summary: "Ask a person a question from a run, and wait for the answer (a run's key only)",
    auth: true, runKey: 'self', scope: 'runs', status: 200, params: NoInput, query: z.object({}), body: Question,
    output: z.object({ answer: z.string(), approval: Approval }),
  }),
  'approvals.permission': defineOperation({
    name: 'approvals.permission', method: 'POST', path: '/api/approvals/permissions', summary: "Ask a person whether the run's agent may use a tool, and wait (Claude Code's permission prompt tool; a run's key only)",
    auth: true, runKey: 'self', scope: 'runs', status: 200, params: NoInput, query: z.object({}), body: PermissionRequest,
    output: z.union([
      z.object({ behavior: z.literal('allow'), updatedInput: z.record(z.string(), z.unknown()) }),
      z.object({ behavior: z.literal('deny'), message: z.string() }),
    ]),
  }),
};

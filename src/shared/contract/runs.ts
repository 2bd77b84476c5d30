// Runs (one execution of one prompt on one instance) and threads (the chat history they land in):
// a run's own messages, why a queued run waits, the chats of an instance.
import { z } from 'zod';
import { Id, IdParams, NoInput, NoQuery, Timestamp, defineOperation } from './common';
import { ErrorClass } from './retries';

export const runStatuses = ['queued', 'waiting', 'running', 'succeeded', 'failed', 'cancelled', 'timed_out', 'interrupted'] as const;
export const RunStatus = z.enum(runStatuses);
/** How a run can end: once in one of these, its status never changes again (src/shared/run-states.ts). */
export const endedRunStatuses = ['succeeded', 'failed', 'cancelled', 'timed_out', 'interrupted'] as const;
export type RunStatus = z.infer<typeof RunStatus>;

export const runSources = ['automation', 'webhook', 'chat', 'api'] as const;
export const RunSource = z.enum(runSources);
export type RunSource = z.infer<typeof RunSource>;

export const memoryModes = ['fresh', 'continue'] as const;
export const Memory = z
  .enum(memoryModes)
  .describe('"fresh": each run starts a new conversation with the agent; "continue": each run resumes the last one');
export type Memory = z.infer<typeof Memory>;

export const outcomes = ['nothing_to_report', 'done', 'needs_attention'] as const;
export const Outcome = z
  .enum(outcomes)
  .describe("What the agent said came of its run (Steward's report_outcome tool): nothing_to_report, done, needs_attention");
export type Outcome = z.infer<typeof Outcome>;

export const Run = z.object({
  id: Id('run'),
  instanceId: Id('ins'),
  threadId: Id('thr'),
  source: RunSource,
  sourceId: z.string().nullable(),
  status: RunStatus,
  prompt: z.string().describe('The exact text the agent received'),
  scheduledFor: Timestamp.nullable().describe('For a scheduled fire: the time it was due (a late run was due earlier than it was created)'),
  createdAt: Timestamp,
  startedAt: Timestamp.nullable(),
  finishedAt: Timestamp.nullable(),
  error: z.string().nullable(),
  stderr: z.string().nullable().describe("The end of what the agent wrote to stderr (at most 64 KiB), once it finished"),
  sessionId: z.string().nullable().describe("The agent's own session this run used (a CLI's session id), once the agent named it"),
  resumedSessionId: z.string().nullable().describe('The session this run resumed to continue its thread; null when it started fresh'),
  // Optional in the type only, so Run literals written before it stay valid; the API always sends it.
  replayOf: z.string().nullable().optional().describe('For a replayed webhook delivery: the delivery it replays; null otherwise'),
  parentRunId: z.string().nullable().optional().describe("The run whose agent started this one (through Steward's tools, or an automation or webhook it made); null otherwise"),
  depth: z.int().min(0).optional().describe('How many runs started it in a chain: 0 for a run no agent started'),
  errorClass: ErrorClass.nullable().optional().describe('For a failed run: why, as read from the agent\'s stream and stderr; null otherwise'),
  retryOf: z.string().nullable().optional().describe('For a retry: the failed run it repeats; null otherwise'),
  startAfter: Timestamp.nullable().optional().describe('A queued run (a retry) does not start before this time; null: as soon as it can'),
  outcome: Outcome.nullable().optional().describe('What the agent reported came of it; null when it reported nothing'),
  summary: z.string().nullable().optional().describe('The agent\'s one-line summary with its outcome'),
  costUsd: z.number().nullable().optional().describe('What the agent reported the run cost, in US dollars; null when it reports no cost'),
  inputTokens: z.int().nullable().optional().describe('Tokens the model read, as the agent reported them'),
  outputTokens: z.int().nullable().optional().describe('Tokens the model wrote, as the agent reported them'),
});
export type Run = z.infer<typeof Run>;

export const messageRoles = ['user', 'assistant', 'tool', 'system'] as const;

export const Message = z.object({
  seq: z.int().describe('Position in the thread; pass as `after` to page on'),
  runId: z.string().nullable(),
  role: z.enum(messageRoles),
  content: z.string(),
  createdAt: Timestamp,
});
export type Message = z.infer<typeof Message>;

export const Thread = z.object({
  id: Id('thr'),
  ownerType: z.enum(['automation', 'webhook', 'chat']),
  ownerId: z.string().nullable(),
  createdAt: Timestamp,
  messages: z.array(Message),
  hasMore: z.boolean(),
});
export type Thread = z.infer<typeof Thread>;

export const ThreadSummary = z.object({
  id: Id('thr'),
  ownerType: z.enum(['automation', 'webhook', 'chat']),
  ownerId: z.string().nullable().describe('The automation, the webhook, or (for a chat) the instance'),
  createdAt: Timestamp,
  firstPrompt: z.string().nullable().describe('The prompt of its first run; null before any'),
  lastActivityAt: Timestamp.describe('Its newest message or run, or its creation'),
  runCount: z.int(),
  lastRunStatus: RunStatus.nullable(),
});
export type ThreadSummary = z.infer<typeof ThreadSummary>;

export const queueReasons = ['retry_wait', 'instance_stopped', 'instance_provisioning', 'instance_busy', 'behind_others', 'runner_full', 'starting'] as const;

export const RunQueue = z
  .object({
    position: z.int().min(1).describe("Its place among its instance's queued runs; 1 starts next"),
    reason: z.enum(queueReasons),
    message: z.string().describe('Why it waits, in words'),
    blockingRunId: z.string().nullable().describe('The run its instance is running meanwhile'),
  })
  .describe('For a queued run: why it waits; null for any other');
export type RunQueue = z.infer<typeof RunQueue>;

const Limit = (max: number, fallback: number) => z.coerce.number().int().min(1).max(max).default(fallback);

export const RunListQuery = z.strictObject({
  source: RunSource.optional(),
  sourceId: z.string().optional(),
  status: RunStatus.optional(),
  instanceId: z.string().min(1).optional().describe('Runs on this instance'),
  before: z.string().min(1).optional().describe('A run id: only runs older than it; pass the last run of a page to page on'),
  limit: Limit(500, 50),
});

export const ThreadQuery = z.strictObject({
  after: z.coerce.number().int().min(0).default(0),
  limit: Limit(1000, 200),
});

export const ThreadListQuery = z.strictObject({
  instanceId: z.string().min(1).optional().describe("Threads with a run on this instance, or (chats) owned by it"),
  ownerType: z.enum(['automation', 'webhook', 'chat']).optional(),
  limit: Limit(500, 50),
});

export const NewRun = z.strictObject({
  instanceId: z.string().min(1),
  prompt: z.string().min(1, 'must not be empty').max(100_000, 'must be at most 100,000 characters'),
  threadId: z.string().min(1).optional().describe('A chat thread to continue; a new one by default'),
  source: z
    .enum(['chat', 'api'])
    .optional()
    .describe('Where the prompt was written: "chat" for a person in Steward\'s Chat (the app sends it), "api" (the default) for any other caller; an agent\'s prompt is always "api"'),
});
export type NewRun = z.infer<typeof NewRun>;

const RunEnvelope = z.object({ run: Run });

export const runOperations = {
  'runs.list': defineOperation({
    name: 'runs.list', method: 'GET', path: '/api/runs', summary: 'List runs, newest first',
    auth: true, runKey: 'own', status: 200, params: NoInput, query: RunListQuery, body: z.undefined(),
    output: z.object({ runs: z.array(Run) }),
  }),
  'runs.create': defineOperation({
    name: 'runs.create', method: 'POST', path: '/api/runs', summary: 'Send a prompt to an instance: a run, queued now',
    auth: true, runKey: 'prompts', scope: 'runs', status: 202, params: NoInput, query: NoQuery, body: NewRun, output: RunEnvelope,
  }),
  'runs.get': defineOperation({
    name: 'runs.get', method: 'GET', path: '/api/runs/{id}', summary: 'Get a run, and for a queued one why it waits',
    auth: true, runKey: 'prompts', status: 200, params: IdParams, query: NoQuery, body: z.undefined(),
    output: z.object({ run: Run, queue: RunQueue.nullable() }),
  }),
  'runs.messages': defineOperation({
    name: 'runs.messages', method: 'GET', path: '/api/runs/{id}/messages', summary: "A page of one run's messages (its part of the thread)",
    auth: true, runKey: 'prompts', status: 200, params: IdParams, query: ThreadQuery, body: z.undefined(),
    output: z.object({ messages: z.array(Message), hasMore: z.boolean() }),
  }),
  'runs.cancel': defineOperation({
    name: 'runs.cancel', method: 'POST', path: '/api/runs/{id}/cancel', summary: 'Cancel a queued run, or stop a running one with everything its agent started',
    auth: true, runKey: 'prompts', scope: 'runs', status: 202, params: IdParams, query: NoQuery, body: NoInput, output: RunEnvelope,
  }),
  'threads.list': defineOperation({
    name: 'threads.list', method: 'GET', path: '/api/threads', summary: 'List threads, the most recently active first: the chats of an instance with ?instanceId=&ownerType=chat',
    auth: true, runKey: 'own', status: 200, params: NoInput, query: ThreadListQuery, body: z.undefined(),
    output: z.object({ threads: z.array(ThreadSummary) }),
  }),
  'threads.get': defineOperation({
    name: 'threads.get', method: 'GET', path: '/api/threads/{id}', summary: 'Get a thread with a page of its messages',
    auth: true, runKey: 'own', status: 200, params: IdParams, query: ThreadQuery, body: z.undefined(),
    output: z.object({ thread: Thread }),
  }),
};

// Why a run failed, as the runner read it from the agent's own stream and stderr, and the retry
// policy of automations and webhooks that acts on it.
import { z } from 'zod';

export const errorClasses = ['rate_limit', 'overloaded', 'network', 'timeout', 'auth', 'usage_limit', 'agent_error'] as const;
export const ErrorClass = z
  .enum(errorClasses)
  .describe('rate_limit: HTTP 429; overloaded: HTTP 529/503; network: no connection; timeout: no answer in time (or the run timed out); auth: the key or login was refused; usage_limit: the plan\'s quota is spent (with its reset time when the CLI says one); agent_error: anything else');
export type ErrorClass = z.infer<typeof ErrorClass>;

/** Waiting does not fix a refused key or the agent's own mistake. */
export const neverRetried: readonly ErrorClass[] = ['auth', 'agent_error'];
export const defaultRetryOn: ErrorClass[] = ['rate_limit', 'overloaded', 'network', 'timeout'];

export const RetryPolicy = z
  .strictObject({
    attempts: z.int().min(0).max(5).describe('Retries after the first run; 0: none'),
    backoffSeconds: z.int().min(1).max(86_400).default(30).describe('The first wait; each next one doubles, with jitter'),
    on: z
      .array(ErrorClass)
      .max(errorClasses.length)
      .default(defaultRetryOn)
      .superRefine((classes, ctx) => {
        const never = classes.filter((each) => neverRetried.includes(each));
        if (never.length > 0) {
          ctx.addIssue({
            code: 'custom',
            message: `${never.join(' and ')} ${never.length === 1 ? 'is' : 'are'} never retried: a refused key or login and the agent's own error fail the same way again, however long it waits`,
            params: { code: 'not_retryable' },
          });
        }
      })
      .describe('The failures that are retried; a usage_limit with a reset time is retried once, at that time'),
  })
  .describe('Retries of a failed run: a new run in the same thread after exponential backoff with jitter');
export type RetryPolicy = z.infer<typeof RetryPolicy>;

export const noRetry: RetryPolicy = { attempts: 0, backoffSeconds: 30, on: defaultRetryOn };

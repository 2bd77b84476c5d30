// What the Retry and Budget sections hold while one types (text, as typed) and what they send (the
// contract's RetryPolicy and Budget), each field's problem in words, and the words for error classes.
import { Budget, type ErrorClass, RetryPolicy, errorClasses, neverRetried } from '../../../../shared/contract';

export const errorClassWords: Record<ErrorClass, string> = {
  rate_limit: 'Rate limited (HTTP 429)',
  overloaded: 'Service overloaded (HTTP 529 or 503)',
  network: 'Network failure',
  timeout: 'Timed out',
  usage_limit: "The plan's usage limit reached",
  auth: 'Key or login refused',
  agent_error: "The agent's own error",
};

/** The classes a person may tick, in the contract's order. */
export const retryableClasses = errorClasses.filter((each) => !neverRetried.includes(each));

export interface RetryDraft {
  attempts: string;
  backoffSeconds: string;
  on: ErrorClass[];
}

export type Problems<K extends string> = Partial<Record<K, string>>;

export const retryDraftOf = (policy: RetryPolicy): RetryDraft => ({ attempts: String(policy.attempts), backoffSeconds: String(policy.backoffSeconds), on: [...policy.on] });

/** A whole number typed in a field, or undefined when it is not one. */
function wholeNumber(text: string): number | undefined {
  const trimmed = text.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : undefined;
}

export function retryToSave(draft: RetryDraft): { ok: true; retry: RetryPolicy } | { ok: false; problems: Problems<keyof RetryDraft> } {
  const attempts = wholeNumber(draft.attempts);
  const backoffSeconds = wholeNumber(draft.backoffSeconds);
  const problems: Problems<keyof RetryDraft> = {};
  if (attempts === undefined || attempts > 5) problems.attempts = 'Retries must be a whole number from 0 to 5.';
  if (backoffSeconds === undefined || backoffSeconds < 1 || backoffSeconds > 86_400) problems.backoffSeconds = 'The first wait must be a whole number of seconds from 1 to 86400 (a day).';
  if (attempts !== undefined && attempts > 0 && draft.on.length === 0) problems.on = 'Tick at least one kind of failure to retry, or set retries to 0.';
  if (Object.keys(problems).length > 0) return { ok: false, problems };
  const parsed = RetryPolicy.safeParse({ attempts, backoffSeconds, on: retryableClasses.filter((each) => draft.on.includes(each)) });
  if (!parsed.success) return { ok: false, problems: { on: parsed.error.issues[0]?.message ?? 'The retry policy is not valid.' } };
  return { ok: true, retry: parsed.data };
}

export const budgetFields = ['usdPerDay', 'usdPerMonth', 'tokensPerDay', 'usdPerRun'] as const;
export type BudgetField = (typeof budgetFields)[number];
export type BudgetDraft = Record<BudgetField, string>;

export const budgetDraftOf = (budget: Budget): BudgetDraft =>
  Object.fromEntries(budgetFields.map((field) => [field, budget[field] === undefined ? '' : String(budget[field])])) as BudgetDraft;

/** The budget to send (an empty field is no limit), or each field's problem. */
export function budgetToSave(draft: BudgetDraft): { ok: true; budget: Budget } | { ok: false; problems: Problems<BudgetField> } {
  const budget: Record<string, number> = {};
  const problems: Problems<BudgetField> = {};
  for (const field of budgetFields) {
    const text = draft[field].trim();
    if (text === '') continue;
    if (field === 'tokensPerDay') {
      const tokens = wholeNumber(text);
      if (tokens === undefined || tokens < 1) problems[field] = 'Tokens must be a whole number above 0, or empty for no limit.';
      else budget[field] = tokens;
      continue;
    }
    const usd = /^\d*\.?\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!(usd > 0) || usd > 1_000_000) problems[field] = 'A dollar amount above 0 (such as 2.50), or empty for no limit.';
    else budget[field] = usd;
  }
  if (Object.keys(problems).length > 0) return { ok: false, problems };
  const parsed = Budget.safeParse(budget);
  return parsed.success ? { ok: true, budget: parsed.data } : { ok: false, problems: { usdPerDay: parsed.error.issues[0]?.message ?? 'The budget is not valid.' } };
}

/** "$0.12", "$3.60", "$0.0042" for sums under a cent. */
export function formatUsd(usd: number): string {
  return usd > 0 && usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

export const formatTokens = (tokens: number) => `${Math.round(tokens).toLocaleString('en-US')} tokens`;

// Why a run failed, in one of a few classes a retry policy can act on: the hint the agent's own
// stream gave (a preset's parser reads it where the CLI says why), else what the failure text and
// stderr say, read by the patterns below (taken from the real CLIs' recordings in
// test/fixtures/<preset>/errors).
import type { ErrorClass } from '../../../shared/contract';

export interface ErrorHint {
  errorClass: ErrorClass;
  /** When a usage limit resets, as the CLI said it (ISO 8601). */
  resetsAt?: string | undefined;
}

/** First match wins: a usage limit comes as a 429 too, and a refused key names no rate. */
const patterns: [ErrorClass, RegExp][] = [
  ['usage_limit', /usage limit|usage_limit|quota exceeded|exceeded your (current )?quota|hit your .*limit/i],
  ['auth', /\b(401|403)\b|invalid.{0,10}api.?key|authentication|unauthori[sz]ed|not logged in|please (run )?\/?login/i],
  ['rate_limit', /\b429\b|rate.?limit|too many requests|resource.?exhausted|resource has been exhausted/i],
  ['overloaded', /\b(529|503)\b|overloaded|service unavailable|high demand/i],
  ['network', /ECONNREFUSED|ENOTFOUND|ECONNRESET|EAI_AGAIN|fetch failed|socket hang up|connection (dropped|refused|reset|error)|stream disconnected|error sending request|could not connect|cannot connect|unable to connect/i],
  ['timeout', /ETIMEDOUT|timed out|\btimeout\b/i],
];

/** An HTTP status's class, when it has one. */
export function classOfStatus(status: unknown): ErrorClass | undefined {
  if (status === 429) return 'rate_limit';
  if (status === 529 || status === 503) return 'overloaded';
  if (status === 401 || status === 403) return 'auth';
  return undefined;
}

/** A parser's hint from an error message its CLI wrote: none when the message names no class. */
export function hintOf(message: string): ErrorHint | undefined {
  const errorClass = classifyText(message);
  if (errorClass === 'agent_error') return undefined;
  return errorClass === 'usage_limit' ? { errorClass, resetsAt: resetTimeIn(message) } : { errorClass };
}

/** The class the text names, or agent_error when it names none. */
export function classifyText(text: string): ErrorClass {
  return patterns.find(([, pattern]) => pattern.test(text))?.[0] ?? 'agent_error';
}

const months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * A usage limit's reset time in the words a CLI says it: Codex's "try again at Nov 23rd, 2026
 * 1:20 PM" (in the local time of the machine both run on). Undefined when the text says none.
 */
export function resetTimeIn(text: string): string | undefined {
  const at = /try again at (\w{3})\w* (\d{1,2})\w*,? (\d{4}),? (\d{1,2}):(\d{2}) ?(AM|PM)?/i.exec(text);
  if (!at) return undefined;
  const [, month = '', day, year, hour, minute, half] = at;
  const monthIndex = months.indexOf(month.toLowerCase());
  if (monthIndex === -1) return undefined;
  // 12 AM is midnight, 12 PM noon; without AM or PM the hour is on the 24-hour clock.
  const hours = half ? (Number(hour) % 12) + (half.toUpperCase() === 'PM' ? 12 : 0) : Number(hour);
  const date = new Date(Number(year), monthIndex, Number(day), hours, Number(minute));
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/**
 * A failed or timed-out run's class: a timeout is one whatever the agent said; else the agent's
 * hint; else the failure text and stderr.
 */
export function classifyFailure(failure: { timedOut: boolean; hint?: ErrorHint | undefined; error: string | null; stderr: string | null }): ErrorHint {
  if (failure.timedOut) return { errorClass: 'timeout' };
  if (failure.hint) return failure.hint;
  return hintOf([failure.error, failure.stderr].filter(Boolean).join('\n')) ?? { errorClass: 'agent_error' };
}

// An automation's (or webhook's) retry policy and budget in one short line each, as its card shows them.
import type { Budget, RetryPolicy } from '../../../../shared/contract';
import { errorClassWords, formatTokens, formatUsd } from './drafts';

/** 45 s, 5 min, 2 h 30 min, 1 day. */
export function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3_600) return seconds % 60 === 0 ? `${seconds / 60} min` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  if (seconds < 86_400) return seconds % 3_600 === 0 ? `${seconds / 3_600} h` : `${Math.floor(seconds / 3_600)} h ${Math.round((seconds % 3_600) / 60)} min`;
  return seconds === 86_400 ? '1 day' : `${Math.round(seconds / 3_600)} h`;
}

/** "No retries", or "up to 2 retries, the first after 30 s, when: rate limited (HTTP 429), network failure". */
export function retryWords(retry: RetryPolicy): string {
  if (retry.attempts === 0 || retry.on.length === 0) return 'No retries';
  const times = retry.attempts === 1 ? '1 retry' : `up to ${retry.attempts} retries`;
  return `${times.charAt(0).toUpperCase()}${times.slice(1)}, the first after ${formatSeconds(retry.backoffSeconds)}, on: ${retry.on.map((each) => errorClassWords[each].toLowerCase()).join(', ')}`;
}

/** "No budget", or "$1.00 a day · 500,000 tokens a day · $0.50 a run". */
export function budgetWords(budget: Budget): string {
  const limits = [
    budget.usdPerDay !== undefined && `${formatUsd(budget.usdPerDay)} a day`,
    budget.usdPerMonth !== undefined && `${formatUsd(budget.usdPerMonth)} a month`,
    budget.tokensPerDay !== undefined && `${formatTokens(budget.tokensPerDay)} a day`,
    budget.usdPerRun !== undefined && `${formatUsd(budget.usdPerRun)} a run`,
  ].filter((each): each is string => typeof each === 'string');
  return limits.length === 0 ? 'No budget' : limits.join(' · ');
}

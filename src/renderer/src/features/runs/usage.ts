// Tokens and cost of a run, as its agent reported them: the presets end a run with a system line
// such as "Claude Code finished — 1,234 tokens in, 567 out, $0.0123, 2 turns" (agents/presets/common.ts
// describeUsage); the last such line of the run's messages is read back here.
import type { Message } from '../../../../shared/contract';

export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  costUsd?: number;
  turns?: number;
}

const number = (text: string | undefined) => (text === undefined ? undefined : Number(text.replace(/,/g, '')));

/** The figures of one line; undefined when it has none. */
export function parseUsage(text: string): Usage | undefined {
  const figures = /(?:—|finished|failed)[^\n]*?((?:[\d,]+ tokens|\$\d)[^\n]*)$/.exec(text)?.[1];
  if (!figures) return undefined;
  const usage: Usage = {
    inputTokens: number(/([\d,]+) tokens in/.exec(figures)?.[1]),
    outputTokens: number(/([\d,]+) out\b/.exec(figures)?.[1]),
    totalTokens: number(/([\d,]+) tokens(?! in)/.exec(figures)?.[1]),
    costUsd: number(/\$(\d+(?:\.\d+)?)/.exec(figures)?.[1]),
    turns: number(/(\d+) turns?\b/.exec(figures)?.[1]),
  };
  const known = Object.fromEntries(Object.entries(usage).filter(([, value]) => value !== undefined && !Number.isNaN(value))) as Usage;
  return Object.keys(known).length > 0 ? known : undefined;
}

/** The usage the run's agent reported last, if any. */
export function usageOf(messages: Message[]): Usage | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message.role !== 'system') continue;
    const usage = parseUsage(message.content);
    if (usage) return usage;
  }
  return undefined;
}

/** "1,234 in · 567 out tokens · $0.0123" */
export function formatUsage(usage: Usage): { tokens?: string; cost?: string } {
  const count = (value: number) => value.toLocaleString('en-US');
  const tokens =
    usage.inputTokens !== undefined || usage.outputTokens !== undefined
      ? [usage.inputTokens !== undefined && `${count(usage.inputTokens)} in`, usage.outputTokens !== undefined && `${count(usage.outputTokens)} out`].filter(Boolean).join(' · ')
      : usage.totalTokens !== undefined
        ? `${count(usage.totalTokens)} total`
        : undefined;
  return { tokens, cost: usage.costUsd !== undefined ? `$${usage.costUsd.toFixed(4)}` : undefined };
}

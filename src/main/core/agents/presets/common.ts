// What a CLI preset is, and small readers shared by the stream parsers.
import type { AgentEvent } from '../events';

export interface Preset {
  /** The executable, unless the agent config names another. */
  command: string;
  /** The non-interactive flags, before any the config adds. */
  args: () => string[];
  /** How the prompt reaches the CLI. */
  prompt: 'stdin';
  /** One parsed JSON line of the CLI's event stream into events. */
  parse: (raw: Record<string, unknown>) => AgentEvent[];
}

export const asRecord = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

export const text = (value: unknown): string => (typeof value === 'string' ? value : '');

export const blocks = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.map(asRecord) : []);

/** "1,234 tokens in, 567 out, $0.0123, 3 turns" from whatever of these a CLI reports. */
export function describeUsage(figures: { costUsd?: unknown; usage?: unknown; turns?: unknown }): string {
  const usage = asRecord(figures.usage);
  const parts: string[] = [];
  const input = usage.input_tokens;
  const output = usage.output_tokens;
  if (typeof input === 'number') parts.push(`${input.toLocaleString('en-US')} tokens in`);
  if (typeof output === 'number') parts.push(`${output.toLocaleString('en-US')} out`);
  if (typeof figures.costUsd === 'number') parts.push(`$${figures.costUsd.toFixed(4)}`);
  if (typeof figures.turns === 'number') parts.push(`${figures.turns} turns`);
  return parts.join(', ');
}

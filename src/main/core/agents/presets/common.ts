// What a CLI preset is, and small readers shared by the stream parsers.
import type { AgentEvent } from '../events';
import type { StewardServer } from '../steward-server';

/** Reads one run's event stream, line by line; `end` gives what was still held back. */
export interface StreamParser {
  line(raw: Record<string, unknown>): AgentEvent[];
  end(): AgentEvent[];
}

export interface Preset {
  /** The executable, unless the agent config names another. */
  command: string;
  /** The non-interactive flags, before any the config adds. The prompt goes to stdin. */
  args: string[];
  /** Environment that keeps the CLI from asking for approval; the instance's own env wins. */
  env?: Record<string, string>;
  /** A parser for one run; it emits a `session` event when the stream names the CLI's session. */
  parser: () => StreamParser;
  /**
   * The command line that resumes the CLI's session `sessionId`, from the one that starts fresh
   * (the preset's args followed by the config's). Absent: the CLI cannot resume, runs start fresh.
   */
  resume?: (args: string[], sessionId: string) => string[];
  /**
   * The command line and the environment variables that give the CLI Steward's MCP server, in the
   * CLI's own configuration form, from the command line and the whole environment it would have
   * without it (the user's own configuration is kept). `stateHome`: in a sandbox, the instance's
   * own CLI state (its HOME there), where a CLI's configuration is the instance's, not the user's.
   * Absent: the CLI gets only the variables.
   */
  withSteward?: (args: string[], server: StewardServer, env: NodeJS.ProcessEnv, stateHome?: string) => { args: string[]; env: Record<string, string> };
  /** The command line with the CLI's own spending cap in US dollars. Absent: the CLI has none (Steward's own check still applies). */
  withBudget?: (args: string[], usd: number) => string[];
  /** The command line that makes the CLI ask Steward's MCP server before it acts (permissions: ask), from the one that lets it act. Absent: it cannot ask. */
  asking?: (args: string[]) => string[];
}

/** A parser for streams whose lines stand alone. */
export const stateless = (parse: (raw: Record<string, unknown>) => AgentEvent[]) => (): StreamParser => ({ line: parse, end: () => [] });

/**
 * Text some CLIs stream in pieces (Gemini's deltas, goose's chunks) becomes one assistant
 * message: pieces are held until something else happens or the stream ends.
 */
export function textJoiner() {
  let pieces: string[] = [];
  let raws: unknown[] = [];
  return {
    add(piece: string, raw: unknown): void {
      pieces.push(piece);
      raws.push(raw);
    },
    flush(): AgentEvent[] {
      const joined = pieces.join('');
      const held = raws;
      pieces = [];
      raws = [];
      return joined.trim() ? [{ type: 'assistant', text: joined, raw: held.length === 1 ? held[0] : { chunks: held } }] : [];
    },
  };
}

export const asRecord = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** A JSON object from text, or {} when it is none. */
export function parseObject(json: string | undefined): Record<string, unknown> {
  try {
    return asRecord(JSON.parse(json ?? '{}'));
  } catch {
    return {};
  }
}

export const text = (value: unknown): string => (typeof value === 'string' ? value : '');

export const blocks = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.map(asRecord) : []);

/** The text of MCP-style content blocks ([{type: 'text', text}]) or a plain string. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return blocks(content)
    .map((block) => text(block.text))
    .filter(Boolean)
    .join('\n');
}

const finite = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** A usage event of the figures a stream reported (totals of the run so far); none when it reported none. */
export function usageEvent(figures: { costUsd?: unknown; inputTokens?: unknown; outputTokens?: unknown }, raw: unknown): AgentEvent[] {
  const [costUsd, inputTokens, outputTokens] = [finite(figures.costUsd), finite(figures.inputTokens), finite(figures.outputTokens)];
  if (costUsd === undefined && inputTokens === undefined && outputTokens === undefined) return [];
  return [{ type: 'usage', ...(costUsd === undefined ? {} : { costUsd }), ...(inputTokens === undefined ? {} : { inputTokens }), ...(outputTokens === undefined ? {} : { outputTokens }), raw }];
}

/** "1,234 tokens in, 567 out, $0.0123, 3 turns" from whatever of these a CLI reports. */
export function describeUsage(figures: { costUsd?: unknown; inputTokens?: unknown; outputTokens?: unknown; totalTokens?: unknown; turns?: unknown }): string {
  const parts: string[] = [];
  const count = (value: number) => value.toLocaleString('en-US');
  if (typeof figures.inputTokens === 'number') parts.push(`${count(figures.inputTokens)} tokens in`);
  if (typeof figures.outputTokens === 'number') parts.push(`${count(figures.outputTokens)} out`);
  if (typeof figures.totalTokens === 'number' && parts.length === 0) parts.push(`${count(figures.totalTokens)} tokens`);
  if (typeof figures.costUsd === 'number') parts.push(`$${figures.costUsd.toFixed(4)}`);
  if (typeof figures.turns === 'number') parts.push(`${figures.turns} ${figures.turns === 1 ? 'turn' : 'turns'}`);
  return parts.join(', ');
}

/** "<name> finished — <figures>" or without the figures. */
export const finished = (name: string, figures: string): string => (figures ? `${name} finished — ${figures}` : `${name} finished`);

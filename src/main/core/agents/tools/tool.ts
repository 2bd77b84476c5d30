// What a built-in agent tool is: a name, a description and JSON Schema parameters the model sees,
// and what running it does. A tool that throws gives the model the message as an error result.
import type { SandboxRun } from '../../sandbox/sandbox-run';

export interface ToolContext {
  workspaceDir: string;
  /** The environment its commands start with (agent-environment.ts), never Steward's own. */
  env: Record<string, string>;
  /** Aborted when the run is cancelled or times out. */
  signal: AbortSignal;
  /** The run's sandbox: commands run inside it and requests go only where it lets them. */
  sandbox?: SandboxRun | undefined;
}

export interface Tool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  run(args: Record<string, unknown>, context: ToolContext): Promise<string>;
  /** It acts (runs commands, writes files, sends requests): under `permissions: ask` a person allows each call first. */
  acts?: boolean;
}

/** A mistake in how the model called a tool: it is told and may try again. */
export class ToolError extends Error {}

/** Keeps the start and the end of long output: the end of a log is usually what matters. */
export function capText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const half = Math.floor(maxChars / 2);
  return `${text.slice(0, half)}\n… [${text.length - maxChars} characters cut] …\n${text.slice(-half)}`;
}

export function stringArg(args: Record<string, unknown>, name: string, fallback?: string): string {
  const value = args[name] ?? fallback;
  if (typeof value !== 'string') throw new ToolError(`"${name}" must be a string.`);
  return value;
}

export function numberArg(args: Record<string, unknown>, name: string, fallback: number, min: number, max: number): number {
  const value = args[name] ?? fallback;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new ToolError(`"${name}" must be a number.`);
  return Math.min(max, Math.max(min, value));
}

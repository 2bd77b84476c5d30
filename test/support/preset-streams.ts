// A preset's stream parser on a recorded stream (test/fixtures/agents/*.jsonl), without a process:
// the events of each line, and the whole as the runner would record it.
import fs from 'node:fs';
import path from 'node:path';
import type { AgentEvent } from '../../src/main/core/agents/events';
import { type Preset, parseLine } from '../../src/main/core/agents/presets';

export const fixtures = path.resolve(import.meta.dirname, '../fixtures/agents');

export const fixtureLines = (fixture: string): string[] => fs.readFileSync(path.join(fixtures, fixture), 'utf8').split('\n').filter(Boolean);

/** The events of each line, line by line, and what `end` gave last. */
export function parseLines(preset: Preset, lines: string[]): AgentEvent[][] {
  const parser = preset.parser();
  return [...lines.map((line) => parseLine(parser, line)), parser.end()];
}

/** An event as the runner records it, without the raw line. */
export function shown(event: AgentEvent): string {
  switch (event.type) {
    case 'tool_call':
      return `call ${event.name} ${JSON.stringify(event.input)}`;
    case 'tool_result':
      return `${event.isError ? 'error' : 'result'} ${event.output}`;
    case 'session':
      return `session ${event.id}`;
    case 'usage':
      return `usage ${JSON.stringify({ costUsd: event.costUsd, inputTokens: event.inputTokens, outputTokens: event.outputTokens })}`;
    default:
      return `${event.type} ${event.text}`;
  }
}

/** Every event of a recorded stream that the runner records as a line (usage is not one), as `shown`. */
export const transcriptOf = (preset: Preset, fixture: string): string[] =>
  parseLines(preset, fixtureLines(fixture))
    .flat()
    .filter((event) => event.type !== 'usage')
    .map(shown);

/** The usage a recorded stream reports, report by report (each the run's totals so far). */
export const usageOf = (preset: Preset, fixture: string) =>
  parseLines(preset, fixtureLines(fixture))
    .flat()
    .flatMap((event) => (event.type === 'usage' ? [{ costUsd: event.costUsd, inputTokens: event.inputTokens, outputTokens: event.outputTokens }] : []));

// The CLI presets: each CLI's non-interactive command line and its event-stream parser.
import type { commandPresets } from '../../../../shared/contract';
import type { AgentEvent } from '../events';
import { claudeCode } from './claude-code';
import { codex } from './codex';
import type { Preset, StreamParser } from './common';
import { gemini } from './gemini';
import { goose } from './goose';
import { opencode } from './opencode';

export const presets: Record<Exclude<(typeof commandPresets)[number], 'custom'>, Preset> = {
  'claude-code': claudeCode,
  codex,
  gemini,
  goose,
  opencode,
};

/** Turns one stdout line of a preset's stream into events; a line that is not JSON is kept as a system line. */
export function parseLine(parser: StreamParser, line: string): AgentEvent[] {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return line.trim() ? [{ type: 'system', text: line, raw: { line } }] : [];
  }
  return raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? parser.line(raw as Record<string, unknown>) : [];
}

export type { Preset };

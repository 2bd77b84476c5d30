// The CLI presets wired up so far. gemini, goose and opencode are still to come.
import type { commandPresets } from '../../../../shared/contract';
import { claudeCode } from './claude-code';
import { codex } from './codex';
import type { Preset } from './common';

export const presets: Partial<Record<(typeof commandPresets)[number], Preset>> = {
  'claude-code': claudeCode,
  codex,
};

/** Turns one stdout line of a preset's stream into events; a line that is not JSON is kept as a system line. */
export function parseLine(preset: Preset, line: string): ReturnType<Preset['parse']> {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return line.trim() ? [{ type: 'system', text: line, raw: { line } }] : [];
  }
  return raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? preset.parse(raw as Record<string, unknown>) : [];
}

export type { Preset };

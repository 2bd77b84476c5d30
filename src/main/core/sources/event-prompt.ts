// An event in a prompt: {{event}} (the whole event as JSON) and {{event.a.b[0]}} (one field), each
// always fenced as untrusted data: a file's name, a commit message, a mail or a feed item is
// written by someone else, exactly as a webhook's payload is. An event is bounded: text fields are
// cut so that the whole stays within maxEventBytes, each cut said in place.
import { eventPlaceholder } from '../../../shared/placeholders';
import { fieldText, parsePath, valueAt } from '../../../shared/webhook-template';
import type { EventCondition } from '../../../shared/contract';
import { fence } from '../services/webhook-render';
import type { SourceEvent } from './source-kind';

/** The most an event's fields take as JSON, in bytes: a long mail's text is cut to fit. */
export const maxEventBytes = 65_536;

const sizeOf = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

/** The event's fields within maxEventBytes: the longest strings cut first, each cut marked. */
export function boundedFields(fields: Record<string, unknown>): Record<string, unknown> {
  let excess = sizeOf(fields) - maxEventBytes;
  if (excess <= 0) return fields;
  const bounded = structuredClone(fields);
  // The strings, longest first, each with where it lives.
  const strings: { holder: Record<string | number, unknown>; key: string | number; length: number }[] = [];
  const walk = (holder: Record<string | number, unknown>) => {
    for (const [key, value] of Object.entries(holder)) {
      const at = Array.isArray(holder) ? Number(key) : key;
      if (typeof value === 'string') strings.push({ holder, key: at, length: value.length });
      else if (value !== null && typeof value === 'object') walk(value as Record<string, unknown>);
    }
  };
  walk(bounded);
  strings.sort((a, b) => b.length - a.length);
  // Each string is measured on its own as it is cut (the whole event once more at the end): a
  // batch of a thousand files must not be serialised a thousand times.
  for (const entry of strings) {
    if (excess <= 0) break;
    const text = entry.holder[entry.key] as string;
    const before = sizeOf(text);
    let keep = Math.max(0, text.length - excess - 64);
    let cut = `${text.slice(0, keep)}… [cut: ${text.length - keep} more characters]`;
    // Escaped and multi-byte characters weigh more than one byte: cut further until it fits.
    while (keep > 0 && before - sizeOf(cut) < excess) {
      keep = Math.max(0, keep - Math.max(64, excess - (before - sizeOf(cut))));
      cut = `${text.slice(0, keep)}… [cut: ${text.length - keep} more characters]`;
    }
    if (sizeOf(cut) >= before) continue;
    entry.holder[entry.key] = cut;
    excess -= before - sizeOf(cut);
  }
  return bounded;
}

const from = 'the event source (a file, a commit, a message or a feed item written by someone else)';

/** The prompt `template` makes for `event`: each {{event…}} replaced by its value, fenced. */
export function renderEventPrompt(template: string, event: SourceEvent | null): string {
  let fields: Record<string, unknown> | undefined;
  return template.replace(new RegExp(eventPlaceholder.source, 'g'), (placeholder: string, pathText: string | undefined, offset: number) => {
    if (event === null) return '(no event: this run was started by hand)';
    // Bounded once, and only for a prompt that quotes the event.
    fields ??= boundedFields(event.fields);
    let block: string;
    if (pathText === undefined) block = fence(JSON.stringify(fields, null, 2), 'The event', from);
    else {
      const path = parsePath(pathText, true);
      const text = path.ok ? fieldText(valueAt(fields, path.value)) : undefined;
      if (text === undefined || text === '') return '';
      block = fence(text, placeholder.slice(2, -2), from);
    }
    // A fenced block stands on lines of its own, wherever the placeholder was (as a webhook's does).
    const before = offset === 0 || template[offset - 1] === '\n' ? '' : '\n';
    const end = offset + placeholder.length;
    const after = end === template.length || template[end] === '\n' ? '' : '\n';
    return before + block + after;
  });
}

/** The event's field as text, as a filter reads it: lists joined with ", ". */
function fieldOf(event: SourceEvent, field: string): string | undefined {
  const value = event.fields[field];
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.map((each) => (typeof each === 'string' ? each : JSON.stringify(each))).join(', ');
  return typeof value === 'string' ? value : JSON.stringify(value);
}

const shown = (value: string): string => JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}…` : value);

/** Why the filter passes this event over, or null when every condition holds. */
export function eventFilterVerdict(filter: readonly EventCondition[], event: SourceEvent): string | null {
  for (const condition of filter) {
    const value = fieldOf(event, condition.field);
    const what = `event.${condition.field}`;
    if (condition.exists !== undefined) {
      const present = value !== undefined && value !== '';
      if (condition.exists && !present) return `${what} is missing`;
      if (!condition.exists && present) return `${what} is present`;
    } else if (value === undefined) {
      return `${what} is missing`;
    } else if (condition.contains !== undefined) {
      if (!value.toLowerCase().includes(condition.contains.toLowerCase())) return `${what} is ${shown(value)}, which does not contain ${shown(condition.contains)}`;
    } else if (condition.equals !== undefined) {
      if (value !== condition.equals) return `${what} is ${shown(value)}, not ${shown(condition.equals)}`;
    } else if (condition.in !== undefined && !condition.in.includes(value)) {
      return `${what} is ${shown(value)}, not one of ${condition.in.map(shown).join(', ')}`;
    }
  }
  return null;
}

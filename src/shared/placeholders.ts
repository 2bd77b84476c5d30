// The {{placeholders}} Steward fills, per place, and the check that finds the ones it does not know:
// the contract refuses them at save time and the forms flag them as one types, with these same rules,
// so that a typo ({{previous.ouput}}) is never sent to an agent as written. What is already stored is
// rendered as before (an unknown one stays text): the check runs on save only.
import { webhookPlaceholder } from './webhook-template';

/** What a chained automation's prompt may quote of the run it follows. */
export const previousFields = ['output', 'status', 'runId', 'summary'] as const;
export type PreviousField = (typeof previousFields)[number];

/** `{{previous.output}}` and its kin, spaces inside allowed: the rule the core renders chained prompts with. */
export const previousPlaceholder = new RegExp(String.raw`\{\{\s*previous\.(${previousFields.join('|')})\s*\}\}`, 'g');

/** `{{event}}` (the whole event, as JSON) and `{{event.a.b[0]}}` (one field): what an event trigger fills. */
export const eventPlaceholder = /\{\{event([.[][^{}]*)?\}\}/g;

// Steward's own form of a placeholder: a name (and a path) between double braces, no space inside.
// Braces with spaces ({{ like this }}) are text: the way to send double braces to an agent as written.
const placeholderLike = /\{\{([A-Za-z_][^{}\s]*)\}\}/g;

export type PlaceholderPlace = 'automation' | 'webhook';

/** The placeholders each place takes, in words. */
export const placeholderWords: Record<PlaceholderPlace, string> = {
  automation: "{{previous.output}}, {{previous.status}}, {{previous.runId}} and {{previous.summary}}, the run it follows (for an automation that runs after another), and {{event}} and {{event.field}} (for one started by a file, a commit, a message or a feed item)",
  webhook: '{{payload}}, {{payload.a.b[0]}}, {{headers.name}} and {{query.name}}',
};

const isKnown = (token: string, place: PlaceholderPlace): boolean =>
  place === 'automation'
    ? new RegExp(`^${previousPlaceholder.source}$`).test(token) || new RegExp(`^${eventPlaceholder.source}$`).test(token)
    : new RegExp(`^${webhookPlaceholder.source}$`).test(token);

/** The placeholders in `text` that `place` does not fill, each once, in order. */
export function unknownPlaceholders(text: string, place: PlaceholderPlace): string[] {
  const unknown = [...text.matchAll(placeholderLike)].map((match) => match[0]).filter((token) => !isKnown(token, place));
  return [...new Set(unknown)];
}

/** Why `text` cannot be saved in `place`, in words; undefined when every placeholder is known. */
export function unknownPlaceholderProblem(text: string, place: PlaceholderPlace): string | undefined {
  const unknown = unknownPlaceholders(text, place);
  if (unknown.length === 0) return undefined;
  const named = unknown.length === 1 ? `Unknown placeholder ${unknown[0]}` : `Unknown placeholders ${unknown.join(', ')}`;
  const takes = place === 'automation' ? "An automation's prompt takes" : "A webhook's template takes";
  return `${named}: it would be sent as written. ${takes} ${placeholderWords[place]}; to send double braces as text, put a space inside them, as {{ this }}.`;
}

/** Whether a prompt quotes the run it follows: only a chained automation fills those. */
export const quotesPreviousRun = (prompt: string): boolean => new RegExp(previousPlaceholder.source).test(prompt);

/** Whether a prompt quotes the event that started it: only an event trigger fills those. */
export const quotesEvent = (prompt: string): boolean => new RegExp(eventPlaceholder.source).test(prompt);

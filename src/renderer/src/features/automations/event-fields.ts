// What each event kind fills in a prompt ({{event.<field>}}) and what a filter can test: the
// fields the sources give, named here once for the form's help and the filter's suggestions.
import type { EventKind } from '../../../../shared/contract';

export const eventFieldsOf: Record<EventKind, readonly string[]> = {
  watch: ['path', 'name', 'change', 'size'],
  git: ['commits', 'authors', 'messages', 'range', 'forced', 'branch'],
  mail: ['from', 'to', 'subject', 'text', 'attachments'],
  feed: ['title', 'link', 'author', 'text', 'categories'],
};

/** What one event of the kind is, in words, for the prompt's help. */
export const eventWords: Record<EventKind, string> = {
  watch: 'the file',
  git: 'the push',
  mail: 'the message',
  feed: 'the item',
};

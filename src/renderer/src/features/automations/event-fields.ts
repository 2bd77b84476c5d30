// What each event kind fills in a prompt ({{event.<field>}}) and what a filter can test: the
// fields the sources give, named here once for the form's help and the filter's suggestions.
import type { EventKind } from '../../../../shared/contract';

export const eventFieldsOf: Record<EventKind, readonly string[]> = {
  watch: ['path', 'relativePath', 'name', 'change', 'size', 'modifiedAt'],
  git: ['message', 'messages', 'author', 'authors', 'commits', 'count', 'files', 'range', 'before', 'after', 'forced', 'branch', 'repository'],
  mail: ['from', 'to', 'cc', 'subject', 'text', 'date', 'attachments', 'messageId', 'mailbox', 'uid', 'size'],
  feed: ['title', 'link', 'author', 'text', 'published', 'categories', 'feed', 'id'],
};

/** What one event of the kind is, in words, for the prompt's help. */
export const eventWords: Record<EventKind, string> = {
  watch: 'the file',
  git: 'the push',
  mail: 'the message',
  feed: 'the item',
};

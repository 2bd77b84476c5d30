// The event source kinds, each loaded at first use: a Steward with no mail trigger never loads the
// IMAP client.
import type { EventKind } from '../../../../shared/contract';
import type { SourceKind } from '../source-kind';

const loaders: Record<EventKind, () => Promise<SourceKind<never>>> = {
  watch: async () => (await import('./watch')).watchSource,
  git: async () => (await import('./git')).gitSource,
  mail: async () => (await import('./mail')).mailSource,
  feed: async () => (await import('./feed')).feedSource,
};

const loaded = new Map<EventKind, Promise<SourceKind<unknown>>>();

export function loadSourceKind(kind: EventKind): Promise<SourceKind<unknown>> {
  let found = loaded.get(kind);
  if (!found) {
    found = loaders[kind]();
    loaded.set(kind, found);
  }
  return found;
}

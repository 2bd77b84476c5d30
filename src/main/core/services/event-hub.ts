// One event, many listeners: how a service built early tells services built after it, without
// reaching forward for them. A listener that throws is its own problem; the others still hear.
export function createEventHub<Event>() {
  const listeners = new Set<(event: Event) => void>();
  return {
    publish(event: Event): void {
      for (const listener of listeners) {
        try {
          listener(event);
        } catch {
          // its failure is its own
        }
      }
    },
    subscribe(listener: (event: Event) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

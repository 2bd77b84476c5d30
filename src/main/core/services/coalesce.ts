// Coalesces a flood of announcements per key: the first is told at once, and any that follow within
// a window are told as one at its end, so a key costs at most one event per window however many
// arrive (a sender hammering a webhook with bad signatures writes a delivery per request).

export function createCoalescer(windowMs: number, tell: (key: string) => void) {
  const open = new Map<string, { again: boolean; timer: NodeJS.Timeout }>();

  function close(key: string): void {
    const entry = open.get(key);
    if (!entry) return;
    if (!entry.again) {
      open.delete(key);
      return;
    }
    entry.again = false;
    tell(key);
    entry.timer = setTimeout(() => close(key), windowMs).unref();
  }

  return {
    push(key: string): void {
      const entry = open.get(key);
      if (entry) {
        entry.again = true;
        return;
      }
      tell(key);
      open.set(key, { again: false, timer: setTimeout(() => close(key), windowMs).unref() });
    },
    /** Forgets what waits: nobody listens any more. */
    clear(): void {
      for (const { timer } of open.values()) clearTimeout(timer);
      open.clear();
    },
  };
}

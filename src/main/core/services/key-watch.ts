// API keys made or revoked by another process on this data folder are announced like this
// Steward's own: `steward keys create` writes the folder's database directly (no credential is
// needed to make the first key), so the daemon serving it looks at the key list every 2 s and says
// `changed apiKey` for each key that came or went, and Settings shows it without a reload. Another
// process writes in real time, so this looks on a real, unref'd timer, never the scheduler's clock
// (a test's manual clock moved on by days would look 100,000 times).

export const keyWatchMs = 2_000;

export function createKeyWatch(deps: { ids: () => string[]; announce: (id: string) => void; intervalMs?: number }) {
  let seen = new Set<string>();
  let timer: NodeJS.Timeout | undefined;

  /** Announces the keys that came or went since the last look. */
  function check(): void {
    const now = new Set(deps.ids());
    for (const id of now) if (!seen.has(id)) deps.announce(id);
    for (const id of seen) if (!now.has(id)) deps.announce(id);
    seen = now;
  }

  function arm(): void {
    timer = setTimeout(() => {
      try {
        check();
      } finally {
        arm();
      }
    }, deps.intervalMs ?? keyWatchMs);
    timer.unref();
  }

  return {
    check,
    start(): void {
      seen = new Set(deps.ids());
      arm();
    },
    stop(): void {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

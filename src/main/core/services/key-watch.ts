// API keys made or revoked by another process on this data folder are announced like this
// Steward's own: `steward keys create` writes the folder's database directly (no credential is
// needed to make the first key), so the daemon serving it looks at the key list every 2 s and says
// `changed apiKey` for each key that came or went, and Settings shows it without a reload.
import type { Clock } from '../scheduler/clock';

export const keyWatchMs = 2_000;

export function createKeyWatch(deps: { ids: () => string[]; clock: Clock; announce: (id: string) => void; intervalMs?: number }) {
  let seen = new Set<string>();
  let timer: unknown;

  /** Announces the keys that came or went since the last look. */
  function check(): void {
    const now = new Set(deps.ids());
    for (const id of now) if (!seen.has(id)) deps.announce(id);
    for (const id of seen) if (!now.has(id)) deps.announce(id);
    seen = now;
  }

  function arm(): void {
    timer = deps.clock.setTimer(() => {
      try {
        check();
      } finally {
        arm();
      }
    }, deps.intervalMs ?? keyWatchMs);
  }

  return {
    check,
    start(): void {
      seen = new Set(deps.ids());
      arm();
    },
    stop(): void {
      if (timer !== undefined) deps.clock.clearTimer(timer);
      timer = undefined;
    },
  };
}

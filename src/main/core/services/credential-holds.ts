// What each credential holds open: the event streams (GET /api/events) and MCP connections (/mcp)
// opened with an API key or a browser session, each with the way to end it. Revoking the key, or
// the end of the run a run's key belongs to, ends everything it holds at once: a revoked key keeps
// nothing it opened while it was valid. A key revoked by another process on the same data folder
// (`steward keys revoke` beside a running daemon) is found by a check every `sweepMs` while
// anything is held.
import type { Caller } from '../caller';
import type { Store } from '../store';

export type HoldKind = 'events' | 'mcp';

interface Hold {
  credential: string;
  runId: string | undefined;
  kind: HoldKind;
  release: () => void;
}

export interface HoldsOptions {
  sweepMs?: number;
}

/** Of these credentials, the API keys no longer active (revoked, or a run's deleted); other credentials are not keys. */
export function revokedAmong(store: Store, credentials: string[]): string[] {
  const keys = credentials.filter((credential) => credential.startsWith('key_'));
  if (keys.length === 0) return [];
  const active = new Set(store.apiKeys.activeHashes().map((key) => key.id));
  return keys.filter((key) => !active.has(key));
}

export function createCredentialHolds(store: Store, options: HoldsOptions = {}) {
  const holds = new Set<Hold>();
  let sweeper: NodeJS.Timeout | undefined;

  function releaseWhere(match: (hold: Hold) => boolean): void {
    for (const hold of [...holds]) {
      if (!match(hold)) continue;
      holds.delete(hold);
      hold.release();
    }
    if (holds.size === 0) stopSweeping();
  }

  function stopSweeping(): void {
    clearInterval(sweeper);
    sweeper = undefined;
  }

  function sweep(): void {
    const revoked = new Set(revokedAmong(store, [...new Set([...holds].map((hold) => hold.credential))]));
    if (revoked.size > 0) releaseWhere((hold) => revoked.has(hold.credential));
  }

  return {
    /**
     * Registers what `caller` opened and how to end it; the returned function forgets it (it ended
     * by itself). A caller without a credential (Steward's own) holds nothing revocable.
     */
    hold(caller: Pick<Caller, 'credential' | 'runId'>, kind: HoldKind, release: () => void): () => void {
      if (caller.credential === undefined) return () => {};
      const hold: Hold = { credential: caller.credential, runId: caller.runId, kind, release };
      holds.add(hold);
      sweeper ??= setInterval(sweep, options.sweepMs ?? 1_000).unref();
      return () => {
        holds.delete(hold);
        if (holds.size === 0) stopSweeping();
      };
    },

    /** How many of `kind` the credential holds open now. */
    count(credential: string, kind: HoldKind): number {
      let count = 0;
      for (const hold of holds) if (hold.credential === credential && hold.kind === kind) count++;
      return count;
    },

    /** The credential was revoked: everything it holds ends. */
    releaseCredential(credential: string): void {
      releaseWhere((hold) => hold.credential === credential);
    },

    /** A run's key was deleted (null: every run's): everything held with it ends. */
    releaseRuns(runId: string | null): void {
      releaseWhere((hold) => hold.runId !== undefined && (runId === null || hold.runId === runId));
    },

    /** Steward stops: every stream and connection ends, and the sweep with them. */
    releaseAll(): void {
      releaseWhere(() => true);
    },
  };
}

export type CredentialHolds = ReturnType<typeof createCredentialHolds>;

// How remote Stewards are retried and checked, apart from the follower (remotes/follower.ts) so that
// the services can be built with it while the follower loads only once a remote is followed.

export interface RemoteTiming {
  /** First wait after a failure; it doubles up to maxBackoffMs. */
  minBackoffMs: number;
  maxBackoffMs: number;
  /**
   * While connected: how often its instances (and the key, as stored now) are checked, which also
   * measures latency. A refused key shows as `unauthorized` at the next check, however long the
   * remote keeps the event stream it opened with that key.
   */
  checkEveryMs: number;
  /** No byte on the event stream for this long (the remote sends a heartbeat every 15 s): reconnect. */
  stallMs: number;
}

export const defaultRemoteTiming: RemoteTiming = { minBackoffMs: 1_000, maxBackoffMs: 30_000, checkEveryMs: 30_000, stallMs: 45_000 };

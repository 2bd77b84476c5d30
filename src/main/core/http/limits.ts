// What one client may hold of the HTTP server: how long a request may take to arrive, how many
// connections and event streams it may keep open, and how far an event stream may fall behind.
// The defaults serve users; tests shorten them (CoreOptions.httpLimits).

export interface HttpLimits {
  /** A request whose headers and body have not all arrived after this is answered 408 and closed. */
  requestTimeoutMs: number;
  /** Open connections per client address; more are answered 429 and closed. */
  connectionsPerClient: number;
  /** Open GET /api/events streams per API key (or browser session). */
  streamsPerCredential: number;
  /** Bytes an event stream may have waiting for its reader before it is sent `overflow` and closed. */
  streamBufferBytes: number;
  /** How often an event stream says it is alive. */
  heartbeatMs: number;
}

export const defaultHttpLimits: HttpLimits = {
  // Checked every 5 s (requestCheckMs): a stalled body is closed within 25 s.
  requestTimeoutMs: 20_000,
  // Every local program, and everything through the tunnel, comes from loopback: one "client".
  connectionsPerClient: 512,
  streamsPerCredential: 16,
  // Far above what a reader that keeps up has waiting (a turn of the event loop writes at most 100
  // lines, commit-batcher.ts; one larger event always goes through), low enough that 50 stalled
  // readers cost a few tens of megabytes.
  streamBufferBytes: 512 * 1024,
  heartbeatMs: 15_000,
};

/** How often Node checks open requests against requestTimeoutMs (its default, 30 s, would double the wait). */
export const requestCheckMs = (limits: HttpLimits): number => Math.max(10, Math.min(5_000, Math.floor(limits.requestTimeoutMs / 4)));

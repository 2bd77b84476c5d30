// Browser access to the daemon: one-time login links and the sessions they open, by SHA-256.
export default /* sql */ `
CREATE TABLE web_sessions (
  hash       TEXT PRIMARY KEY,
  kind       TEXT NOT NULL CHECK (kind IN ('login', 'session')),
  expires_at TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT, WITHOUT ROWID;
`;

// Threads are conversations: the agent's own session per thread and instance (a CLI's session id),
// with the agent that made it (another agent cannot resume it), the session each run used, and per automation and webhook whether its runs continue it.
export default /* sql */ `
CREATE TABLE thread_sessions (
  thread_id   TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
  instance_id TEXT NOT NULL REFERENCES instances (id) ON DELETE CASCADE,
  agent       TEXT NOT NULL,
  session_id  TEXT NOT NULL,
  updated_at  TEXT NOT NULL,
  PRIMARY KEY (thread_id, instance_id)
) STRICT;
ALTER TABLE runs ADD COLUMN session_id TEXT;
ALTER TABLE runs ADD COLUMN resumed_session_id TEXT;
ALTER TABLE automations ADD COLUMN memory TEXT NOT NULL DEFAULT 'fresh';
ALTER TABLE webhooks ADD COLUMN memory TEXT NOT NULL DEFAULT 'fresh';
`;

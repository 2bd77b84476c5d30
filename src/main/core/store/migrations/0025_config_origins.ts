// Which instances, automations and webhooks came from configuration files, and from which: a
// prune deletes only these, the UI says "from <file>", and a write-back knows where to write.
// `name` is the resource's name as the file gave it (a rename in the app is found by it).
// `detached`: a person detached it; the watched folder no longer changes or prunes it.
export default /* sql */ `
CREATE TABLE config_origins (
  resource_id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  file TEXT NOT NULL,
  applied_at TEXT NOT NULL,
  detached INTEGER NOT NULL DEFAULT 0
) STRICT;
`;

// Named secrets agents read back (a provider's API key), sealed by the secret box.
export default /* sql */ `
CREATE TABLE secrets (
  name TEXT PRIMARY KEY,
  sealed TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
`;

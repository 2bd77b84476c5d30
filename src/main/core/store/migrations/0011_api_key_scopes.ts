// API keys get a scope: admin (what every key could do before, so existing keys keep it), runs or read.
export default /* sql */ `
ALTER TABLE api_keys ADD COLUMN scope TEXT NOT NULL DEFAULT 'admin' CHECK (scope IN ('admin', 'runs', 'read'));
`;

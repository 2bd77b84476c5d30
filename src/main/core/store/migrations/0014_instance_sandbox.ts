// Each instance's sandbox (JSON, SandboxConfig). Instances made before it existed keep running as
// they did: `off`, shown as "not sandboxed"; new ones are made with the boundary on.
export default /* sql */ `
ALTER TABLE instances ADD COLUMN sandbox TEXT NOT NULL DEFAULT '{"mode":"off","network":[],"readDeny":[],"writeAllow":[]}';
`;

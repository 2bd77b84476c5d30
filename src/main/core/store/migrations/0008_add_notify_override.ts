// Per automation and per webhook: notify as the setting says ('default'), or always, on failures, never.
export default /* sql */ `
ALTER TABLE automations ADD COLUMN notify TEXT NOT NULL DEFAULT 'default';
ALTER TABLE webhooks ADD COLUMN notify TEXT NOT NULL DEFAULT 'default';
`;

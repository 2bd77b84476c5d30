// What an agent wrote to stderr, kept with its run (the last 64 KiB).
export default /* sql */ `
ALTER TABLE runs ADD COLUMN stderr TEXT;
`;

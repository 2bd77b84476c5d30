// Which other instances' runs may send an instance prompts (JSON array of instance ids): none by
// default, as every instance had before, so a run's key reaches its own instance only.
export default /* sql */ `
ALTER TABLE instances ADD COLUMN accepts_prompts_from TEXT NOT NULL DEFAULT '[]';
`;

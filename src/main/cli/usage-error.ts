// A mistake in how a command was called: `steward` reports it with the usage text and exit code 2.
export class UsageError extends Error {}

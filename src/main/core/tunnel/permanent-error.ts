// The tunnel's one error class, apart from the connectors so that the tunnel can tell it without
// loading them (they load with the first tunnel a person turns on).

/** A failure that trying again will not fix (a missing tool or token). */
export class PermanentTunnelError extends Error {}

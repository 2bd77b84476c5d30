// Why a cancelled run was cancelled, in a few words shown beside its status ("cancelled · denied by
// you"): read from the run's error, which the core writes when it ends a run that never started.

/** Who decided, as a person reads it beside a run. */
export function deciderWords(decidedBy: string | null): string {
  if (decidedBy === 'ui') return 'by you';
  if (decidedBy === 'link') return 'by link';
  if (decidedBy === 'api') return 'through the API';
  return decidedBy ? `by ${decidedBy}` : '';
}

/** "denied by you", "not approved in time", "cancelled before it started"; null when not cancelled or unknown. */
export function cancelledWhy(status: string, error: string | null | undefined): string | null {
  if (status !== 'cancelled' || !error) return null;
  const denied = /^Not started: (denied[^(.]*)/.exec(error);
  if (denied) return denied[1].trim();
  if (error.startsWith('Not started: not approved within')) return 'not approved in time';
  if (error.startsWith('Cancelled before it started')) return 'before it started';
  return null;
}

// A wait typed as a number of minutes or hours (the Approval and Permissions sections), and the
// seconds it sends; the contract takes 10 s to 7 days.
export type TimeoutUnit = 'minutes' | 'hours';
export interface TimeoutDraft {
  amount: string;
  unit: TimeoutUnit;
}

const unitSeconds: Record<TimeoutUnit, number> = { minutes: 60, hours: 3600 };
const longest = 7 * 24 * 3600;

/** Whole hours read as hours, anything else as minutes. */
export function timeoutDraftOf(seconds: number): TimeoutDraft {
  if (seconds % 3600 === 0) return { amount: String(seconds / 3600), unit: 'hours' };
  return { amount: String(Math.round((seconds / 60) * 100) / 100), unit: 'minutes' };
}

/** The seconds to send, or the problem in words. */
export function timeoutSeconds(draft: TimeoutDraft): { ok: true; seconds: number } | { ok: false; problem: string } {
  const text = draft.amount.trim();
  const amount = /^\d*\.?\d+$/.test(text) ? Number(text) : Number.NaN;
  const seconds = Math.round(amount * unitSeconds[draft.unit]);
  if (!(seconds >= 10 && seconds <= longest)) return { ok: false, problem: 'The wait must be a number from 1 minute to 168 hours (7 days).' };
  return { ok: true, seconds };
}

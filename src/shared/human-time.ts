// A moment said the way a person reads it on a page with no script (the approval link's page):
// how far away, and the clock time in UTC ("in 55 minutes, at 14:05 UTC").

const units: [ms: number, name: string][] = [
  [86_400_000, 'day'],
  [3_600_000, 'hour'],
  [60_000, 'minute'],
];

/** "55 minutes", "2 hours 5 minutes", "3 days"; under a minute is "less than a minute". */
export function spanWords(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < 60_000) return 'less than a minute';
  const [unit, name] = units.find(([size]) => abs >= size)!;
  const count = Math.floor(abs / unit);
  const whole = `${count} ${name}${count === 1 ? '' : 's'}`;
  // Hours keep their minutes (2 hours 5 minutes); days and minutes stand alone.
  if (name !== 'hour') return whole;
  const minutes = Math.floor((abs % unit) / 60_000);
  return minutes === 0 ? whole : `${whole} ${minutes} minute${minutes === 1 ? '' : 's'}`;
}

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "14:05 UTC", with the day ("28 Nov 14:05 UTC") when it is not the same UTC day as `now`. */
export function clockUtc(at: Date, now: Date): string {
  const time = `${String(at.getUTCHours()).padStart(2, '0')}:${String(at.getUTCMinutes()).padStart(2, '0')} UTC`;
  const sameDay = at.toISOString().slice(0, 10) === now.toISOString().slice(0, 10);
  return sameDay ? time : `${at.getUTCDate()} ${months[at.getUTCMonth()]}${at.getUTCFullYear() === now.getUTCFullYear() ? '' : ` ${at.getUTCFullYear()}`} ${time}`;
}

/** "in 55 minutes, at 14:05 UTC" or "3 minutes ago, at 13:10 UTC". */
export function relativeUtc(iso: string, now: Date): string {
  const at = new Date(iso);
  const ms = at.getTime() - now.getTime();
  const span = spanWords(ms);
  return `${ms > 0 ? `in ${span}` : `${span} ago`}, at ${clockUtc(at, now)}`;
}

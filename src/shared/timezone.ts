// IANA timezones through Intl: which names are valid, and the mapping between instants and
// wall-clock times in a zone. A wall time is carried as milliseconds "as if UTC": the wall time
// 2027-03-14 02:30 is Date.UTC(2027, 2, 14, 2, 30).

const minuteMs = 60_000;
const dayMs = 24 * 60 * minuteMs;

const timezonePattern = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timezone: string): Intl.DateTimeFormat {
  let format = formatters.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timezone, format);
  }
  return format;
}

/** True for an IANA timezone name the runtime knows (offsets such as "+01:00" are not names). */
export function isValidTimezone(timezone: string): boolean {
  if (!timezonePattern.test(timezone)) return false;
  try {
    formatter(timezone);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock time in `timezone` at `instant`, as milliseconds "as if UTC". */
export function instantToWallTime(instant: number, timezone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatter(timezone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const wall = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  return wall + (instant % 1000 + 1000) % 1000;
}

/** How far the zone's wall clock is ahead of UTC at `instant`, in milliseconds. */
export const offsetAt = (instant: number, timezone: string): number => instantToWallTime(instant, timezone) - instant;

/**
 * The instant a wall-clock time happens in `timezone`. A wall time that happens twice (clocks
 * turned back) gives its first occurrence; one that never happens (clocks turned forward) gives
 * the end of the gap, the instant the clocks jumped.
 */
export function wallTimeToInstant(wall: number, timezone: string): number {
  // Transitions are months apart, so the offsets a day either side are the only two in play.
  const before = offsetAt(wall - dayMs, timezone);
  const after = offsetAt(wall + dayMs, timezone);
  if (before === after) return wall - before;
  const candidates = [wall - before, wall - after].filter((instant) => instantToWallTime(instant, timezone) === wall).sort((a, b) => a - b);
  if (candidates.length > 0) return candidates[0];

  // In a gap: the jump happened between these two instants; find it to the minute.
  let low = Math.min(wall - before, wall - after);
  let high = Math.max(wall - before, wall - after);
  while (high - low > minuteMs) {
    const middle = low + Math.max(1, Math.floor((high - low) / 2 / minuteMs)) * minuteMs;
    if (offsetAt(middle, timezone) === before) low = middle;
    else high = middle;
  }
  return high;
}

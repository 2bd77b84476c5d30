// A budget's periods: the day and the calendar month that hold an instant, in a timezone (an
// automation's own; UTC for an instance), as instants, as keys ('2026-11-25', '2026-11') and with
// the time they end written in the zone's own offset ('2026-11-26T00:00:00+01:00').
import { instantToWallTime, wallTimeToInstant } from '../../../shared/timezone';

const dayMs = 24 * 60 * 60 * 1000;

export interface Period {
  /** '2026-11-25' for a day, '2026-11' for a month. */
  key: string;
  start: Date;
  end: Date;
}

export function dayOf(at: Date, timezone: string): Period {
  const wallStart = Math.floor(instantToWallTime(at.getTime(), timezone) / dayMs) * dayMs;
  return { key: new Date(wallStart).toISOString().slice(0, 10), start: new Date(wallTimeToInstant(wallStart, timezone)), end: new Date(wallTimeToInstant(wallStart + dayMs, timezone)) };
}

export function monthOf(at: Date, timezone: string): Period {
  const wall = new Date(instantToWallTime(at.getTime(), timezone));
  const wallStart = Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), 1);
  const wallEnd = Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth() + 1, 1);
  return { key: new Date(wallStart).toISOString().slice(0, 7), start: new Date(wallTimeToInstant(wallStart, timezone)), end: new Date(wallTimeToInstant(wallEnd, timezone)) };
}

/** The instant as the zone's wall clock with its offset: '2026-11-26T00:00:00+01:00'. */
export function zonedTime(at: Date, timezone: string): string {
  const wall = instantToWallTime(at.getTime(), timezone);
  const offsetMinutes = Math.round((wall - at.getTime()) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const pad = (value: number) => String(value).padStart(2, '0');
  const offset = `${sign}${pad(Math.floor(Math.abs(offsetMinutes) / 60))}:${pad(Math.abs(offsetMinutes) % 60)}`;
  return `${new Date(wall - (wall % 1000)).toISOString().slice(0, 19)}${offset}`;
}

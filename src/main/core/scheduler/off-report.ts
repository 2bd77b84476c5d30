// At start: one notice for the time Steward was off, when fires fell in it. The notice's title says
// when ("Steward was off 02:00–07:10"), its body what that cost ("3 fires of 2 automations missed,
// 1 caught up"); the feed line joins the two (services/notices.ts), so the body does not repeat the title.
import { postNotice } from '../services/notices';
import type { Store } from '../store';

export interface OffReport {
  /** Fires not run. */
  missed: number;
  /** Fires run late, one per automation at most. */
  caughtUp: number;
  /** The automations with either. */
  automations: Set<string>;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** "02:00" on the same day, "Nov 24, 02:00" otherwise, in this machine's timezone. */
function clockTime(at: Date, reference: Date): string {
  const sameDay = at.toDateString() === reference.toDateString();
  return at.toLocaleString('en-US', sameDay ? { hour: '2-digit', minute: '2-digit', hour12: false } : { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false });
}

export function describeOffTime(report: OffReport, from: Date, until: Date): { title: string; body: string } {
  const parts = [report.missed > 0 && `${plural(report.missed, 'fire', 'fires')} of ${plural(report.automations.size, 'automation', 'automations')} missed`, report.caughtUp > 0 && `${report.caughtUp} caught up`].filter(Boolean);
  return { title: `Steward was off ${clockTime(from, until)}–${clockTime(until, until)}`, body: parts.join(', ') };
}

export function reportOffTime(store: Store, report: OffReport, from: Date, until: Date): void {
  if (report.missed === 0 && report.caughtUp === 0) return;
  const first = store.automations.get([...report.automations][0] ?? '');
  const instanceId = store.instances.getDefault()?.id ?? first?.instanceId;
  if (instanceId === undefined) return;
  postNotice(store, { kind: 'steward-was-off', ...describeOffTime(report, from, until), instanceId }, until);
}

// The fires still to come of many schedules in a window, in order (by time, then automation id),
// found without working out every schedule's every fire: each schedule's first fire in the window
// goes into a heap, and the earliest is taken and replaced by that schedule's next, `limit` times.
import type { Schedule } from '../../../shared/cron';

export interface Upcoming<T> {
  item: T;
  id: string;
  schedule: Schedule;
  /** Its next fire after now, when already known (epoch ms); it saves working it out again. */
  next: number | null;
}

interface Slot<T> {
  at: number;
  source: Upcoming<T>;
}

const before = <T>(a: Slot<T>, b: Slot<T>) => a.at < b.at || (a.at === b.at && a.source.id < b.source.id);

/** Fires in [from, to) after the cursor (a fire time and an id), at most `limit`. */
export function upcomingFires<T>(sources: Iterable<Upcoming<T>>, window: { from: number; to: number; after: { at: number; id: string } | null }, limit: number): { item: T; at: number }[] {
  const heap: Slot<T>[] = [];
  const push = (slot: Slot<T>) => {
    let i = heap.push(slot) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i], heap[parent])) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  };
  const pop = (): Slot<T> => {
    const top = heap[0];
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let least = i;
        if (left < heap.length && before(heap[left], heap[least])) least = left;
        if (right < heap.length && before(heap[right], heap[least])) least = right;
        if (least === i) break;
        [heap[i], heap[least]] = [heap[least], heap[i]];
        i = least;
      }
    }
    return top;
  };
  const start = Math.max(window.from, window.after?.at ?? -Infinity);
  for (const source of sources) {
    let at = source.next !== null && source.next >= start ? source.next : source.schedule.next(new Date(start - 1), 1)[0]?.getTime();
    // At the cursor's own time, only ids after the cursor's are still to come.
    if (at !== undefined && window.after && at === window.after.at && source.id <= window.after.id) at = source.schedule.next(new Date(at), 1)[0]?.getTime();
    if (at !== undefined && at < window.to) push({ at, source });
  }
  const result: { item: T; at: number }[] = [];
  while (heap.length > 0 && result.length < limit) {
    const { at, source } = pop();
    result.push({ item: source.item, at });
    const next = source.schedule.next(new Date(at), 1)[0]?.getTime();
    if (next !== undefined && next < window.to) push({ at: next, source });
  }
  return result;
}

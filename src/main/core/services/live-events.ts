// The core's event bus: committed activity lines (with their instance's name and avatar), run
// status changes, instance changes and which automation or webhook changed, for the SSE stream and the desktop app's IPC. It listens to the store only
// while someone listens to it, so writers build no events nobody reads.
import type { ActivityEvent, Instance, LiveEvent } from '../../../shared/contract';
import type { StoreChange } from '../store/commit-hooks';
import type { ActivityService } from './activity';
import { createCoalescer } from './coalesce';
import type { ServiceContext } from './context';

export type { LiveEvent };

/** Where an instance is looked up: this Steward's own, or a remote's as shown here. */
export interface InstanceDirectory {
  get(id: string): Instance | undefined;
  all(): Instance[];
}

export function createLiveEvents(context: ServiceContext, activity: ActivityService, directory: InstanceDirectory) {
  const { store } = context;
  const listeners = new Set<(event: LiveEvent) => void>();
  let unsubscribe: (() => void) | undefined;
  // The name and avatar each activity line is decorated with, read once per instance rather than
  // once per line (a chatty run writes thousands); an instance's own change refreshes it.
  const decorations = new Map<string, Pick<Instance, 'name' | 'avatarUrl'>>();

  function decorationOf(instanceId: string): Pick<Instance, 'name' | 'avatarUrl'> | undefined {
    let known = decorations.get(instanceId);
    if (known === undefined) {
      const instance = directory.get(instanceId);
      if (instance) decorations.set(instanceId, (known = { name: instance.name, avatarUrl: instance.avatarUrl }));
    }
    return known;
  }

  function tell(event: LiveEvent): void {
    for (const each of listeners) each(event);
  }
  // A webhook under a flood of refused requests writes a delivery each: its lists hear a few a second.
  const deliveries = createCoalescer(250, (webhookId) => tell({ type: 'changed', resource: 'delivery', id: webhookId }));

  function translate(change: StoreChange): LiveEvent | undefined {
    if (change.type === 'run') {
      const run = store.runs.get(change.runId);
      return run && { type: 'run', run };
    }
    if (change.type === 'instance') {
      decorations.delete(change.instanceId);
      const instance = directory.get(change.instanceId);
      return instance && { type: 'instance', instance };
    }
    if (change.type === 'changed' && change.resource === 'delivery') {
      deliveries.push(change.id);
      return undefined;
    }
    if (change.type === 'changed') return { type: 'changed', resource: change.resource, id: change.id };
    const instance = decorationOf(change.line.instanceId);
    return instance && { type: 'activity', seq: change.line.seq, event: activity.decorate(change.line, instance) };
  }

  return {
    subscribe(listener: (event: LiveEvent) => void): () => void {
      listeners.add(listener);
      unsubscribe ??= store.subscribe((change) => {
        const event = translate(change);
        if (event) for (const each of listeners) each(event);
      });
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          unsubscribe?.();
          unsubscribe = undefined;
          deliveries.clear();
          // Changes are no longer heard: what is known may go stale.
          decorations.clear();
        }
      };
    },

    /** An event that did not come from this Steward's store: a remote's run or change, a remote's instance whose connection changed. */
    publish(event: LiveEvent): void {
      if (event.type === 'instance') decorations.delete(event.instance.id);
      for (const each of listeners) {
        try {
          each(event);
        } catch {
          // a listener's failure is its own
        }
      }
    },

    /** The sequence number of the newest activity line. */
    lastSeq: (): number => store.activity.lastSeq(),

    /** Activity after a sequence number, for a stream that resumes; `undefined` when more than `max` were missed. */
    replay(afterSeq: number, max: number): { seq: number; event: ActivityEvent }[] | undefined {
      const lines = store.activity.sinceSeq(afterSeq, max + 1);
      if (lines.length > max) return undefined;
      const events: { seq: number; event: ActivityEvent }[] = [];
      for (const line of lines) {
        const instance = decorationOf(line.instanceId);
        if (instance) events.push({ seq: line.seq, event: activity.decorate(line, instance) });
      }
      return events;
    },
  };
}

export type LiveEvents = ReturnType<typeof createLiveEvents>;

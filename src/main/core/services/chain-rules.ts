// The rules of chained automations at save: the automation followed must exist, and following it
// must not close a loop (an automation that follows itself, directly or through others). Run
// inside the save's transaction, so that two saves cannot make a loop between them.
import { AppError } from '../../../shared/errors';
import type { AutomationRecord } from '../store/repositories/automations';
import type { Store } from '../store';
import { followedId } from '../scheduler/schedule-of';

const field = 'trigger.after.automationId';

/** 400 invalid_field when the predecessor is missing, 400 cycle (naming the loop) when following it closes one. */
export function assertChainable(store: Store, automation: Pick<AutomationRecord, 'id' | 'name' | 'trigger'>): void {
  const predecessorId = followedId(automation);
  if (predecessorId === undefined) return;
  let current = store.automations.get(predecessorId);
  if (!current) throw new AppError('invalid_field', `No automation ${predecessorId} to run after: ${field} must name an existing automation.`, { field });
  const loop = [automation.name];
  const seen = new Set<string>();
  while (current && !seen.has(current.id)) {
    loop.push(current.name);
    if (current.id === automation.id) {
      throw new AppError('cycle', `This would make a loop of automations that start each other forever: ${loop.join(' → ')}. Pick another automation to run after, or a schedule.`, { field });
    }
    seen.add(current.id);
    const next = followedId(current);
    current = next === undefined ? undefined : store.automations.get(next);
  }
}

/**
 * When an automation is deleted, the ones that ran after it are disabled (they could never run
 * again); they keep their trigger, naming the deleted one, until given a schedule or another
 * automation to follow.
 */
export function disableFollowers(store: Store, id: string, at: string): void {
  for (const follower of store.automations.followersOf(id)) {
    if (follower.enabled) store.automations.save({ ...follower, enabled: false, updatedAt: at });
  }
}

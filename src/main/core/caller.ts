// Who calls an operation, and what they may call: the scope of their API key (or browser session),
// and for an agent's run, that run. A run's own key (scope `runs`) may also manage the automations
// and webhooks of its run's instance (the contract marks those operations `ownInstance`).
import { type Operation, type Scope, scopeAllows } from '../../shared/contract';
import { AppError } from '../../shared/errors';

export interface Caller {
  scope: Scope;
  /** The run whose agent calls (its key, or the built-in agent's steward tools): what it starts is that run's child. */
  runId?: string | undefined;
  /** Set for a run's key: the one instance whose automations and webhooks it manages. */
  instanceId?: string | undefined;
  /** Which credential it presented (an API key's id, a browser session), for limits per credential. */
  credential?: string | undefined;
}

/** The desktop window, the CLI and other callers inside Steward itself. */
export const adminCaller: Caller = { scope: 'admin' };

export function mayCall(caller: Caller, operation: Pick<Operation, 'scope' | 'ownInstance'>): boolean {
  return scopeAllows(caller.scope, operation.scope) || (caller.instanceId !== undefined && operation.ownInstance === true);
}

/** 403 unless the caller may call the operation at all (ownership of the instance is checked by its handler). */
export function authorize(caller: Caller, operation: Pick<Operation, 'name' | 'scope' | 'ownInstance'>): void {
  if (mayCall(caller, operation)) return;
  throw new AppError('forbidden', `This API key's scope (${caller.scope}) does not allow ${operation.name}; it needs ${operation.scope}.`);
}

/** For a run's key: 403 unless every instance named is the run's own. */
export function assertOwnInstance(caller: Caller, ...instanceIds: (string | undefined)[]): void {
  if (caller.instanceId === undefined) return;
  for (const instanceId of instanceIds) {
    if (instanceId !== undefined && instanceId !== caller.instanceId) {
      throw new AppError('forbidden', `A run's key manages the automations and webhooks of its own instance (${caller.instanceId}) only, not of ${instanceId}.`);
    }
  }
}

// Who calls an operation, and what they may call: the scope of their API key (or browser session),
// or, for an agent's run (its own key, or the built-in agent's steward tools), the run: a run's
// caller is not measured by a scope but by the reach the contract declares per operation (`runKey`),
// and what it names is checked against its own instance (run-key-reach.ts).
import { type Operation, type Scope, scopeAllows } from '../../shared/contract';
import { AppError } from '../../shared/errors';

export interface Caller {
  scope: Scope;
  /** The run whose agent calls (its key, or the built-in agent's steward tools): what it starts is that run's child. */
  runId?: string | undefined;
  /** Set for a run's caller: its run's instance, the one it reaches. */
  instanceId?: string | undefined;
  /** Which credential it presented (an API key's id, a browser session), for limits per credential. */
  credential?: string | undefined;
}

/** The desktop window, the CLI and other callers inside Steward itself. */
export const adminCaller: Caller = { scope: 'admin' };

/** An agent's run calls: confined to its own instance, whatever its scope says. */
export const isRunCaller = (caller: Caller): boolean => caller.runId !== undefined || caller.instanceId !== undefined;

/** A run's caller for the operations that declare a reach for it; anyone else by scope. */
export function mayCall(caller: Caller, operation: Pick<Operation, 'scope' | 'runKey'>): boolean {
  return isRunCaller(caller) ? operation.runKey !== undefined : scopeAllows(caller.scope, operation.scope);
}

/** 403 unless the caller may call the operation at all (what it names is checked by run-key-reach.ts). */
export function authorize(caller: Caller, operation: Pick<Operation, 'name' | 'scope' | 'runKey'>): void {
  if (mayCall(caller, operation)) return;
  if (isRunCaller(caller)) throw new AppError('forbidden', `A run's key reaches its own instance only: it cannot call ${operation.name}.`);
  throw new AppError('forbidden', `This API key's scope (${caller.scope}) does not allow ${operation.name}; it needs ${operation.scope}.`);
}

// One door for every mapped operation: the caller authorized, the input validated with the
// contract's schemas, an agent's run confined to what it reaches (run-key-reach.ts), then the
// handler. The HTTP routes, MCP, the built-in agent's steward tools and the desktop IPC all use it.
// Operations on another Steward's instances are forwarded there (remotes/routing.ts).
import { type Operation, operations } from '../../shared/contract';
import { parseInput } from '../../shared/parse-input';
import { type Caller, adminCaller, authorize } from './caller';
import type { Handlers } from './handlers';
import type { Dispatch, MappedName, RawInput } from './operation-call';
import type { RunKeyReach } from './run-key-reach';

export type { Dispatch, RawInput } from './operation-call';

/** Answers an operation here (`local`) or forwards it to the remote Steward it belongs to. */
export type Route = (name: MappedName, input: { query?: unknown }, raw: RawInput, caller: Caller, local: () => Promise<unknown>) => Promise<unknown>;

export function createDispatch(handlers: Handlers, options: { route?: Route | undefined; reach: RunKeyReach }): Dispatch {
  return async (name, raw, caller = adminCaller) => {
    const operation: Operation = operations[name];
    authorize(caller, operation);
    // Validated here whatever answers it: a remote gets only what this Steward would take.
    const input = parseInput(operation, raw);
    const answer = options.reach.confine(name, input as Parameters<RunKeyReach['confine']>[1], caller);
    const local = async () => (handlers[name] as (input: unknown, caller: Caller) => unknown)(input, caller);
    const output = await (options.route ? options.route(name, input, raw, caller, local) : local());
    return answer ? answer(output) : output;
  };
}

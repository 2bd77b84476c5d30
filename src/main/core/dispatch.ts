// One door for every mapped operation: the caller authorized, the input validated with the
// contract's schemas, then the handler. The HTTP routes, MCP, the built-in agent's steward tools and
// the desktop IPC all use it.
import { type Operation, operations } from '../../shared/contract';
import { parseInput } from '../../shared/parse-input';
import { type Caller, adminCaller, authorize } from './caller';
import type { Handlers, MappedName } from './handlers';

export interface RawInput {
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

export type Dispatch = (name: MappedName, raw: RawInput, caller?: Caller) => Promise<unknown>;

export function createDispatch(handlers: Handlers): Dispatch {
  return async (name, raw, caller = adminCaller) => {
    const operation: Operation = operations[name];
    authorize(caller, operation);
    const input = parseInput(operation, raw);
    return (handlers[name] as (input: unknown, caller: Caller) => unknown)(input, caller);
  };
}

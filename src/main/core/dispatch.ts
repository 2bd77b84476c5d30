// One door for every mapped operation: input validated with the contract's schemas, then the
// handler. The HTTP routes, the built-in agent's steward tools and the desktop IPC all use it.
import { type Operation, operations } from '../../shared/contract';
import { parseInput } from '../../shared/parse-input';
import type { Handlers, MappedName } from './handlers';

export interface RawInput {
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

export type Dispatch = (name: MappedName, raw: RawInput) => Promise<unknown>;

export function createDispatch(handlers: Handlers): Dispatch {
  return async (name, raw) => {
    const operation: Operation = operations[name];
    const input = parseInput(operation, raw);
    return (handlers[name] as (input: unknown) => unknown)(input);
  };
}

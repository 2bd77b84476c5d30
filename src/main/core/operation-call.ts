// What a call through the one door (dispatch.ts) takes, declared apart from the door and the
// handler map, which know the services: the agents sit below the services and call Steward's
// operations through a function of this type that the composition root hands down, so no import
// of theirs, types included, leads back up to the services (docs/development.md, "Layers").
import type { OperationName } from '../../shared/contract';
import type { Caller } from './caller';

/** Operations with a route of their own (the trigger, the event stream) are not dispatched through the map. */
export type MappedName = Exclude<OperationName, 'webhooks.trigger' | 'webhooks.triggerGet' | 'events.stream'>;

/** A request's parts as they came in, before the contract's validation. */
export interface RawInput {
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

export type Dispatch = (name: MappedName, raw: RawInput, caller?: Caller) => Promise<unknown>;

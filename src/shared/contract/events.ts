// What the core announces as it happens: an activity line (with its sequence number), a run
// that changed status, an instance that changed (status, name, avatar), an automation or webhook
// that was created, changed or deleted (by id: the UI reloads it), an API key made or revoked
// (by anyone, the CLI included), a webhook that got a delivery (`delivery`, by the webhook's id,
// at most a few a second however many arrive). The SSE stream and the desktop IPC carry the same events.
import type { ActivityEvent } from './activity';
import type { Instance } from './instances';
import type { Run } from './runs';

export const changedResources = ['automation', 'webhook', 'approval', 'remote', 'apiKey', 'delivery'] as const;
export type ChangedResource = (typeof changedResources)[number];

export type LiveEvent =
  | { type: 'activity'; seq: number; event: ActivityEvent }
  | { type: 'run'; run: Run }
  | { type: 'instance'; instance: Instance }
  /** `location`: the remote Steward it changed on (absent: this one); a follower passes on only a remote's own changes. */
  | { type: 'changed'; resource: ChangedResource; id: string; location?: string };

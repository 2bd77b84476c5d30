// What the core announces as it happens: an activity line (with its sequence number) or a run
// that changed status. The SSE stream and the desktop IPC carry the same events.
import type { ActivityEvent } from './activity';
import type { Run } from './runs';

export type LiveEvent = { type: 'activity'; seq: number; event: ActivityEvent } | { type: 'run'; run: Run };

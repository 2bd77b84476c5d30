// The desktop bridge's wire: the channel names and the shape of an answer. The preload and the
// main process's IPC router both use these, so neither can drift from the other.
import type { ErrorBody } from './errors';
import type { z } from 'zod';

export const ipcChannels = {
  /** renderer → main: one contract operation. */
  call: 'steward:call',
  /** main → renderer: a LiveEvent. */
  event: 'steward:event',
  /** main → renderer: open a view (a notification was clicked). */
  navigate: 'steward:navigate',
} as const;

export interface CallRequest {
  name: string;
  input: { params?: unknown; query?: unknown; body?: unknown };
}

export type CallAnswer = { ok: true; value: unknown } | { ok: false; error: z.infer<typeof ErrorBody>['error'] };

/** What the preload puts on `window.steward`. */
export interface StewardBridge {
  readonly platform: string;
  call(name: string, input: CallRequest['input']): Promise<CallAnswer>;
  onEvent(listener: (event: unknown) => void): () => void;
  onNavigate(listener: (path: string) => void): () => void;
}

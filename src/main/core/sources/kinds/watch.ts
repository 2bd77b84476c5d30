// Not built yet: being written (issue 33).
import type { WatchTrigger } from '../../../../shared/contract';
import type { SourceKind } from '../source-kind';

export const watchSource: SourceKind<WatchTrigger> = {
  kind: 'watch',
  run: () => Promise.reject(new Error('the watch source is not built yet')),
  livenessMs: () => 60_000,
};

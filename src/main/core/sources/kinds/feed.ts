// Not built yet: being written (issue 33).
import type { FeedTrigger } from '../../../../shared/contract';
import type { SourceKind } from '../source-kind';

export const feedSource: SourceKind<FeedTrigger> = {
  kind: 'feed',
  run: () => Promise.reject(new Error('the feed source is not built yet')),
  livenessMs: () => 60_000,
};

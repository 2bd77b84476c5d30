// Not built yet: being written (issue 33).
import type { GitTrigger } from '../../../../shared/contract';
import type { SourceKind } from '../source-kind';

export const gitSource: SourceKind<GitTrigger> = {
  kind: 'git',
  run: () => Promise.reject(new Error('the git source is not built yet')),
  livenessMs: () => 60_000,
};

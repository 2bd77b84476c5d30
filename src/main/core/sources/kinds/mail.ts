// Not built yet: being written (issue 33).
import type { MailTrigger } from '../../../../shared/contract';
import type { SourceKind } from '../source-kind';

export const mailSource: SourceKind<MailTrigger> = {
  kind: 'mail',
  run: () => Promise.reject(new Error('the mail source is not built yet')),
  livenessMs: () => 60_000,
};

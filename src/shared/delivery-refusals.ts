// Why Steward refused a webhook request, in words: the delivery's row, the question before its
// replay, and the API's refusal to replay it without `force` all say it the same way.
import type { ErrorCode } from './errors';

// Completes "This delivery was refused: …". A code not listed falls back to the recorded message.
const reasons: Partial<Record<ErrorCode, string>> = {
  invalid_signature: 'its signature did not match',
  webhook_disabled: 'the webhook was disabled',
  payload_too_large: 'its body was larger than the webhook takes',
  queue_full: 'too many runs were waiting',
  rate_limited: 'too many requests came at once',
  too_many_connections: 'too many requests came at once',
  request_timeout: 'its body took too long to arrive',
  invalid_json: 'its body said it was JSON but did not parse',
  invalid_body: 'its body could not be read',
  unsupported_media_type: 'its body was binary',
  invalid_field: 'a header of it was not valid',
  invalid_template: 'its idempotency key could not be read from it',
  storage_full: 'the disk was full',
  storage_read_only: 'the data folder was read-only',
};

/** "its signature did not match": why a refused delivery was refused, for a sentence. */
export function refusalReason(errorCode: string | null, message: string | null): string {
  const known = errorCode === null ? undefined : reasons[errorCode as ErrorCode];
  if (known) return known;
  const said = (message ?? '').replace(/\.$/, '');
  return said === '' ? `it was refused (${errorCode ?? 'no reason recorded'})` : said.charAt(0).toLowerCase() + said.slice(1);
}

// Error codes of the API and the HTTP status each maps to: the one place that decides both.
import { z } from 'zod';

export const errorStatus = {
  invalid_url: 400,
  invalid_json: 400,
  invalid_body: 400,
  invalid_query: 400,
  unknown_field: 400,
  missing_field: 400,
  invalid_field: 400,
  invalid_cron: 400,
  invalid_timezone: 400,
  invalid_time: 400,
  missing_payload_placeholder: 400,
  invalid_template: 400,
  unknown_placeholder: 400,
  invalid_cursors: 400,
  invalid_trigger: 400,
  invalid_config: 400,
  not_retryable: 400,
  cycle: 400,
  cross_location: 400,
  unauthorized: 401,
  invalid_signature: 401,
  forbidden: 403,
  run_depth_limit: 403,
  webhook_disabled: 403,
  forbidden_host: 403,
  cross_origin: 403,
  not_found: 404,
  instance_in_use: 409,
  instance_busy: 409,
  default_instance: 409,
  tunnel_not_configured: 409,
  not_replayable: 409,
  refused_delivery: 409,
  over_budget: 409,
  already_decided: 409,
  expired: 409,
  remote_exists: 409,
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  too_many_connections: 429,
  too_many_streams: 429,
  internal_error: 500,
  remote_unreachable: 502,
  remote_unauthorized: 502,
  remote_incompatible: 502,
  remote_error: 502,
  source_unreachable: 502,
  queue_full: 503,
  storage_full: 503,
  storage_read_only: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export const errorCodes = Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]];

export const ErrorBody = z.object({
  error: z.object({
    code: z.enum(errorCodes),
    message: z.string(),
    field: z.string().optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** An expected failure with a code; thrown by services, mapped to a response at the boundary. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly field: string | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, message: string, options: { field?: string; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.field = options.field;
    this.headers = options.headers;
  }

  get status(): number {
    return errorStatus[this.code];
  }

  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message, ...(this.field ? { field: this.field } : {}) } };
  }
}

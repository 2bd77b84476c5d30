// Turns a trigger request's body into the text that replaces {{payload}}: JSON must parse, other
// text is taken as it is, binary is refused. The text is the body exactly as received.
import { AppError } from '../../../shared/errors';

const textTypes = [/^text\//, /^application\/(x-www-form-urlencoded|xml|yaml|x-yaml|x-ndjson|graphql|javascript)$/, /\+xml$/];

function isJsonType(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

function decode(body: Buffer, charset: string): string {
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(charset, { fatal: true, ignoreBOM: true });
  } catch {
    throw new AppError('unsupported_media_type', `The charset "${charset}" is not one Steward can read.`);
  }
  try {
    return decoder.decode(body);
  } catch {
    throw new AppError('unsupported_media_type', `The body is not valid ${charset} text; binary payloads are not accepted.`);
  }
}

/** The payload text of a POST body; throws invalid_json or unsupported_media_type. */
export function payloadFromBody(contentType: string | undefined, body: Buffer | undefined): string {
  if (!body || body.length === 0) return '';
  const [mediaPart = '', ...parameters] = (contentType ?? '').split(';');
  const mediaType = mediaPart.trim().toLowerCase();
  const charset = parameters
    .map((parameter) => parameter.trim().split('='))
    .find(([key]) => key?.toLowerCase() === 'charset')?.[1]
    ?.replace(/"/g, '')
    .trim() ?? 'utf-8';

  if (isJsonType(mediaType)) {
    const text = decode(body, charset);
    try {
      JSON.parse(text);
    } catch (error) {
      throw new AppError('invalid_json', `The body says it is JSON but does not parse: ${(error as Error).message}`);
    }
    return text;
  }
  if (mediaType === '' || textTypes.some((pattern) => pattern.test(mediaType))) return decode(body, charset);
  throw new AppError('unsupported_media_type', `Payloads of type ${mediaType} are not accepted; send JSON or text.`);
}

/** The payload text of a GET trigger: the query parameters as a JSON object, or "" for none. */
export function payloadFromQuery(query: Record<string, unknown>): string {
  return Object.keys(query).length === 0 ? '' : JSON.stringify(query);
}

// Turns a trigger request's body into the text that replaces {{payload}}: JSON must parse, other
// text is taken as it is, binary is refused. The text is the body exactly as received; the value
// beside it (parsed JSON, form fields, the query) is what {{payload.a.b}} and filters read.
import { AppError } from '../../../shared/errors';
import { jsonBodyText } from '../json-text';

export interface Payload {
  /** The text that replaces {{payload}}. */
  text: string;
  /** What fields are read from: parsed JSON, form fields, the query; undefined for other text. */
  value: unknown;
}

type Query = Record<string, string | string[]>;

/** Form fields as the query has them: a repeated name becomes a list. */
function formFields(text: string): Query {
  const fields: Query = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const known = fields[name];
    fields[name] = known === undefined ? value : Array.isArray(known) ? [...known, value] : [known, value];
  }
  return fields;
}

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

/** The payload of a POST body; throws invalid_json or unsupported_media_type. */
export function readPayload(contentType: string | undefined | null, body: Buffer | undefined): Payload {
  if (!body || body.length === 0) return { text: '', value: undefined };
  const [mediaPart = '', ...parameters] = (contentType ?? '').split(';');
  const mediaType = mediaPart.trim().toLowerCase();
  const charset = parameters
    .map((parameter) => parameter.trim().split('='))
    .find(([key]) => key?.toLowerCase() === 'charset')?.[1]
    ?.replace(/"/g, '')
    .trim() ?? 'utf-8';

  if (isJsonType(mediaType)) {
    // UTF-8 JSON is held to the API's rule: bad bytes and lone surrogates are invalid_json, with the offset.
    const text = /^utf-?8$/i.test(charset) ? jsonBodyText(body) : decode(body, charset);
    try {
      return { text, value: JSON.parse(text) as unknown };
    } catch (error) {
      throw new AppError('invalid_json', `The body says it is JSON but does not parse: ${(error as Error).message}`);
    }
  }
  if (mediaType === 'application/x-www-form-urlencoded') {
    const text = decode(body, charset);
    return { text, value: formFields(text) };
  }
  if (mediaType === '' || textTypes.some((pattern) => pattern.test(mediaType))) return { text: decode(body, charset), value: undefined };
  throw new AppError('unsupported_media_type', `Payloads of type ${mediaType} are not accepted; send JSON or text.`);
}

/** The payload text of a POST body; throws invalid_json or unsupported_media_type. */
export const payloadFromBody = (contentType: string | undefined, body: Buffer | undefined): string => readPayload(contentType, body).text;

/** The payload of a GET trigger: the query parameters as a JSON object, or "" for none. */
export function queryPayload(query: Query): Payload {
  return { text: Object.keys(query).length === 0 ? '' : JSON.stringify(query), value: query };
}

export const payloadFromQuery = (query: Query): string => queryPayload(query).text;

// Webhook prompt templates: `{{payload}}` (the body as received), `{{payload.a.b[0].c}}` (one field
// of a JSON or form body), `{{headers.name}}` and `{{query.name}}`. Parsed here, pure, so the
// contract checks a template at save time and the core renders what was checked.

/** One step into a JSON value: an object key or an array index. */
export type PathStep = string | number;

export type TemplatePart =
  | { kind: 'text'; text: string }
  | { kind: 'payload' }
  | { kind: 'field'; path: PathStep[]; source: string }
  | { kind: 'header'; name: string; source: string }
  | { kind: 'query'; name: string; source: string };

export type ParseResult<T> = { ok: true; value: T } | { ok: false; message: string };

// `{{payload` followed by `}}`, `.` or `[`; `{{headers.` and `{{query.` with a name. Anything else
// between braces (`{{ payload }}`, `{{payloads}}`, `{{other}}`) is plain text, as in the seed.
export const webhookPlaceholder = /\{\{(payload|headers|query)([.[][^{}]*)?\}\}/g;

const secretHeaders = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);
const secretPattern = /signature|secret|token|password|passwd|api[-_]?key|session|credential/;

/**
 * A header or query parameter that carries a credential (Authorization, cookies, signatures,
 * tokens): never inserted into a prompt, never a filter's subject, redacted in deliveries.
 */
export function isSecretName(name: string): boolean {
  const lower = name.toLowerCase();
  return secretHeaders.has(lower) || secretPattern.test(lower);
}

const nameStep = /^[^.[\]\s{}"]+/;

/** `a.b[0]["odd key"]` → ['a', 'b', 0, 'odd key']; `leading` says whether it starts with `.`/`[`. */
export function parsePath(text: string, leadingDot = false): ParseResult<PathStep[]> {
  const steps: PathStep[] = [];
  let rest = text;
  let first = !leadingDot;
  const fail = (why: string): ParseResult<PathStep[]> => ({ ok: false, message: `"${text}" is not a field path: ${why}` });
  if (rest === '') return fail('it is empty');
  while (rest !== '') {
    if (rest.startsWith('[')) {
      const index = /^\[(\d{1,9})\]/.exec(rest);
      if (index) {
        steps.push(Number(index[1]));
        rest = rest.slice(index[0].length);
      } else {
        const quoted = /^\[("(?:[^"\\]|\\.)*")\]/.exec(rest);
        if (!quoted) return fail('a [ must hold an index such as [0] or a quoted key such as ["a.b"]');
        try {
          steps.push(JSON.parse(quoted[1]) as string);
        } catch {
          return fail('the quoted key is not a valid JSON string');
        }
        rest = rest.slice(quoted[0].length);
      }
    } else {
      if (!first) {
        if (!rest.startsWith('.')) return fail(`unexpected "${rest[0]}"`);
        rest = rest.slice(1);
      }
      const name = nameStep.exec(rest);
      if (!name) return fail(rest === '' ? 'it ends with a dot' : `a name is missing before "${rest[0]}"`);
      steps.push(name[0]);
      rest = rest.slice(name[0].length);
    }
    first = false;
  }
  return { ok: true, value: steps };
}

const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const queryName = /^[^\s{}]+$/;

/** A header's name as a filter or placeholder names it; refused when it carries a credential. */
export function checkHeaderName(name: string): ParseResult<string> {
  if (!headerName.test(name)) return { ok: false, message: `"${name}" is not a header name` };
  if (isSecretName(name)) return { ok: false, message: `the ${name} header carries a credential and cannot be used` };
  return { ok: true, value: name.toLowerCase() };
}

export function checkQueryName(name: string): ParseResult<string> {
  if (!queryName.test(name)) return { ok: false, message: `"${name}" is not a query parameter name` };
  if (isSecretName(name)) return { ok: false, message: `the query parameter ${name} looks like a credential and cannot be used` };
  return { ok: true, value: name };
}

function parsePlaceholder(root: string, tail: string | undefined, source: string): ParseResult<TemplatePart> {
  if (root === 'payload') {
    if (tail === undefined) return { ok: true, value: { kind: 'payload' } };
    const path = parsePath(tail, true);
    return path.ok ? { ok: true, value: { kind: 'field', path: path.value, source } } : path;
  }
  if (tail === undefined || !tail.startsWith('.') || tail.length === 1) return { ok: false, message: `${source} names no ${root === 'headers' ? 'header' : 'query parameter'}` };
  const name = root === 'headers' ? checkHeaderName(tail.slice(1)) : checkQueryName(tail.slice(1));
  if (!name.ok) return name;
  return { ok: true, value: root === 'headers' ? { kind: 'header', name: name.value, source } : { kind: 'query', name: name.value, source } };
}

/**
 * The template in parts. `strict` (at save time) fails on the first malformed placeholder;
 * otherwise (rendering what is stored) a malformed one stays text, so no stored template breaks.
 */
export function parseTemplate(template: string, strict: true): ParseResult<TemplatePart[]>;
export function parseTemplate(template: string, strict?: false): { ok: true; value: TemplatePart[] };
export function parseTemplate(template: string, strict = false): ParseResult<TemplatePart[]> {
  const parts: TemplatePart[] = [];
  let last = 0;
  const text = (value: string) => {
    if (value === '') return;
    const previous = parts.at(-1);
    if (previous?.kind === 'text') previous.text += value;
    else parts.push({ kind: 'text', text: value });
  };
  for (const match of template.matchAll(webhookPlaceholder)) {
    text(template.slice(last, match.index));
    last = match.index + match[0].length;
    const parsed = parsePlaceholder(match[1], match[2], match[0]);
    if (parsed.ok) parts.push(parsed.value);
    else if (strict) return { ok: false, message: `${match[0]}: ${parsed.message}.` };
    else text(match[0]);
  }
  text(template.slice(last));
  return { ok: true, value: parts };
}

/** Whether the parts insert the payload, whole or as a field: a template must. */
export const usesPayload = (parts: TemplatePart[]): boolean => parts.some((part) => part.kind === 'payload' || part.kind === 'field');

/** The value at `path` inside `value`, or undefined when any step is missing. */
export function valueAt(value: unknown, path: readonly PathStep[]): unknown {
  let current = value;
  for (const step of path) {
    if (current === null || typeof current !== 'object') return undefined;
    if (typeof step === 'number') {
      if (!Array.isArray(current)) return undefined;
      current = current[step];
    } else {
      if (Array.isArray(current) || !Object.hasOwn(current, step)) return undefined;
      current = (current as Record<string, unknown>)[step];
    }
  }
  return current;
}

/** Strings as they are, anything else as compact JSON, missing as undefined. */
export function fieldText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

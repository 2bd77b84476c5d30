// How a trigger body becomes the {{payload}} text, and how the template is filled.
import { describe, expect, it } from 'vitest';
import { payloadFromBody, payloadFromQuery } from '../../src/main/core/services/trigger-payload';
import { renderTemplate } from '../../src/main/core/services/triggers';
import { AppError } from '../../src/shared/errors';

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof AppError ? error.code : 'other';
  }
  return 'none';
};

describe('renderTemplate', () => {
  it('replaces every placeholder literally, $ patterns included', () => {
    expect(renderTemplate('a {{payload}} b {{payload}}', "$& $' $` $$ $1")).toBe("a $& $' $` $$ $1 b $& $' $` $$ $1");
    expect(renderTemplate('{{payload}}{{payload}}', '{{payload}}')).toBe('{{payload}}{{payload}}');
    expect(renderTemplate('x {{payload}}', '')).toBe('x ');
  });
});

describe('payloadFromBody', () => {
  const bytes = (text: string) => Buffer.from(text);

  it('keeps JSON exactly as sent', () => {
    const text = '{ "b":1,  "a" : [ 1.50 ] }';
    expect(payloadFromBody('application/json', bytes(text))).toBe(text);
    expect(payloadFromBody('application/json; charset=UTF-8', bytes(text))).toBe(text);
    expect(payloadFromBody('application/cloudevents+json', bytes(text))).toBe(text);
  });

  it('keeps a byte order mark', () => {
    expect(payloadFromBody('text/plain', Buffer.from([0xef, 0xbb, 0xbf, 0x61]))).toBe('\ufeffa');
  });

  it('refuses JSON that does not parse', () => {
    expect(code(() => payloadFromBody('application/json', bytes('{')))).toBe('invalid_json');
  });

  it('takes text types and a missing type as text, and decodes declared charsets', () => {
    expect(payloadFromBody('text/csv', bytes('a,b'))).toBe('a,b');
    expect(payloadFromBody(undefined, bytes('plain'))).toBe('plain');
    expect(payloadFromBody('application/xml', bytes('<a/>'))).toBe('<a/>');
    expect(payloadFromBody('text/plain; charset=iso-8859-1', Buffer.from([0x63, 0x61, 0x66, 0xe9]))).toBe('café');
  });

  it('refuses binary types, invalid UTF-8 and unknown charsets with unsupported_media_type', () => {
    expect(code(() => payloadFromBody('application/octet-stream', bytes('x')))).toBe('unsupported_media_type');
    expect(code(() => payloadFromBody('image/png', bytes('x')))).toBe('unsupported_media_type');
    expect(code(() => payloadFromBody('text/plain', Buffer.from([0xc3, 0x28])))).toBe('unsupported_media_type');
    expect(code(() => payloadFromBody('text/plain; charset=klingon', bytes('x')))).toBe('unsupported_media_type');
  });

  it('gives the empty string for an empty body', () => {
    expect(payloadFromBody('application/json', Buffer.alloc(0))).toBe('');
    expect(payloadFromBody(undefined, undefined)).toBe('');
  });
});

describe('payloadFromQuery', () => {
  it('is a JSON object of the parameters, or empty', () => {
    expect(payloadFromQuery({})).toBe('');
    expect(JSON.parse(payloadFromQuery({ a: '1', b: ['x', 'y'] }))).toEqual({ a: '1', b: ['x', 'y'] });
  });
});

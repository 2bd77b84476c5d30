// Template placeholders and field paths: what parses, what is refused at save time, what a stored
// template that no longer parses renders as, and how field values become text.
import { describe, expect, it } from 'vitest';
import { fieldText, isSecretName, parsePath, parseTemplate, usesPayload, valueAt } from '../../src/shared/webhook-template';

describe('parsePath', () => {
  it('reads names, indexes and quoted keys', () => {
    expect(parsePath('a.b[0].c')).toEqual({ ok: true, value: ['a', 'b', 0, 'c'] });
    expect(parsePath('[2]["x.y"].z-1')).toEqual({ ok: true, value: [2, 'x.y', 'z-1'] });
    expect(parsePath('.a', true)).toEqual({ ok: true, value: ['a'] });
  });

  it('refuses malformed paths with a reason', () => {
    for (const path of ['', 'a.', 'a..b', '.a', 'a[', 'a[x]', 'a b', 'a[-1]', 'a["x]', 'a]']) {
      const parsed = parsePath(path);
      expect(parsed.ok, path).toBe(false);
      if (!parsed.ok) expect(parsed.message).toContain('is not a field path');
    }
  });
});

describe('parseTemplate', () => {
  it('splits text and placeholders', () => {
    expect(parseTemplate('A {{payload}} {{payload.a[1]}} {{headers.X-Event}} {{query.q}}!', true)).toEqual({
      ok: true,
      value: [
        { kind: 'text', text: 'A ' },
        { kind: 'payload' },
        { kind: 'text', text: ' ' },
        { kind: 'field', path: ['a', 1], source: '{{payload.a[1]}}' },
        { kind: 'text', text: ' ' },
        { kind: 'header', name: 'x-event', source: '{{headers.X-Event}}' },
        { kind: 'text', text: ' ' },
        { kind: 'query', name: 'q', source: '{{query.q}}' },
        { kind: 'text', text: '!' },
      ],
    });
  });

  it('refuses malformed placeholders and credential headers when strict, keeps them as text otherwise', () => {
    for (const template of ['{{payload.}}', '{{headers}}', '{{headers.authorization}}', '{{query.api_key}}', '{{payload[x]}}']) {
      expect(parseTemplate(template, true).ok, template).toBe(false);
      expect(parseTemplate(template).value, template).toEqual([{ kind: 'text', text: template }]);
    }
  });

  it('knows whether the payload is used', () => {
    expect(usesPayload(parseTemplate('{{headers.a}}').value)).toBe(false);
    expect(usesPayload(parseTemplate('{{payload.a}}').value)).toBe(true);
    expect(usesPayload(parseTemplate('{{ payload }}').value)).toBe(false);
  });
});

describe('field values', () => {
  const value = { a: { b: [{ c: 'x' }, 2] }, n: null, t: true, o: { k: 1 } };
  it('are strings as they are, other values as compact JSON, missing as undefined', () => {
    expect(fieldText(valueAt(value, ['a', 'b', 0, 'c']))).toBe('x');
    expect(fieldText(valueAt(value, ['a', 'b', 1]))).toBe('2');
    expect(fieldText(valueAt(value, ['n']))).toBe('null');
    expect(fieldText(valueAt(value, ['t']))).toBe('true');
    expect(fieldText(valueAt(value, ['o']))).toBe('{"k":1}');
    expect(valueAt(value, ['a', 'b', 5])).toBeUndefined();
    expect(valueAt(value, ['a', 0])).toBeUndefined();
    expect(valueAt(value, ['toString'])).toBeUndefined();
    expect(valueAt('text', ['length'])).toBeUndefined();
  });
});

describe('isSecretName', () => {
  it('covers credentials and nothing ordinary', () => {
    for (const name of ['Authorization', 'cookie', 'X-Hub-Signature-256', 'stripe-signature', 'webhook-signature', 'x-slack-signature', 'X-Gitlab-Token', 'x-api-key', 'api_key']) expect(isSecretName(name), name).toBe(true);
    for (const name of ['x-github-event', 'x-github-delivery', 'content-type', 'user-agent', 'x-slack-request-timestamp', 'webhook-id']) expect(isSecretName(name), name).toBe(false);
  });
});

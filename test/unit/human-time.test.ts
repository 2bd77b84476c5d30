// Times on the decision link's pages, in words and UTC: "in 55 minutes, at 14:05 UTC".
import { describe, expect, it } from 'vitest';
import { clockUtc, relativeUtc, spanWords } from '../../src/shared/human-time';

const now = new Date('2026-11-27T13:10:00.000Z');

describe('human times', () => {
  it('says a span in words', () => {
    expect(spanWords(20_000)).toBe('less than a minute');
    expect(spanWords(60_000)).toBe('1 minute');
    expect(spanWords(55 * 60_000 + 30_000)).toBe('55 minutes');
    expect(spanWords(3_600_000)).toBe('1 hour');
    expect(spanWords(2 * 3_600_000 + 5 * 60_000)).toBe('2 hours 5 minutes');
    expect(spanWords(-3 * 86_400_000)).toBe('3 days');
  });

  it('says when, ahead or past, with the UTC clock time and the day when it is not today', () => {
    expect(relativeUtc('2026-11-27T14:05:00.000Z', now)).toBe('in 55 minutes, at 14:05 UTC');
    expect(relativeUtc('2026-11-27T13:07:00.000Z', now)).toBe('3 minutes ago, at 13:07 UTC');
    expect(relativeUtc(now.toISOString(), now)).toBe('less than a minute ago, at 13:10 UTC');
    expect(clockUtc(new Date('2026-11-28T09:00:00.000Z'), now)).toBe('28 Nov 09:00 UTC');
    expect(clockUtc(new Date('2027-01-02T09:00:00.000Z'), now)).toBe('2 Jan 2027 09:00 UTC');
  });
});

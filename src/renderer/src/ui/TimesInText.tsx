// Steward's own lines (a retry's "Retrying at 2026-05-04T09:30:00Z …") carry UTC ISO times, which
// the CLI and notifications keep; on screen each reads as local time, the exact ISO on hover.
import type { ReactNode } from 'react';

const isoTime = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?Z\b/g;
const local = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The text with each ISO time shown in local words, inside a <time> whose title is the ISO. */
export function TimesInText({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let from = 0;
  for (const match of text.matchAll(isoTime)) {
    const at = new Date(match[0]);
    if (Number.isNaN(at.getTime())) continue;
    parts.push(text.slice(from, match.index), <time key={match.index} dateTime={match[0]} title={match[0]}>{local.format(at)}</time>);
    from = match.index + match[0].length;
  }
  if (parts.length === 0) return <>{text}</>;
  parts.push(text.slice(from));
  return <>{parts}</>;
}

// A message (a server's error) whose ISO timestamps read as local times, the ISO kept in the
// tooltip: "… (since 2026-11-27T07:01:02.003Z)" shows "… (since 27/11/2026, 08:01:02)".
import type { ReactNode } from 'react';
import { formatTime } from '../../ui/widgets';

const isoTime = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})/g;

export function TimedText({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let from = 0;
  for (const match of text.matchAll(isoTime)) {
    const at = match.index;
    parts.push(text.slice(from, at), <time key={at} dateTime={match[0]} title={match[0]}>{formatTime(match[0])}</time>);
    from = at + match[0].length;
  }
  parts.push(text.slice(from));
  return <>{parts}</>;
}

// Human forms shared by the core (activity lines, run notifications) and the UI (the run page).

/** One line of text: whitespace collapsed, long text cut with an ellipsis. */
export function oneLine(text: string, max = 300): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** "250 ms", "12.3 s", "2 min 5 s", "1 h 2 min"; rounded once, so 59.96 s is "1 min 0 s", never "60.0 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (Math.round(ms / 100) < 600) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min ${seconds % 60} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

// The navigation's "Needs you" entry with the count of pending requests. Its name reads "Needs you,
// 2 waiting" (or ", nothing waiting") and holds what is seen ("Needs you 2"), so speech input
// that says the visible words still finds it. Its own file: the navigation must not pull in the
// lazily loaded view.
export const needsYouName = (count: number): string => `Needs you, ${count === 0 ? 'nothing' : count} waiting`;

export function NeedsYouLink({ count, current }: { count: number; current: boolean }) {
  return (
    <a href="#/needs-you" aria-current={current ? 'page' : undefined} aria-label={needsYouName(count)}>
      Needs you{count > 0 && <> <span className="count">{count}</span></>}
    </a>
  );
}

// A box that scrolls sideways on its own when what it holds (a table) is wider than the window, so
// the page does not. It is a labelled region that takes the focus, so a keyboard can scroll it.
import type { ReactNode } from 'react';

export function ScrollBox({ label, children }: { label: string; children: ReactNode }) {
  return (
    // A scrolling region is reached by keyboard only when it takes the focus.
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

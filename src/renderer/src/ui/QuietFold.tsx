// One line standing for the quiet runs of an automation (or webhook) on one day — "Daily digest: 3
// runs, nothing to report" — that opens to show them.
import { type ReactNode, useState } from 'react';
import { useApp } from '../lib/app-context';
import { Time } from './widgets';

/** The name of the automation or webhook a fold stands for. */
function useSourceName(sourceId: string): string {
  const { automations, webhooks } = useApp();
  return automations.find((each) => each.id === sourceId)?.name ?? webhooks.find((each) => each.id === sourceId)?.name ?? 'A deleted automation';
}

/** `as`: a table row (the run list) or a feed line; `children`: what it shows when open. */
export function QuietFold({ sourceId, runs, at, as, children }: { sourceId: string; runs: number; at: string; as: 'row' | 'line'; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const name = useSourceName(sourceId);
  const toggle = (
    <button type="button" className="link" aria-expanded={open} onClick={() => setOpen(!open)}>
      {name}: {runs} {runs === 1 ? 'run' : 'runs'}, nothing to report
    </button>
  );
  if (as === 'row') {
    return (
      <>
        <tr className="quiet-fold">
          <td><Time iso={at} /></td>
          <td colSpan={4}><span className="tag">quiet</span>{toggle}</td>
        </tr>
        {open && children}
      </>
    );
  }
  return (
    <>
      <div className="line quiet-fold" data-kind="system">
        <Time iso={at} />
        <span><span className="tag">quiet</span>{toggle}</span>
      </div>
      {open && children}
    </>
  );
}

// What the agent said came of its run (report_outcome), as a badge: words and a shape, not colour alone.
import type { Outcome } from '../../../../shared/contract';

export const outcomeWords: Record<Outcome, string> = { nothing_to_report: 'Nothing to report', done: 'Done', needs_attention: 'Needs attention' };
const outcomeIcons: Record<Outcome, string> = { nothing_to_report: '○', done: '✓', needs_attention: '⚑' };

export function OutcomeBadge({ outcome }: { outcome: Outcome }) {
  return (
    <span className={`badge outcome ${outcome}`}>
      <span aria-hidden="true">{outcomeIcons[outcome]} </span>
      {outcomeWords[outcome]}
    </span>
  );
}

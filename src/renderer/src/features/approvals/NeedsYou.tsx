// "Needs you" (#/needs-you): every pending request, newest first, each with its controls; gone the
// moment it is decided anywhere.
import { Empty } from '../../ui/widgets';
import { useApp } from '../../lib/app-context';
import { ApprovalRequest } from './ApprovalRequest';

export function NeedsYou() {
  const { approvals } = useApp();
  return (
    <section aria-labelledby="needs-you-title">
      <h2 id="needs-you-title">Needs you</h2>
      {approvals === undefined ? (
        <div className="hint">Loading…</div>
      ) : approvals.length === 0 ? (
        <Empty title="Nothing waits for you">
          A run whose automation or webhook asks before it starts, an agent that asks before it acts, and an agent's question appear here.
        </Empty>
      ) : (
        approvals.map((approval) => <ApprovalRequest key={approval.id} approval={approval} />)
      )}
    </section>
  );
}

// Automations: the list of cards (AutomationCard.tsx), and the form to create or edit one
// (AutomationEditor.tsx).
import { useState } from 'react';
import { AutomationEditor } from './AutomationEditor';
import { AutomationCard } from './AutomationCard';
import { Empty } from '../../ui/widgets';
import { useApp } from '../../lib/app-context';
import type { Automation } from '../../../../shared/contract';

/** Brings a card into view and gives it the focus, so the keyboard goes on from there. */
function showCard(id: string): void {
  const card = document.getElementById(`automation-${id}`);
  card?.scrollIntoView?.({ block: 'start' });
  card?.focus({ preventScroll: true });
}

/** Said at the top of the list: a source that stopped listening must not wait below the fold to be seen. */
function NotListening({ automations }: { automations: Automation[] }) {
  const failing = automations.filter((automation) => automation.enabled && automation.source?.state === 'failing');
  if (failing.length === 0) return null;
  return (
    <div className="alert error" role="alert" data-testid="not-listening">
      <strong>{failing.length === 1 ? '1 automation is not listening' : `${failing.length} automations are not listening`}:</strong>{' '}
      {failing.map((automation, index) => (
        <span key={automation.id}>
          {index > 0 && ', '}
          {/* A button, not href="#…": the view's own address is the hash, so a fragment link would navigate away. */}
          <button type="button" className="link" onClick={() => showCard(automation.id)}>{automation.name}</button>
        </span>
      ))}
      . Their sources fail and are retried; what arrives meanwhile runs once they listen again.
    </div>
  );
}

export function Automations() {
  const { automations } = useApp();
  const [editing, setEditing] = useState<string | undefined>();
  return (
    <section aria-labelledby="automations-title">
      <div className="bar">
        <h2 id="automations-title">Automations</h2>
        <span className="spacer" />
        <button className="primary" onClick={() => setEditing('new')}>New automation</button>
      </div>
      <NotListening automations={automations} />
      {editing === 'new' && <AutomationEditor onDone={() => setEditing(undefined)} />}
      {automations.length === 0 && editing !== 'new' ? (
        <Empty title="No automations yet">
          An automation gives an agent a prompt on a schedule — say every weekday at 9:00. <button onClick={() => setEditing('new')}>Create your first</button>
        </Empty>
      ) : (
        automations.map((automation) =>
          editing === automation.id ? (
            <AutomationEditor key={automation.id} automation={automation} onDone={() => setEditing(undefined)} />
          ) : (
            <AutomationCard key={automation.id} automation={automation} onEdit={() => setEditing(automation.id)} />
          ),
        )
      )}
    </section>
  );
}

// Automations: the list of cards (AutomationCard.tsx), and the form to create or edit one
// (AutomationEditor.tsx).
import { useState } from 'react';
import { AutomationEditor } from './AutomationEditor';
import { AutomationCard } from './AutomationCard';
import { Empty } from '../../ui/widgets';
import { useApp } from '../../lib/app-context';

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

// The two forms that set an instance's agent, sandbox, permissions and budget: a new instance
// (sandboxed unless told otherwise), and "Edit agent" on a card (the whole sandbox, permissions and
// budget sent again; a changed agent or sandbox is probed again).
import { useState } from 'react';
import { type AgentConfig, type Instance, bypassPermissions, defaultSandbox } from '../../../../shared/contract';
import { useApp } from '../../lib/app-context';
import { cannotSandbox } from '../sandbox/sandbox';
import { AgentFields } from './AgentFields';
import { SandboxFields, useSandboxDraft } from '../sandbox/SandboxFields';
import { BudgetFields, useBudgetDraft } from '../reliability/BudgetFields';
import { PermissionsFields, usePermissionsDraft } from '../approvals/PermissionsFields';
import { ErrorLine, Field, useAction, useEscape } from '../../ui/widgets';

export function NewInstance({ onDone }: { onDone: () => void }) {
  useEscape(true, onDone);
  const { createInstance, settings } = useApp();
  const [name, setName] = useState('');
  const [agent, setAgent] = useState<AgentConfig>(settings?.defaultAgent ?? { provider: 'command', preset: 'claude-code' });
  const draft = useSandboxDraft(defaultSandbox);
  const budgetDraft = useBudgetDraft({});
  const permissionsDraft = usePermissionsDraft(bypassPermissions);
  const action = useAction();
  const submit = () => {
    const sandbox = draft.ready();
    const budget = budgetDraft.ready();
    const permissions = permissionsDraft.ready();
    if (!sandbox || !budget || !permissions) return;
    void action.run(async () => {
      await createInstance({ name, agent, sandbox, budget, permissions });
      onDone();
    });
  };
  return (
    <form className="card" aria-label="New instance" onSubmit={(event) => { event.preventDefault(); submit(); }}>
      <Field label="Name" error={action.errorFor('name')}>
        <input value={name} onChange={(event) => setName(event.target.value)} placeholder="Home server" />
      </Field>
      <AgentFields agent={agent} onChange={setAgent} errorFor={action.errorFor} />
      <SandboxFields sandbox={draft.sandbox} onChange={draft.setSandbox} errorFor={action.errorFor} problem={draft.problem} />
      <PermissionsFields permissions={permissionsDraft} agent={agent} errorFor={action.errorFor} />
      <BudgetFields budget={budgetDraft} errorFor={action.errorFor} agent={agent} dayIn="UTC" />
      <ErrorLine message={action.generalError(['name', 'agent', 'sandbox', 'budget', 'permissions'])} />
      <div className="bar">
        <button className="primary" type="submit" disabled={action.busy}>Create instance</button>
        <button type="button" onClick={onDone}>Cancel</button>
      </div>
    </form>
  );
}

/** "Edit agent": the instance's agent and sandbox in the same form as a new instance's; saving probes it again. */
export function AgentEditor({ instance, onDone }: { instance: Instance; onDone: () => void }) {
  useEscape(true, onDone);
  const { updateInstance } = useApp();
  const [agent, setAgent] = useState<AgentConfig>(instance.agent);
  const draft = useSandboxDraft(instance.sandbox);
  const budgetDraft = useBudgetDraft(instance.budget);
  const permissionsDraft = usePermissionsDraft(instance.permissions);
  const action = useAction();
  const submit = () => {
    const sandbox = draft.ready();
    const budget = budgetDraft.ready();
    const permissions = permissionsDraft.ready();
    if (!sandbox || !budget || !permissions) return;
    void action.run(async () => {
      await updateInstance(instance.id, { agent, sandbox, budget, permissions });
      onDone();
    });
  };
  return (
    <form className="card nested" aria-label={`Agent of ${instance.name}`} onSubmit={(event) => { event.preventDefault(); submit(); }}>
      <AgentFields agent={agent} onChange={setAgent} errorFor={action.errorFor} />
      <SandboxFields sandbox={draft.sandbox} onChange={draft.setSandbox} errorFor={action.errorFor} problem={draft.problem} unavailable={cannotSandbox(instance) ? instance.statusReason : undefined} />
      <PermissionsFields permissions={permissionsDraft} agent={agent} errorFor={action.errorFor} />
      <BudgetFields budget={budgetDraft} errorFor={action.errorFor} agent={agent} dayIn="UTC" />
      <div className="hint">Saving checks the agent again; a run already running finishes on the agent and sandbox it started with, the next runs use these.</div>
      <ErrorLine message={action.generalError(['agent', 'sandbox', 'budget', 'permissions'])} />
      <div className="bar" style={{ marginTop: 8, marginBottom: 0 }}>
        <button className="primary" type="submit" disabled={action.busy}>Save agent</button>
        <button type="button" onClick={onDone}>Cancel</button>
      </div>
    </form>
  );
}

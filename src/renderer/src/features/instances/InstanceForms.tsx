// The two forms that set an instance's agent, sandbox, permissions, budget and the instances whose
// runs may prompt it: a new instance (sandboxed unless told otherwise), and "Edit agent" on a card
// (the whole sandbox, permissions, budget and senders sent again; a changed agent or sandbox is
// probed again; one that came from a file asks first whether the change goes back to it).
import { useState } from 'react';
import { type AgentConfig, type Instance, bypassPermissions, defaultSandbox } from '../../../../shared/contract';
import { useApp } from '../../lib/app-context';
import { cannotSandbox } from '../sandbox/sandbox';
import { AcceptsPromptsFields } from './AcceptsPromptsFields';
import { AgentFields } from './AgentFields';
import { SandboxFields, useSandboxDraft } from '../sandbox/SandboxFields';
import { BudgetFields, useBudgetDraft } from '../reliability/BudgetFields';
import { PermissionsFields, usePermissionsDraft } from '../approvals/PermissionsFields';
import { ErrorLine, Field, useAction, useEscape } from '../../ui/widgets';
import { useFocusOnOpen } from '../../ui/form-errors';
import { useManagedSave } from '../config/ManagedSave';

export function NewInstance({ onDone }: { onDone: () => void }) {
  useEscape(true, onDone);
  const { createInstance, settings } = useApp();
  const [name, setName] = useState('');
  const [agent, setAgent] = useState<AgentConfig>(settings?.defaultAgent ?? { provider: 'command', preset: 'claude-code' });
  const draft = useSandboxDraft(defaultSandbox);
  const budgetDraft = useBudgetDraft({});
  const permissionsDraft = usePermissionsDraft(bypassPermissions);
  const [acceptsPromptsFrom, setAcceptsPromptsFrom] = useState<string[]>([]);
  const action = useAction();
  useFocusOnOpen(action.formRef);
  const submit = () => {
    const sandbox = draft.ready();
    const budget = budgetDraft.ready();
    const permissions = permissionsDraft.ready();
    if (!sandbox || !budget || !permissions) return action.refused();
    void action.run(async () => {
      await createInstance({ name, agent, sandbox, budget, permissions, acceptsPromptsFrom });
      onDone();
    });
  };
  return (
    <form noValidate ref={action.formRef} className="card" aria-label="New instance" onSubmit={(event) => { event.preventDefault(); submit(); }}>
      <Field label="Name" error={action.errorFor('name')}>
        <input value={name} onChange={(event) => setName(event.target.value)} placeholder="Home server" />
      </Field>
      <AgentFields agent={agent} onChange={setAgent} errorFor={action.errorFor} />
      <SandboxFields sandbox={draft.sandbox} onChange={draft.setSandbox} errorFor={action.errorFor} problem={draft.problem} />
      <PermissionsFields permissions={permissionsDraft} agent={agent} errorFor={action.errorFor} />
      <BudgetFields budget={budgetDraft} errorFor={action.errorFor} agent={agent} dayIn="UTC" />
      <AcceptsPromptsFields self={{ sandbox: draft.sandbox, permissions: { mode: permissionsDraft.mode } }} value={acceptsPromptsFrom} onChange={setAcceptsPromptsFrom} errorFor={action.errorFor} />
      <ErrorLine message={action.generalError(['name', 'agent', 'sandbox', 'budget', 'permissions', 'acceptsPromptsFrom'])} />
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
  // An instance a remote Steward answered for may not know the field.
  const [acceptsPromptsFrom, setAcceptsPromptsFrom] = useState<string[]>(instance.acceptsPromptsFrom ?? []);
  const action = useAction();
  const managed = useManagedSave(instance.id);
  useFocusOnOpen(action.formRef);
  const submit = () => {
    const sandbox = draft.ready();
    const budget = budgetDraft.ready();
    const permissions = permissionsDraft.ready();
    if (!sandbox || !budget || !permissions) return action.refused();
    managed.submit(async () => (await action.run(() => updateInstance(instance.id, { agent, sandbox, budget, permissions, acceptsPromptsFrom }))) !== undefined, onDone);
  };
  return (
    <form noValidate ref={action.formRef} className="card nested" aria-label={`Agent of ${instance.name}`} onSubmit={(event) => { event.preventDefault(); submit(); }}>
      <AgentFields agent={agent} onChange={setAgent} errorFor={action.errorFor} />
      <SandboxFields sandbox={draft.sandbox} onChange={draft.setSandbox} errorFor={action.errorFor} problem={draft.problem} unavailable={cannotSandbox(instance) ? instance.statusReason : undefined} />
      <PermissionsFields permissions={permissionsDraft} agent={agent} errorFor={action.errorFor} />
      <BudgetFields budget={budgetDraft} errorFor={action.errorFor} agent={agent} dayIn="UTC" />
      <AcceptsPromptsFields selfId={instance.id} self={{ sandbox: draft.sandbox, permissions: { mode: permissionsDraft.mode } }} value={acceptsPromptsFrom} onChange={setAcceptsPromptsFrom} errorFor={action.errorFor} />
      <div className="hint">Saving checks the agent again; a run already running finishes on the agent and sandbox it started with, the next runs use these.</div>
      <ErrorLine message={action.generalError(['agent', 'sandbox', 'budget', 'permissions', 'acceptsPromptsFrom'])} />
      <div className="bar" style={{ marginTop: 8, marginBottom: 0 }}>
        <button className="primary" type="submit" disabled={action.busy}>Save agent</button>
        <button type="button" onClick={onDone}>Cancel</button>
      </div>
      {managed.dialog}
    </form>
  );
}

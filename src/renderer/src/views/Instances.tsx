// Instances: cards with avatar, name, status, image tag and fqdn; rename, avatar, "Edit agent"
// (the same agent form as a new instance; a change is probed again); start and stop; chat.
import { useState } from 'react';
import type { AgentConfig, Instance } from '../../../shared/contract';
import { AgentFields, describeAgent } from '../components/AgentFields';
import { Avatar, Badge, ConfirmButton, ErrorLine, Field, useAction } from '../components/ui';
import { useApp } from '../lib/app-context';

function NewInstance({ onDone }: { onDone: () => void }) {
  const { createInstance, settings } = useApp();
  const [name, setName] = useState('');
  const [agent, setAgent] = useState<AgentConfig>(settings?.defaultAgent ?? { provider: 'command', preset: 'claude-code' });
  const action = useAction();
  return (
    <form className="card" aria-label="New instance" onSubmit={(event) => { event.preventDefault(); void action.run(async () => { await createInstance({ name, agent }); onDone(); }); }}>
      <Field label="Name" error={action.errorFor('name')}>
        <input value={name} onChange={(event) => setName(event.target.value)} placeholder="Home server" />
      </Field>
      <AgentFields agent={agent} onChange={setAgent} errorFor={action.errorFor} />
      <ErrorLine message={action.generalError(['name', 'agent'])} />
      <div className="bar">
        <button className="primary" type="submit" disabled={action.busy}>Create instance</button>
        <button type="button" onClick={onDone}>Cancel</button>
      </div>
    </form>
  );
}

/** "Edit agent": the instance's agent in the same form as a new instance's; saving probes it again. */
function AgentEditor({ instance, onDone }: { instance: Instance; onDone: () => void }) {
  const { updateInstance } = useApp();
  const [agent, setAgent] = useState<AgentConfig>(instance.agent);
  const action = useAction();
  return (
    <form className="card nested" aria-label={`Agent of ${instance.name}`} onSubmit={(event) => { event.preventDefault(); void action.run(async () => { await updateInstance(instance.id, { agent }); onDone(); }); }}>
      <AgentFields agent={agent} onChange={setAgent} errorFor={action.errorFor} />
      <div className="hint">Saving checks the agent again; a run already running finishes on the agent it started with, the next runs use this one.</div>
      <ErrorLine message={action.generalError(['agent'])} />
      <div className="bar" style={{ marginTop: 8, marginBottom: 0 }}>
        <button className="primary" type="submit" disabled={action.busy}>Save agent</button>
        <button type="button" onClick={onDone}>Cancel</button>
      </div>
    </form>
  );
}

function Card({ instance }: { instance: Instance }) {
  const { updateInstance, setInstanceRunning, deleteInstance, navigate } = useApp();
  const [editingAgent, setEditingAgent] = useState(false);
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(instance.name);
  const [avatarUrl, setAvatarUrl] = useState('');
  const action = useAction();
  return (
    <article className="card" aria-label={instance.name}>
      <div className="row">
        <Avatar url={instance.avatarUrl} name={instance.name} />
        <div style={{ flex: 1, minWidth: 0 }}>
          {renaming ? (
            <form className="row" onSubmit={(event) => { event.preventDefault(); void action.run(async () => { await updateInstance(instance.id, { name }); setRenaming(false); }); }}>
              <input aria-label="New name" value={name} onChange={(event) => setName(event.target.value)} autoFocus />
              <button className="primary" type="submit">Save</button>
            </form>
          ) : (
            <strong>{instance.name}</strong>
          )}
          <div className="hint mono">{instance.fqdn}</div>
        </div>
        <Badge status={instance.status} />
      </div>
      <div className="hint">Agent: <span className="mono">{describeAgent(instance.agent)}</span> {instance.imageTag && <>· <code>{instance.imageTag}</code></>}</div>
      {instance.statusReason && <div className="error">{instance.statusReason}</div>}
      <ErrorLine message={action.error?.message} />
      <div className="bar" style={{ marginTop: 8, marginBottom: 0 }}>
        <button onClick={() => navigate(`/chat/${instance.id}`)}>Chat</button>
        {!renaming && <button onClick={() => { setName(instance.name); setRenaming(true); }}>Rename</button>}
        {!editingAgent && <button onClick={() => setEditingAgent(true)}>Edit agent</button>}
        {instance.status === 'stopped' ? <button onClick={() => void action.run(() => setInstanceRunning(instance.id, true))}>Start</button> : <button onClick={() => void action.run(() => setInstanceRunning(instance.id, false))}>Stop</button>}
        {instance.status === 'error' && <button onClick={() => void action.run(() => setInstanceRunning(instance.id, true))}>Check again</button>}
        {!instance.isDefault && <ConfirmButton label="Delete" danger question={`Delete ${instance.name}?`} confirm="Delete" onConfirm={() => void action.run(() => deleteInstance(instance.id))} />}
      </div>
      {editingAgent && <AgentEditor instance={instance} onDone={() => setEditingAgent(false)} />}
      <form className="row" style={{ marginTop: 8 }} onSubmit={(event) => { event.preventDefault(); void action.run(async () => { await updateInstance(instance.id, { avatarUrl }); setAvatarUrl(''); }); }}>
        <input aria-label={`Avatar URL for ${instance.name}`} placeholder="https://… avatar (empty: initials)" value={avatarUrl} onChange={(event) => setAvatarUrl(event.target.value)} />
        <button type="submit">Set avatar</button>
      </form>
    </article>
  );
}

export function Instances() {
  const { instances } = useApp();
  const [adding, setAdding] = useState(false);
  return (
    <section aria-labelledby="instances-title">
      <div className="bar">
        <h2 id="instances-title">Instances</h2>
        <span className="spacer" />
        <button className="primary" onClick={() => setAdding(true)}>New instance</button>
      </div>
      {adding && <NewInstance onDone={() => setAdding(false)} />}
      <div className="cards">{instances.map((instance) => <Card key={instance.id} instance={instance} />)}</div>
    </section>
  );
}

// Instances: cards with avatar, name, status, sandbox, image tag and fqdn; rename, avatar, "Edit
// agent" (the same agent and sandbox form as a new instance; a change is probed again), "Sandbox it"
// for one that runs unsandboxed; start and stop; chat.
import { useState } from 'react';
import type { Instance } from '../../../../shared/contract';
import { describeAgent } from './AgentFields';
import { AgentEditor, NewInstance } from './InstanceForms';
import { SandboxBadge, SandboxIt } from '../sandbox/InstanceSandbox';
import { Avatar, Badge, ConfirmButton, ErrorLine, useAction } from '../../ui/widgets';
import { useApp } from '../../lib/app-context';

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
        <div className="badges">
          <Badge status={instance.status} />
          <SandboxBadge instance={instance} />
        </div>
      </div>
      <div className="hint">Agent: <span className="mono">{describeAgent(instance.agent)}</span> {instance.imageTag && <>· <code>{instance.imageTag}</code></>}</div>
      <SandboxIt instance={instance} />
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

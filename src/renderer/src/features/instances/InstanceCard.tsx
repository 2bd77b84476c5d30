// One instance's card: avatar, name, status, sandbox, image tag and fqdn; rename, avatar, "Edit
// agent" (the same agent and sandbox form as a new instance; a change is probed again), "Sandbox it"
// for one that runs unsandboxed; start and stop; chat. A remote Steward's instance carries its host
// instead of an fqdn; its agent, sandbox and secrets are that Steward's, so they are not edited
// here, and its Steward's default instance offers no Delete. While its Steward is away the card
// stays, quieter, and the reason is said once above it. One that came from a file says so, and a
// rename or avatar asks first whether the change goes back to the file (ManagedSave).
import { useEffect, useRef, useState } from 'react';
import type { Instance, Remote } from '../../../../shared/contract';
import { describeAgent } from './AgentFields';
import { HostBadge } from './HostBadge';
import { isRemote } from './instance-label';
import { AgentEditor } from './InstanceForms';
import { SandboxBadge, SandboxIt } from '../sandbox/InstanceSandbox';
import { Avatar, Badge, ConfirmButton, ErrorLine, useAction } from '../../ui/widgets';
import { useApp } from '../../lib/app-context';
import { FromFile } from '../config/FromFile';
import { useManagedSave } from '../config/ManagedSave';

/** `remote`: the Steward a remote instance runs on, when known; `openAgent`: open its agent form at its allowed hosts (a link's target). */
export function InstanceCard({ instance, remote, openAgent = false }: { instance: Instance; remote?: Remote | undefined; openAgent?: boolean }) {
  const { updateInstance, setInstanceRunning, deleteInstance, navigate } = useApp();
  const [editingAgent, setEditingAgent] = useState(openAgent);
  const card = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!openAgent) return;
    setEditingAgent(true);
    // Once the form is on the page: its Allowed hosts, in view.
    const timer = setTimeout(() => {
      const hosts = [...(card.current?.querySelectorAll('fieldset') ?? [])].find((each) => each.querySelector('legend')?.textContent === 'Allowed hosts');
      if (!hosts) return;
      if ('scrollIntoView' in hosts) hosts.scrollIntoView({ block: 'center' });
      hosts.querySelector<HTMLElement>('input, button')?.focus({ preventScroll: true });
    });
    return () => clearTimeout(timer);
  }, [openAgent]);
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(instance.name);
  const [avatarUrl, setAvatarUrl] = useState('');
  const action = useAction();
  const managed = useManagedSave(instance.id);
  const remoteOne = isRemote(instance);
  // Its Steward is away: the notice above says why, once for all its instances.
  const away = remote !== undefined && remote.state !== 'connected';
  return (
    <article ref={card} className={`${away ? 'card muted' : 'card'}${editingAgent ? ' wide' : ''}`} aria-label={instance.name}>
      <div className="row">
        <Avatar url={instance.avatarUrl} name={instance.name} />
        <div style={{ flex: 1, minWidth: 0 }}>
          {renaming ? (
            <form noValidate className="row" onSubmit={(event) => { event.preventDefault(); managed.submit(async () => (await action.run(() => updateInstance(instance.id, { name }))) !== undefined, () => setRenaming(false)); }}>
              <input aria-label="New name" value={name} onChange={(event) => setName(event.target.value)} autoFocus />
              <button className="primary" type="submit">Save</button>
            </form>
          ) : (
            <strong className="clamp" title={instance.name}>{instance.name}</strong>
          )}
          {!remoteOne && <div className="hint mono">{instance.fqdn}</div>}
          <FromFile id={instance.id} />
        </div>
        <div className="badges">
          <Badge status={away ? remote.state : instance.status} />
          <HostBadge instance={instance} />
          <SandboxBadge instance={instance} />
        </div>
      </div>
      <div className="hint">Agent: <span className="mono">{describeAgent(instance.agent)}</span> {instance.imageTag && <>· <code>{instance.imageTag}</code></>}</div>
      {remoteOne ? <div className="hint">Its agent, sandbox and secrets are set on {instance.fqdn}.</div> : <SandboxIt instance={instance} />}
      {instance.statusReason && !away && <div className="error">{instance.statusReason}</div>}
      <ErrorLine message={action.error?.message} />
      <div className="bar" style={{ marginTop: 8, marginBottom: 0 }}>
        <button onClick={() => navigate(`/chat/${instance.id}`)}>Chat</button>
        {!renaming && <button onClick={() => { setName(instance.name); setRenaming(true); }}>Rename</button>}
        {!editingAgent && !remoteOne && <button onClick={() => setEditingAgent(true)}>Edit agent</button>}
        {instance.status === 'stopped' ? <button onClick={() => void action.run(() => setInstanceRunning(instance.id, true))}>Start</button> : <button onClick={() => void action.run(() => setInstanceRunning(instance.id, false))}>Stop</button>}
        {instance.status === 'error' && !away && <button onClick={() => void action.run(() => setInstanceRunning(instance.id, true))}>Check again</button>}
        {instance.remoteDefault && <span className="hint" title={`The default instance of ${instance.fqdn}: that Steward does not let it be deleted.`}>Its Steward's default (not deletable)</span>}
        {!instance.isDefault && !instance.remoteDefault && <ConfirmButton label="Delete" danger question={remoteOne ? `Delete ${instance.name} on ${instance.fqdn}?` : `Delete ${instance.name}?`} confirm="Delete" onConfirm={() => void action.run(() => deleteInstance(instance.id))} />}
      </div>
      {editingAgent && <AgentEditor instance={instance} onDone={() => setEditingAgent(false)} />}
      <form noValidate className="row" style={{ marginTop: 8 }} onSubmit={(event) => { event.preventDefault(); managed.submit(async () => (await action.run(() => updateInstance(instance.id, { avatarUrl }))) !== undefined, () => setAvatarUrl('')); }}>
        <input aria-label={`Avatar URL for ${instance.name}`} placeholder="https://… avatar (empty: initials)" value={avatarUrl} onChange={(event) => setAvatarUrl(event.target.value)} />
        <button type="submit">Set avatar</button>
      </form>
      {managed.dialog}
    </article>
  );
}

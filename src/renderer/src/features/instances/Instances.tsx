// Instances: this Steward's cards, then each remote Steward's under its name and host, with one
// notice for a remote that is not connected (its cards stay, quieter); and "New instance".
import { useEffect, useState } from 'react';
import type { Instance, Remote } from '../../../../shared/contract';
import { InstanceCard } from './InstanceCard';
import { isRemote } from './instance-label';
import { NewInstance } from './InstanceForms';
import { RemoteNotice } from './RemoteNotice';
import { useApp } from '../../lib/app-context';

interface RemoteGroup {
  id: string;
  /** Undefined while the remotes are not loaded (or this one is unknown): its host names it. */
  remote: Remote | undefined;
  instances: Instance[];
}

/** Each remote's instances, the remotes in their order, and one group per location no loaded remote names. */
export function remoteGroups(instances: Instance[], remotes: Remote[] | undefined): RemoteGroup[] {
  const groups = new Map<string, RemoteGroup>((remotes ?? []).map((remote) => [remote.id, { id: remote.id, remote, instances: [] }]));
  for (const instance of instances.filter(isRemote)) {
    const group = groups.get(instance.location) ?? { id: instance.location, remote: undefined, instances: [] };
    group.instances.push(instance);
    groups.set(instance.location, group);
  }
  return [...groups.values()];
}

function RemoteSection({ group }: { group: RemoteGroup }) {
  const title = `remote-${group.id}`;
  return (
    <section className="remote-group" aria-labelledby={title}>
      <h3 id={title}>{group.remote?.name ?? 'Remote Steward'} <span className="hint mono">on {group.remote?.host ?? group.instances[0]?.fqdn}</span></h3>
      {group.remote && <RemoteNotice remote={group.remote} />}
      {group.instances.length === 0 && group.remote?.state === 'connected' && <div className="hint">No instances there yet.</div>}
      <div className="cards">{group.instances.map((instance) => <InstanceCard key={instance.id} instance={instance} remote={group.remote} />)}</div>
    </section>
  );
}

/** `agentOf`: the instance whose agent form opens at once (a link to its sandbox's allowed hosts). */
export function Instances({ agentOf }: { agentOf?: string | undefined } = {}) {
  const { instances, remotes, loadRemotes } = useApp();
  const [adding, setAdding] = useState(false);
  useEffect(() => {
    void loadRemotes().catch(() => undefined);
  }, [loadRemotes]);
  const groups = remoteGroups(instances, remotes);
  return (
    <section aria-labelledby="instances-title">
      <div className="bar">
        <h2 id="instances-title">Instances</h2>
        <span className="spacer" />
        <button className="primary" onClick={() => setAdding(true)}>New instance</button>
      </div>
      {adding && <NewInstance onDone={() => setAdding(false)} />}
      {groups.length > 0 && <h3>On this machine</h3>}
      <div className="cards">{instances.filter((instance) => !isRemote(instance)).map((instance) => <InstanceCard key={instance.id} instance={instance} openAgent={instance.id === agentOf} />)}</div>
      {groups.map((group) => <RemoteSection key={group.id} group={group} />)}
    </section>
  );
}

// "Remote Stewards" in Settings: the Stewards this one follows (name, host, the state of the
// connection and since when, version, latency, the last error), adding one (AddRemoteForm), and
// removing one after a confirmation. Live changes keep the states current (store/events.ts).
import { useState } from 'react';
import type { Remote } from '../../../../shared/contract';
import { useApp } from '../../lib/app-context';
import { AddRemoteForm } from './AddRemoteForm';
import { Badge, ConfirmButton, ErrorLine, Time, useAction } from '../../ui/widgets';
import { ScrollBox } from '../../ui/ScrollBox';

function RemoteRow({ remote, onRemove }: { remote: Remote; onRemove: () => void }) {
  const connected = remote.state === 'connected';
  return (
    <tr>
      <td>{remote.name}<div className="hint mono">{remote.url}</div></td>
      <td className="mono">{remote.host}</td>
      <td>
        <Badge status={remote.state} /> <span className="hint">since <Time iso={remote.since} /></span>
        {remote.error && <div className="error">{remote.error}</div>}
        {!connected && remote.lastConnectedAt && <div className="hint">last connected <Time iso={remote.lastConnectedAt} /></div>}
      </td>
      <td>{remote.version ?? '—'}</td>
      <td>{remote.latencyMs === null ? '—' : `${remote.latencyMs} ms`}</td>
      <td>{remote.instanceCount}</td>
      <td className="actions">
        <ConfirmButton label="Remove" danger question={`Stop following ${remote.name}? Its instances and their lines leave this Steward; nothing changes there.`} confirm="Remove" onConfirm={onRemove} />
      </td>
    </tr>
  );
}

export function RemoteStewards() {
  const { remotes, deleteRemote, toast } = useApp();
  const [adding, setAdding] = useState(false);
  const action = useAction();
  const remove = (remote: Remote) =>
    void action.run(async () => {
      await deleteRemote(remote.id);
      toast('success', `${remote.name} is no longer followed.`);
    });
  return (
    <div className="card">
      <div className="bar">
        <h3 id="remotes-title">Remote Stewards</h3>
        <span className="spacer" />
        <button onClick={() => setAdding(true)} disabled={adding}>Add remote</button>
      </div>
      <div className="hint" style={{ marginBottom: 8 }}>Follow Stewards on other machines: their instances show beside this one’s, and what you do with them happens there. Their keys stay here, encrypted.</div>
      <ErrorLine message={action.error?.message} />
      {adding && <AddRemoteForm onDone={() => setAdding(false)} />}
      {!remotes || remotes.length === 0 ? <div className="hint">{remotes ? 'No remote Stewards: only this machine’s instances are shown.' : 'Loading…'}</div> : (
        <ScrollBox label="Remote Stewards, the table">
        <table aria-labelledby="remotes-title">
          <thead><tr><th>Name</th><th>Host</th><th>State</th><th>Version</th><th>Latency</th><th>Instances</th><th><span className="visually-hidden">Actions</span></th></tr></thead>
          <tbody>{remotes.map((remote) => <RemoteRow key={remote.id} remote={remote} onRemove={() => remove(remote)} />)}</tbody>
        </table>
        </ScrollBox>
      )}
    </div>
  );
}

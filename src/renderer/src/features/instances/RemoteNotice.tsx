// What is said once for all the instances of a remote Steward that is not connected: its name,
// host, state, why and since when, and where to fix it. Its instances' cards do not repeat it; a
// chat with one of them says it the same way.
import type { Remote } from '../../../../shared/contract';
import { Badge, Time } from '../../ui/widgets';

/** `instancesBelow`: said above its instances' cards (Instances), not in a chat with one of them. */
export function RemoteNotice({ remote, instancesBelow = true }: { remote: Remote; instancesBelow?: boolean }) {
  if (remote.state === 'connected') return null;
  if (remote.state === 'connecting') return <div className="hint" role="status">Connecting to {remote.name} at {remote.host}…</div>;
  return (
    <div className="card remote-notice" role="alert" aria-label={`${remote.name} is ${remote.state}`}>
      <div className="row wrap">
        <strong>{remote.name}</strong> <Badge status={remote.state} /> <span className="hint">since <Time iso={remote.since} /></span>
      </div>
      <p className="error">{remote.error}</p>
      <p className="hint">
        {instancesBelow && remote.instanceCount > 0 ? 'Its instances below wait for it; ' : ''}Steward keeps trying{remote.lastConnectedAt ? <> (last connected <Time iso={remote.lastConnectedAt} />)</> : null}. See <a href="#/settings">Remote Stewards in Settings</a>.
      </p>
    </div>
  );
}

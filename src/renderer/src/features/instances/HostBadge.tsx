// The badge of an instance that runs on a remote Steward: the host it runs on. Local ones have none.
import type { Instance } from '../../../../shared/contract';
import { isRemote } from './instance-label';

export function HostBadge({ instance }: { instance: Pick<Instance, 'location' | 'fqdn'> }) {
  if (!isRemote(instance)) return null;
  return (
    <span className="badge host" title={`Runs on the Steward at ${instance.fqdn}`}>
      <span aria-hidden="true">⇄ </span>
      <span className="visually-hidden">runs on </span>
      {instance.fqdn}
    </span>
  );
}

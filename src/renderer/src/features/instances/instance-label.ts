// How an instance is named wherever one is chosen or listed: a remote Steward's instance carries
// the host it runs on, so two instances of the same name (each Steward has a "Steward") are told apart.
import type { Instance } from '../../../../shared/contract';

/** Whether the instance runs on a remote Steward rather than this one. */
export const isRemote = (instance: Pick<Instance, 'location'>): boolean => instance.location !== 'local';

/** "Builder", or "Builder (on build.example.com)" for a remote one. */
export const instanceLabel = (instance: Pick<Instance, 'name' | 'location' | 'fqdn'>): string =>
  isRemote(instance) ? `${instance.name} (on ${instance.fqdn})` : instance.name;

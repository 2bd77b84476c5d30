// Where an address leads, as the sandbox's rules see it: this machine (loopback, unspecified, and
// every address of its own interfaces: a LAN address reaches a service listening on 0.0.0.0 just as
// 127.0.0.1 does), link-local (cloud metadata), unroutable, a local network, or the internet.
// The interfaces are read at each decision: a laptop's address changes with its network.
import os from 'node:os';
import { type Address, type AddressKind, addressKind, parseAddress } from '../../../shared/addresses';

export type Destination = Exclude<AddressKind, 'loopback' | 'unspecified'> | 'this machine';

/** This machine's interface addresses, as parsed addresses. */
function ownAddresses(): Address[] {
  return Object.values(os.networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .map((entry) => parseAddress(entry.address))
    .filter((address) => address !== undefined);
}

const same = (a: Address, b: Address) => a.kind() === b.kind() && a.toNormalizedString() === b.toNormalizedString();

export function destinationOf(address: Address): Destination {
  const kind = addressKind(address);
  if (kind === 'loopback' || kind === 'unspecified') return 'this machine';
  // Its own link-local addresses stay link-local: never reachable, whoever they belong to.
  if (kind !== 'link-local' && ownAddresses().some((own) => same(own, address))) return 'this machine';
  return kind;
}

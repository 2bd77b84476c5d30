// Where an address leads, as the sandbox's rules see it: this machine (loopback, unspecified, and
// every address of its own interfaces: a LAN address reaches a service listening on 0.0.0.0 just as
// 127.0.0.1 does), link-local (cloud metadata), unroutable, a local network, or the internet.
// The interfaces are read again every second: a laptop's address changes with its network.
import os from 'node:os';
import { type Address, type AddressKind, addressKind, parseAddress } from '../../../shared/addresses';

export type Destination = Exclude<AddressKind, 'loopback' | 'unspecified'> | 'this machine';

/** How long the interfaces read stand: reading them costs a few hundred µs, and a proxy asks at every connection. */
const interfacesTtlMs = 1000;
let interfaces: { at: number; addresses: Address[] } | undefined;

/** This machine's interface addresses, as parsed addresses, read again after interfacesTtlMs. */
function ownAddresses(): Address[] {
  const now = Date.now();
  if (interfaces === undefined || now - interfaces.at > interfacesTtlMs || now < interfaces.at) {
    const addresses = Object.values(os.networkInterfaces())
      .flatMap((entries) => entries ?? [])
      .map((entry) => parseAddress(entry.address))
      .filter((address) => address !== undefined);
    interfaces = { at: now, addresses };
  }
  return interfaces.addresses;
}

const same = (a: Address, b: Address) => a.kind() === b.kind() && a.toNormalizedString() === b.toNormalizedString();

export function destinationOf(address: Address): Destination {
  const kind = addressKind(address);
  if (kind === 'loopback' || kind === 'unspecified') return 'this machine';
  // Its own link-local addresses stay link-local: never reachable, whoever they belong to.
  if (kind !== 'link-local' && ownAddresses().some((own) => same(own, address))) return 'this machine';
  return kind;
}

// What an address is, parsed rather than pattern-matched: every spelling a client could send
// (`127.1`, `0x7f.1`, `2130706433`, `[::ffff:7f00:1]`, `[0:0:0:0:0:0:0:1]`) is read the way the
// system's resolver reads it (inet_aton for IPv4, ipaddr.js for both), then put in one of a few
// kinds the sandbox's network rules decide on. Pure: the UI and the contract use it too; what the
// machine's own interfaces are is the core's to add (sandbox/addresses.ts).
import ipaddr from 'ipaddr.js';

export type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * - `loopback`: 127.0.0.0/8, ::1 — this machine.
 * - `unspecified`: 0.0.0.0/8, :: — a connection to it lands on this machine too.
 * - `link-local`: 169.254.0.0/16, fe80::/10 — cloud metadata (169.254.169.254) among them.
 * - `unroutable`: multicast and broadcast — never the endpoint of a connection.
 * - `private`: a local network (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7), and every other
 *   special-purpose range that is not the internet (documentation and benchmarking ranges,
 *   reserved ones: some networks use them as their LAN).
 * - `public`: the internet.
 */
export type AddressKind = 'loopback' | 'unspecified' | 'link-local' | 'unroutable' | 'private' | 'public';

/** A host as written in a URL, a CONNECT line or a rule: lower case, without brackets or a final dot. */
export function bareHost(host: string): string {
  return host.trim().replace(/^\[(.*)\]$/, '$1').toLowerCase().replace(/\.$/, '');
}

/**
 * The address a host names when it is an address literal, in any spelling a resolver accepts; an
 * IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) is its IPv4 address, which is where it connects.
 */
export function parseAddress(host: string): Address | undefined {
  const bare = bareHost(host);
  if (bare === '' || !ipaddr.isValid(bare)) return undefined;
  try {
    return ipaddr.process(bare);
  } catch {
    return undefined;
  }
}

/**
 * The IPv4 address carried inside an IPv6 one by a translation scheme (IPv4-compatible `::a.b.c.d`,
 * SIIT `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`): judged as that IPv4 address, the stricter way.
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const [a, b, c, d, e, f, g, h] = address.parts;
  const last = new ipaddr.IPv4([g >> 8, g & 0xff, h >> 8, h & 0xff]);
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0 && (g !== 0 || h > 1)) return last; // ::a.b.c.d
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0xffff && f === 0) return last; // ::ffff:0:a.b.c.d
  if (a === 0x64 && b === 0xff9b && c === 0 && d === 0 && e === 0 && f === 0) return last; // 64:ff9b::a.b.c.d
  return undefined;
}

/** Ranges that lead to the internet: global unicast, and the IPv6 transition schemes that tunnel to it. */
const publicRanges = new Set(['unicast', '6to4', 'teredo', 'rfc6052']);

/**
 * Cloud metadata services outside link-local: AWS's IPv6 one (in fd00::/8, unique local) and
 * Alibaba's (in 100.64.0.0/10, carrier-grade NAT). They answer credentials, so they are treated as
 * link-local: never reached, even when named.
 */
const metadataAddresses = new Set(['fd00:ec2:0:0:0:0:0:254', '100.100.100.200']);

export function addressKind(address: Address): AddressKind {
  if (metadataAddresses.has(address.toNormalizedString())) return 'link-local';
  if (address.kind() === 'ipv6') {
    const v6 = address as ipaddr.IPv6;
    const inner = v6.isIPv4MappedAddress() ? v6.toIPv4Address() : embeddedIPv4(v6);
    if (inner) return addressKind(inner);
  }
  const range: string = address.range();
  if (range === 'loopback') return 'loopback';
  if (range === 'unspecified') return 'unspecified';
  if (range === 'linkLocal') return 'link-local';
  if (range === 'multicast' || range === 'broadcast') return 'unroutable';
  if (publicRanges.has(range)) return 'public';
  // private, carrier-grade NAT, unique local, and every other special-purpose range (documentation,
  // benchmarking, reserved, any range ipaddr.js names later): not the internet, so named, never `*`.
  return 'private';
}

/** `localhost` and its subdomains: resolvers answer loopback for them without asking DNS. */
export const isLocalhostName = (host: string): boolean => {
  const bare = bareHost(host);
  return bare === 'localhost' || bare.endsWith('.localhost');
};

/** Whether a host names this machine by itself: a localhost name, a loopback or an unspecified address, in any spelling. */
export function namesThisMachine(host: string): boolean {
  if (isLocalhostName(host)) return true;
  const address = parseAddress(host);
  if (!address) return false;
  const kind = addressKind(address);
  return kind === 'loopback' || kind === 'unspecified';
}

/** An address as the network list and a URL write it: IPv6 in brackets, both in their short canonical form. */
export function addressEntry(address: Address): string {
  return address.kind() === 'ipv6' ? `[${address.toString()}]` : address.toString();
}

// Addresses, not strings: how the sandbox's rules read a host a run asks for. Every spelling a client
// could send is generated, not listed (inet_aton's one to four parts in decimal, hex and octal;
// IPv6 in full, short, mixed and upper-case forms; IPv4 inside IPv6), checked against what the
// system's own resolver makes of it, and judged: `*` never reaches this machine, link-local or a
// local network; this machine only at a port a rule names; Steward's port only as Steward's gate;
// and a refusal names a fix only when adding it would let the request through.
import dns from 'node:dns';
import os from 'node:os';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { destinationOf } from '../../src/main/core/sandbox/addresses';
import { destination } from '../../src/main/core/sandbox/egress';
import { type NetworkRule, type Reach, type Verdict, loopbackPorts, nameVerdict, parseRule } from '../../src/main/core/sandbox/network-rules';
import { addressKind, parseAddress } from '../../src/shared/addresses';
import { NetworkHost } from '../../src/shared/contract';
import { isLoopback } from '../../src/shared/loopback';

const rules = (...hosts: string[]): NetworkRule[] => hosts.map((host) => parseRule(host)!);

/** The verdict for a host a run names as such (an address, or localhost): no lookup. */
function judge(host: string, port: number, reach: Reach): Verdict {
  const decided = nameVerdict({ host, port }, reach);
  if (!decided) throw new Error(`${host} needs a lookup`);
  return decided;
}

const refused = (verdict: Verdict) => 'refused' in verdict;

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

// --- spellings -----------------------------------------------------------------------------------

const octet = fc.integer({ min: 0, max: 255 });

/** One inet_aton part: decimal, hex (either case) or octal. */
const part = (value: number) =>
  fc.constantFrom('dec', 'hex', 'HEX', 'oct').map((style) => {
    if (style === 'dec') return String(value);
    if (style === 'hex') return `0x${value.toString(16)}`;
    if (style === 'HEX') return `0X${value.toString(16).toUpperCase()}`;
    return `0${value.toString(8)}`;
  });

/** An IPv4 address as inet_aton reads it: a.b.c.d, a.b.(c.d), a.(b.c.d) or one 32-bit number, each part in any base. */
function ipv4Spelling(octets: fc.Arbitrary<number[]>): fc.Arbitrary<{ spelled: string; address: string }> {
  return octets.chain(([a, b, c, d]) => {
    const address = `${a}.${b}.${c}.${d}`;
    const forms: number[][] = [[a, b, c, d], [a, b, c * 256 + d], [a, b * 65536 + c * 256 + d], [((a * 256 + b) * 256 + c) * 256 + d]];
    return fc.constantFrom(...forms).chain((values) => fc.tuple(...values.map(part)).map((parts) => ({ spelled: parts.join('.'), address })));
  });
}

/** An IPv6 address carrying an IPv4 one that connects to it: mapped (::ffff:), in hex or dotted, short or full, any case, bracketed or not. */
function mappedSpelling(octets: fc.Arbitrary<number[]>): fc.Arbitrary<{ spelled: string; address: string }> {
  return fc.tuple(octets, fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean()).map(([[a, b, c, d], dotted, full, upper, bracketed]) => {
    const tail = dotted ? `${a}.${b}.${c}.${d}` : `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
    let spelled = full ? `0000:0000:0000:0000:0000:ffff:${tail}` : `::ffff:${tail}`;
    if (upper) spelled = spelled.toUpperCase();
    if (bracketed) spelled = `[${spelled}]`;
    return { spelled, address: `${a}.${b}.${c}.${d}` };
  });
}

const loopbackOctets = fc.tuple(fc.constant(127), octet, octet, octet);
const metadataOctets = fc.tuple(fc.constant(169), fc.constant(254), octet, octet);
const privateOctets = fc.oneof(fc.tuple(fc.constant(10), octet, octet, octet), fc.tuple(fc.constant(192), fc.constant(168), octet, octet), fc.tuple(fc.constant(172), fc.integer({ min: 16, max: 31 }), octet, octet));

describe('an address in any spelling', () => {
  it('is the address the system resolver connects to', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(ipv4Spelling(fc.tuple(octet, octet, octet, octet)), ipv4Spelling(loopbackOctets)), async ({ spelled, address }) => {
        expect(parseAddress(spelled)?.toString()).toBe(address);
        // getaddrinfo reads a numeric host with inet_aton: what a client would dial.
        expect((await dns.promises.lookup(spelled, { family: 4 })).address).toBe(address);
      }),
      { numRuns: 300 },
    );
  });

  it('of loopback is this machine, however it is written', () => {
    fc.assert(
      fc.property(fc.oneof(ipv4Spelling(loopbackOctets), mappedSpelling(loopbackOctets)), ({ spelled }) => {
        expect(destinationOf(parseAddress(spelled)!)).toBe('this machine');
        expect(isLoopback(spelled)).toBe(true);
      }),
      { numRuns: 500 },
    );
    for (const spelled of ['::1', '[0:0:0:0:0:0:0:1]', '0000:0000:0000:0000:0000:0000:0000:0001', '::0:1', '[::ffff:0:0]', '::', '0.0.0.0', '0', '0.1.2.3', '::127.0.0.5', '::ffff:0:127.0.0.1', '64:ff9b::7f00:1', 'localhost', 'LocalHost.', 'a.b.localhost']) {
      expect(isLoopback(spelled), spelled).toBe(true);
    }
    for (const spelled of ['128.0.0.1', 'localhost.example.com', 'mylocalhost', '2::1', '1.2.3.4', '[2001:4860::1]']) expect(isLoopback(spelled), spelled).toBe(false);
  });

  it('of link-local (cloud metadata) is link-local, however it is written', () => {
    fc.assert(
      fc.property(fc.oneof(ipv4Spelling(metadataOctets), mappedSpelling(metadataOctets)), ({ spelled }) => {
        expect(destinationOf(parseAddress(spelled)!)).toBe('link-local');
      }),
      { numRuns: 300 },
    );
    expect(destinationOf(parseAddress('fe80::1%eth0')!)).toBe('link-local');
    expect(destinationOf(parseAddress('[FE80:0:0:0:0:0:0:AB]')!)).toBe('link-local');
  });

  it('of a local network is private; of the internet, public; multicast and broadcast go nowhere', () => {
    fc.assert(
      fc.property(fc.oneof(ipv4Spelling(privateOctets), mappedSpelling(privateOctets)), ({ spelled }) => {
        expect(addressKind(parseAddress(spelled)!)).toBe('private');
      }),
      { numRuns: 300 },
    );
    for (const spelled of ['100.64.0.1', '100.100.100.201', 'fd00:ec2::253', 'fc00::1', '198.18.0.1', '240.0.0.1']) expect(addressKind(parseAddress(spelled)!), spelled).toBe('private');
    // Cloud metadata services inside those ranges (AWS's IPv6 one, Alibaba's) answer credentials: never reached, as link-local.
    for (const spelled of ['100.100.100.200', 'fd00:ec2::254', '[fd00:ec2:0::254]', '::ffff:100.100.100.200']) expect(addressKind(parseAddress(spelled)!), spelled).toBe('link-local');
    for (const spelled of ['8.8.8.8', '0x08080808', '[2606:4700::1111]', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8']) expect(addressKind(parseAddress(spelled)!), spelled).toBe('public');
    for (const spelled of ['224.0.0.1', '255.255.255.255', 'ff02::1']) expect(addressKind(parseAddress(spelled)!), spelled).toBe('unroutable');
    for (const name of ['example.com', '1.2.3.4.5', '08.1.1.1', '1e2', 'x:80']) expect(parseAddress(name), name).toBeUndefined();
  });

  it("of this machine's own interfaces is this machine, whatever its range", () => {
    // The interfaces are read again once what was read is a second old.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 60_000);
    vi.spyOn(os, 'networkInterfaces').mockReturnValue({
      eth9: [
        { address: '203.0.113.77', netmask: '255.255.255.0', family: 'IPv4', mac: '02:00:00:00:00:01', internal: false, cidr: '203.0.113.77/24' },
        { address: '2001:db8:5::7', netmask: 'ffff:ffff:ffff:ffff::', family: 'IPv6', mac: '02:00:00:00:00:01', internal: false, cidr: '2001:db8:5::7/64', scopeid: 0 },
        { address: '8.8.4.4', netmask: '255.255.255.0', family: 'IPv4', mac: '02:00:00:00:00:01', internal: false, cidr: '8.8.4.4/24' },
      ],
    });
    for (const spelled of ['203.0.113.77', '0xcb.0.0x71.77', '[2001:db8:5:0::7]', '::ffff:cb00:714d', '8.8.4.4']) expect(destinationOf(parseAddress(spelled)!), spelled).toBe('this machine');
    expect(judge('8.8.4.4', 22, { rules: rules('*') })).toEqual({ refused: expect.stringMatching(/this machine/), allow: '127.0.0.1:22' });
  });
});

// --- decisions -----------------------------------------------------------------------------------

describe('the network rules', () => {
  it('never open this machine, link-local or a local network through *; the internet, always', () => {
    const everything = { rules: rules('*', '*:8080') };
    fc.assert(
      fc.property(fc.oneof(ipv4Spelling(loopbackOctets), mappedSpelling(loopbackOctets), ipv4Spelling(metadataOctets), ipv4Spelling(privateOctets), mappedSpelling(privateOctets)), fc.integer({ min: 1, max: 65535 }), ({ spelled }, port) => {
        expect(refused(judge(spelled, port, everything))).toBe(true);
      }),
      { numRuns: 500 },
    );
    expect(judge('8.8.8.8', 443, everything)).toEqual({ to: 'address', address: '8.8.8.8' });
    expect(judge('[::ffff:8.8.8.8]', 443, everything)).toEqual({ to: 'address', address: '8.8.8.8' });
  });

  it("open this machine's port named with a loopback host, in every spelling, and only that port", () => {
    const named = { rules: rules('*', 'localhost:8080') };
    expect(loopbackPorts(named.rules)).toEqual([8080]);
    fc.assert(
      fc.property(fc.oneof(ipv4Spelling(loopbackOctets), mappedSpelling(loopbackOctets)), ({ spelled }) => {
        expect(judge(spelled, 8080, named)).toMatchObject({ to: 'address' });
        expect(judge(spelled, 8081, named)).toEqual({ refused: expect.any(String), allow: '127.0.0.1:8081' });
      }),
      { numRuns: 300 },
    );
    // A rule that names this machine without a port opens nothing of it.
    expect(refused(judge('127.0.0.1', 22, { rules: rules('127.0.0.1', '[::1]', 'localhost') }))).toBe(true);
    // However the rule itself is written.
    expect(loopbackPorts(rules('0x7f.1:5432', '[::ffff:7f00:1]:6379', '0.0.0.0:11434', 'api.example.com:8443'))).toEqual([5432, 6379, 11434]);
  });

  it("serve Steward's port as Steward's gate in every spelling of this machine, and never name a fix for it", () => {
    const withTools = { rules: rules('*', '127.0.0.1:7321'), stewardPort: 7321 };
    const without = { rules: rules('*'), stewardPort: 7321 };
    fc.assert(
      fc.property(fc.oneof(ipv4Spelling(loopbackOctets), mappedSpelling(loopbackOctets)), ({ spelled }) => {
        expect(judge(spelled, 7321, withTools)).toEqual({ to: 'steward' });
        const verdict = judge(spelled, 7321, without);
        expect(verdict).toEqual({ refused: expect.stringMatching(/Steward's own port/) });
      }),
      { numRuns: 300 },
    );
    for (const host of ['localhost', '[::1]', '0.0.0.0', '[::]', '[0:0:0:0:0:0:0:1]']) expect(judge(host, 7321, withTools), host).toEqual({ to: 'steward' });
  });

  it('name a fix only where adding it lets the same request through, never one already on the list', () => {
    const lists = [rules('api.example.com'), rules('*'), rules('*', '127.0.0.1:8080'), rules('db.internal:5432', '10.1.2.3'), rules('evil.example:443', '8.8.8.8:53', '10.1.2.3:22'), []];
    const hosts = ['evil.example', '127.0.0.1', '127.1', '0x7f.1', '2130706433', '[::ffff:7f00:1]', '[0:0:0:0:0:0:0:1]', '[::ffff:0:0]', '0.0.0.0', 'localhost', '169.254.169.254', '[::ffff:a9fe:a9fe]', '10.1.2.3', '012.1.2.3', '[fd00::5]', '8.8.8.8', '[2606:4700::1111]', '224.0.0.1'];
    let fixes = 0;
    for (const list of lists) {
      for (const host of hosts) {
        for (const port of [80, 7321, 8080]) {
          const reach = { rules: list, stewardPort: 7321 };
          const verdict = nameVerdict({ host, port }, reach) ?? { to: 'lookup' };
          if (!('refused' in verdict) || verdict.allow === undefined) continue;
          fixes++;
          const where = `${host}:${port} under [${list.map((rule) => `${rule.host}:${rule.port}`).join(', ')}]`;
          expect(NetworkHost.safeParse(verdict.allow).success, where).toBe(true);
          expect(verdict.allow, where).not.toMatch(/\[\[|^127\.1(:|$)|0x|^\[::ffff:/);
          const added = parseRule(verdict.allow)!;
          expect(list.some((rule) => rule.host === added.host && rule.port === added.port), where).toBe(false);
          const after = nameVerdict({ host, port }, { ...reach, rules: [...list, added] });
          expect(after === undefined || 'to' in after, `${where} + ${verdict.allow}`).toBe(true);
        }
      }
    }
    expect(fixes).toBeGreaterThan(20);
  });

  it('name a host the list already has with other ports by the port asked for', () => {
    const reach = { rules: rules('db.internal:5432', '10.1.2.3:6379', '[2001:4860::8]:443') };
    expect(judge('db.internal', 5433, reach)).toEqual({ refused: "it is not in this instance's network list", allow: 'db.internal:5433' });
    expect(judge('012.1.2.3', 80, reach)).toEqual({ refused: "it is not in this instance's network list", allow: '10.1.2.3:80' });
    expect(judge('[2001:4860:0::8]', 80, reach)).toEqual({ refused: "it is not in this instance's network list", allow: '[2001:4860::8]:80' });
    expect(judge('db.other', 5432, reach)).toEqual({ refused: "it is not in this instance's network list", allow: 'db.other' });
  });

  it('name no fix where nothing would allow it', () => {
    const reach = { rules: rules('*', '169.254.169.254', '224.0.0.1:80'), refused: rules('hooks.example.com'), stewardPort: 7321 };
    for (const host of ['169.254.169.254', '[::ffff:169.254.169.254]', '0xa9fea9fe', '[fe80::1]', '224.0.0.1', '255.255.255.255', 'hooks.example.com']) {
      expect(judge(host, 80, reach), host).toEqual({ refused: expect.any(String) });
    }
    expect(judge('127.0.0.1', 7321, reach)).toEqual({ refused: expect.stringMatching(/Steward's own port/) });
  });
});

describe('a name', () => {
  /** The system resolver, answering `answers` for `name` (a list per call, the last repeated). */
  function resolving(name: string, ...answers: string[][]): void {
    let call = 0;
    const original = dns.promises.lookup.bind(dns.promises);
    vi.spyOn(dns.promises, 'lookup').mockImplementation((async (host: string, options: dns.LookupOptions) => {
      if (host !== name) return original(host, options as dns.LookupAllOptions);
      const addresses = answers[Math.min(call++, answers.length - 1)];
      return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    }) as typeof dns.promises.lookup);
  }

  it('is judged by every address it resolves to: the first allowed is the one dialled', async () => {
    resolving('mixed.example', ['127.0.0.1', '93.184.216.34']);
    expect(await destination({ host: 'mixed.example', port: 443 }, { rules: rules('*') })).toEqual({ to: 'address', address: '93.184.216.34' });
  });

  it('that resolves to this machine reaches it only at a port a rule opens, and Steward only as Steward', async () => {
    resolving('sneaky.example', ['::ffff:127.0.0.1']);
    expect(await destination({ host: 'sneaky.example', port: 8080 }, { rules: rules('*') })).toEqual({
      refused: 'it resolves to 127.0.0.1: this machine, whose services a run reaches only at a port its network list names (127.0.0.1:port)',
      allow: '127.0.0.1:8080',
    });
    expect(await destination({ host: 'sneaky.example', port: 8080 }, { rules: rules('*', '127.0.0.1:8080') })).toEqual({ to: 'address', address: '127.0.0.1' });
    expect(await destination({ host: 'sneaky.example', port: 7321 }, { rules: rules('*', '127.0.0.1:7321'), stewardPort: 7321 })).toEqual({ to: 'steward' });
  });

  it('that resolves to a local network is reached when the list names it, not through *', async () => {
    resolving('nas.example', ['192.168.1.20']);
    expect(await destination({ host: 'nas.example', port: 443 }, { rules: rules('*') })).toEqual({ refused: expect.stringMatching(/a local-network address, which \* does not open/), allow: 'nas.example' });
    expect(await destination({ host: 'nas.example', port: 443 }, { rules: rules('nas.example') })).toEqual({ to: 'address', address: '192.168.1.20' });
    expect(await destination({ host: 'nas.example', port: 443 }, { rules: rules('*.example') })).toEqual({ to: 'address', address: '192.168.1.20' });
  });

  it('that resolves to link-local is never reached, and no fix is named', async () => {
    resolving('metadata.example', ['169.254.169.254']);
    expect(await destination({ host: 'metadata.example', port: 80 }, { rules: rules('metadata.example') })).toEqual({ refused: expect.stringMatching(/link-local/) });
  });

  it('not on the list is refused before any lookup; one that cannot be resolved names no fix', async () => {
    const lookup = vi.spyOn(dns.promises, 'lookup');
    expect(await destination({ host: 'evil.example', port: 443 }, { rules: rules('api.example.com') })).toEqual({ refused: "it is not in this instance's network list", allow: 'evil.example' });
    expect(lookup).not.toHaveBeenCalled();
    lookup.mockRejectedValue(Object.assign(new Error('nope'), { code: 'ENOTFOUND' }));
    expect(await destination({ host: 'api.example.com', port: 443 }, { rules: rules('api.example.com') })).toEqual({ refused: 'it could not be resolved (ENOTFOUND)' });
  });
});

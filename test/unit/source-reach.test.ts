// The address rules for what Steward fetches itself for a source (reachFor): the host the user
// named is reached wherever it is, this machine only at the host and port named, and anything else
// (a redirect, a name that resolves to this machine, the LAN or cloud metadata) only when it is on
// the internet. Probed with every spelling of this machine a URL or a Location header can carry, and
// with real names resolved by the system's resolver (/etc/hosts lines the test adds).
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reachFor } from '../../src/main/core/sources/source-reach';
import { type HostNames, addHostNames } from '../support/hosts-file';

const feedPort = 8080;
const otherPort = 9090;
const stewardPort = 7321;
const named = (host: string, port = feedPort) => ({ host, port });

/** The refusal's message, or a failure saying where it connected instead. */
async function refusal(host: string, port: number, asNamed: { host: string; port: number }, steward: number | undefined = stewardPort): Promise<string> {
  const address = await reachFor(host, port, asNamed, steward).then(
    (found) => found,
    (error: Error) => error,
  );
  if (typeof address === 'string') throw new Error(`${host}:${port} (named ${asNamed.host}:${asNamed.port}) was allowed, to ${address}`);
  // A source's words: no sandbox, run or network list (the user named one host, in a trigger).
  expect(address.message).not.toMatch(/\ba run\b|network list|sandbox|\*/);
  return address.message;
}

/** Every way to write this machine that a URL's host (or a redirect's Location) can hold. */
const thisMachine = ['127.0.0.1', '127.0.0.2', '127.1', '0x7f.1', '0177.0.0.1', '2130706433', '0.0.0.0', '0', 'localhost', 'LOCALHOST.', 'feed.localhost', '::1', '[::1]', '[0:0:0:0:0:0:0:1]', '::', '::ffff:127.0.0.1', '[::ffff:7f00:1]', '::ffff:0:127.0.0.1'];

let hosts: HostNames;
beforeAll(async () => {
  hosts = await addHostNames({ loopback: '127.0.0.1', lan: '10.20.30.40', metadata: '169.254.169.254', unspecified: '0.0.0.0', mapped: '::ffff:127.0.0.1' });
});
afterAll(() => hosts?.remove());

describe('the host the user named', () => {
  it('is reached on this machine at the port named, however the user wrote this machine', async () => {
    expect(await reachFor('127.0.0.1', feedPort, named('127.0.0.1'), stewardPort)).toBe('127.0.0.1');
    expect(await reachFor('localhost', feedPort, named('localhost'), stewardPort)).toBe('127.0.0.1');
    expect(await reachFor('::1', feedPort, named('[::1]'), stewardPort)).toBe('::1');
    expect(await reachFor('[::1]', feedPort, named('::1'), stewardPort)).toBe('::1');
    // A redirect to another spelling of this machine at the same port reaches the same service.
    expect(await reachFor('localhost', feedPort, named('127.0.0.1'), stewardPort)).toBe('127.0.0.1');
  });

  it('is reached on the local network when it is a name the user wrote that resolves there', async () => {
    expect(await reachFor(hosts.names.lan, feedPort, named(hosts.names.lan), stewardPort)).toBe('10.20.30.40');
    expect(await reachFor('10.20.30.40', 443, named('10.20.30.40', 443), stewardPort)).toBe('10.20.30.40');
    // The host and the port named: another port of that host is not what the user named.
    expect(await refusal('10.20.30.40', 444, named('10.20.30.40', 443))).toMatch(/local-network address, which a source reaches only when it is the host you named/);
  });

  it('reaches the internet whoever named it', async () => {
    expect(await reachFor('93.184.216.34', 443, named('93.184.216.34', 443), stewardPort)).toBe('93.184.216.34');
    expect(await reachFor('93.184.216.34', 80, named('127.0.0.1'), stewardPort)).toBe('93.184.216.34');
  });
});

describe('this machine, when the user did not name it so', () => {
  it.each(thisMachine)('%s at another port than the one named is refused with the rule\'s words', async (host) => {
    const message = await refusal(host, otherPort, named('127.0.0.1'));
    expect(message).toMatch(/^Steward will not connect to \S+:9090: it is this machine/);
  });

  it.each(thisMachine)('%s is refused when the user named a host on the internet', async (host) => {
    expect(await refusal(host, 443, named('feeds.example.org', 443))).toMatch(/this machine/);
  });

  it('is refused for a public-looking name that resolves to it, even when that name is the one named', async () => {
    for (const label of ['loopback', 'unspecified', 'mapped'] as const) {
      const name = hosts.names[label];
      const message = await refusal(name, feedPort, named(name));
      expect(message, name).toBe(`Steward will not connect to ${name}:${feedPort}: it resolves to ${label === 'unspecified' ? '0.0.0.0' : '127.0.0.1'}: this machine, which a source reaches only when you name it as such (127.0.0.1, localhost or [::1]) with its port`);
    }
  });

  it("is refused for the machine's own name when it resolves to the machine", async () => {
    // The host name resolves to this machine (loopback or its own interface) on most systems; a
    // name is no way around the rule however it resolves here.
    const message = await reachFor(os.hostname(), feedPort, named(os.hostname()), stewardPort).then(
      (address) => `allowed to ${address}`,
      (error: Error) => error.message,
    );
    expect(message).not.toMatch(/^allowed to (127\.|::1|0\.0\.0\.0)/);
  });
});

describe('never', () => {
  it('cloud metadata and every link-local address, named or not, by address or by name', async () => {
    for (const [host, asNamed] of [
      ['169.254.169.254', named('169.254.169.254', 80)],
      ['169.254.169.254', named('127.0.0.1')],
      ['[::ffff:169.254.169.254]', named('[::ffff:169.254.169.254]', 80)],
      ['2852039166', named('2852039166', 80)],
      ['fe80::1', named('fe80::1', 80)],
      [hosts.names.metadata, named(hosts.names.metadata, 80)],
    ] as const) {
      expect(await refusal(host, 80, asNamed), host).toMatch(/link-local address \(cloud metadata among them\)/);
    }
  });

  it("Steward's own port, however this machine is written, even when the user named it", async () => {
    for (const host of ['127.0.0.1', 'localhost', '[::1]', '2130706433', '127.1', '0.0.0.0', '::ffff:127.0.0.1', hosts.names.loopback]) {
      expect(await refusal(host, stewardPort, named(host, stewardPort)), host).toMatch(/Steward's own port/);
      expect(await refusal(host, stewardPort, named('127.0.0.1')), host).toMatch(/Steward's own port|this machine/);
    }
  });

  it('a local-network address the user did not name: a redirect or a public name leading there', async () => {
    expect(await refusal('10.20.30.40', 80, named('feeds.example.org', 443))).toBe('Steward will not connect to 10.20.30.40:80: it is a local-network address, which a source reaches only when it is the host you named');
    expect(await refusal('192.168.1.1', 80, named('127.0.0.1'))).toMatch(/local-network address, which a source reaches only when it is the host you named/);
    expect(await refusal(hosts.names.lan, 443, named('feeds.example.org', 443))).toMatch(/resolves to 10.20.30.40: a local-network address, which a source reaches only when it is the host you named/);
  });

  it('a name that does not resolve', async () => {
    expect(await refusal('no-such-host.invalid', 80, named('no-such-host.invalid', 80))).toMatch(/^Steward will not connect to no-such-host\.invalid:80: it could not be resolved/);
  });
});

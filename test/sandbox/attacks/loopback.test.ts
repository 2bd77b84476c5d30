// `*` never includes this machine (issue 29, "Why" 3 and "What to build" 3): with every host allowed,
// a sandboxed run tries this machine under every spelling an address parser knows and a string
// check may not (IPv4-mapped and -compatible IPv6, full and short forms, octal, hex and decimal
// IPv4, the unspecified address, other 127/8 addresses, names that resolve to loopback, the
// machine's own LAN addresses), through the proxy by CONNECT and by absolute URL, and directly. A
// test server on a port never named counts every connection it gets: none. Steward's port answers
// none of its API either. The one loopback port named is reached (the proxy works). A refusal's
// feed line names only a fix that could work.
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetworkHost } from '../../../src/shared/contract/sandbox';
import { lacks } from '../../support/requirements';
import { type Lab, type Listener, fixture, listen, openLab } from './lab';

const skip = lacks('sandbox');
let lab: Lab;
let secret: Listener;
let given: Listener;

beforeAll(async () => {
  if (skip) return;
  lab = await openLab();
  // On every address of the machine, IPv4 and IPv6: whatever spelling gets through reaches it.
  secret = await listen('a service on a port never named');
  given = await listen('the service named with its port', '127.0.0.1');
});
afterAll(async () => {
  await secret?.close();
  await given?.close();
  await lab?.close();
});

/** The machine's own addresses that are not loopback (a LAN address, a container's address). */
function ownAddresses(): Record<string, string> {
  const found: Record<string, string> = {};
  for (const entries of Object.values(os.networkInterfaces())) {
    for (const entry of entries ?? []) {
      if (entry.internal || entry.address.startsWith('fe80')) continue;
      found[`own-${entry.family === 'IPv4' ? 'v4' : 'v6'}-${Object.keys(found).length}`] = entry.family === 'IPv4' ? entry.address : `[${entry.address}]`;
    }
  }
  return found;
}

const spellings = (): Record<string, string> => ({
  'v4': '127.0.0.1',
  'v4-other': '127.0.0.2',
  'v4-short': '127.1',
  'v4-short3': '127.0.1',
  'v4-zero-padded': '127.000.000.001',
  'v4-octal': '0177.0.0.1',
  'v4-hex': '0x7f000001',
  'v4-hex-dotted': '0x7f.0.0.1',
  'v4-decimal': '2130706433',
  'v4-octal-whole': '017700000001',
  'v4-trailing-dot': '127.0.0.1.',
  unspecified: '0.0.0.0',
  zero: '0',
  localhost: 'localhost',
  'localhost-dot': 'localhost.',
  'localhost-upper': 'LOCALHOST',
  'sub-localhost': 'steward.localhost',
  'ip6-localhost': 'ip6-localhost',
  hostname: os.hostname(),
  'hostname-dot': `${os.hostname()}.`,
  'v6-loopback': '[::1]',
  'v6-full': '[0:0:0:0:0:0:0:1]',
  'v6-padded': '[0000:0000:0000:0000:0000:0000:0000:0001]',
  'v6-zero-prefix': '[0::1]',
  'v6-zone': '[::1%lo]',
  'v6-mapped-hex': '[::ffff:7f00:1]',
  'v6-mapped-upper': '[::FFFF:7F00:0001]',
  'v6-mapped-dotted': '[::ffff:127.0.0.1]',
  'v6-mapped-other': '[::ffff:127.0.0.2]',
  'v6-mapped-full': '[0:0:0:0:0:ffff:7f00:1]',
  'v6-mapped-unspecified': '[::ffff:0:0]',
  'v6-compatible': '[::127.0.0.1]',
  'v6-unspecified': '[::]',
  ...ownAddresses(),
});

/** Reached: the last response was a success (the tunnel's own 200 does not count). */
const reached = (result: string | undefined) => result !== undefined && /(^|\/)2\d\d$/.test(result);

describe.skipIf(skip)('a sandboxed run with every host allowed ("*")', () => {
  it('reaches no port of this machine that was not named, under any spelling, nor Steward\'s API', async () => {
    const stewardPort = Number(new URL(lab.t.url).port);
    const targets: object[] = [
      { name: 'given-connect', via: 'connect', host: '127.0.0.1', port: given.port },
      { name: 'given-absolute', via: 'absolute', host: '127.0.0.1', port: given.port },
      { name: 'direct-v4', via: 'direct', host: '127.0.0.1', port: secret.port },
      { name: 'direct-v6', via: 'direct', host: '::1', port: secret.port },
      ...Object.entries(ownAddresses()).map(([name, host]) => ({ name: `direct-${name}`, via: 'direct', host, port: secret.port })),
    ];
    for (const [name, host] of Object.entries(spellings())) {
      targets.push({ name: `connect-${name}`, via: 'connect', host, port: secret.port });
      targets.push({ name: `absolute-${name}`, via: 'absolute', host, port: secret.port });
      targets.push({ name: `steward-connect-${name}`, via: 'connect', host, port: stewardPort, path: '/api/system', key: true, hostHeader: `127.0.0.1:${stewardPort}` });
      targets.push({ name: `steward-absolute-${name}`, via: 'absolute', host, port: stewardPort, path: '/api/system', key: true, hostHeader: `127.0.0.1:${stewardPort}` });
    }
    // Tricks of the URL's own syntax: the part a string check reads is not the host the client dials.
    targets.push(
      { name: 'userinfo', via: 'absolute', host: '127.0.0.1', port: secret.port, target: `http://api.example.com@127.0.0.1:${secret.port}/`, hostHeader: 'api.example.com' },
      { name: 'fragment', via: 'absolute', host: '127.0.0.1', port: secret.port, target: `http://127.0.0.1:${secret.port}#@api.example.com/` },
      { name: 'authority-with-port-twice', via: 'connect', host: '127.0.0.1', port: secret.port, authority: `127.0.0.1:${secret.port}:443` },
      { name: 'host-header-only', via: 'absolute', host: '127.0.0.1', port: secret.port, target: '/', hostHeader: `127.0.0.1:${secret.port}` },
    );
    const env = { PROBE_TARGETS: JSON.stringify(targets) };
    const agent = { provider: 'command', preset: 'custom', command: fixture('reach-probe.mjs'), env, stewardTools: true };
    const network = ['*', `127.0.0.1:${given.port}`];
    const instance = await lab.instance(agent, { mode: 'sandbox', network });
    const connectionsBefore = secret.connections;
    const run = await lab.run(instance, 'go', 60_000);
    expect(run.status, run.error ?? '').toBe('succeeded');
    const said = await lab.said(run);
    expect(said['given-connect']).toBe('200/200');
    expect(said['given-absolute']).toBe('200');
    const through = Object.entries(said).filter(([name, result]) => !name.startsWith('given-') && name !== 'proxy' && reached(result)).map(([name, result]) => `${name} ${result}`);
    expect(through, JSON.stringify(said)).toEqual([]);
    expect(secret.connections - connectionsBefore, 'connections the server never named got').toBe(0);

    // A refusal's fix must be one that could work: a valid entry, not on the list already, and
    // (since "*" is there) one that names a port.
    const lines = (await lab.t.api('GET', `/api/instances/${instance.id}/activity?limit=1000`)).body.events as { displayText: string }[];
    const fixes = lines.map((line) => /add (\S+) to the instance's sandbox network/.exec(line.displayText)?.[1]).filter((fix): fix is string => fix !== undefined);
    const unworkable = fixes.filter((fix) => !NetworkHost.safeParse(fix).success || network.includes(fix) || !/:\d+$/.test(fix));
    expect(unworkable).toEqual([]);
  });
});

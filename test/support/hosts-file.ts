// Names that resolve where a test wants, through the system's resolver: lines added to /etc/hosts
// (each tagged with the test's own marker) and removed again. For probes of what a public-looking
// name that leads to this machine, the LAN or cloud metadata is allowed to reach. Needs root.
import crypto from 'node:crypto';
import dns from 'node:dns';
import fs from 'node:fs';

const hostsFile = '/etc/hosts';

export interface HostNames {
  /** The names, each under `.example` with a random part, as given to `addHostNames`. */
  names: Record<string, string>;
  remove(): void;
}

/**
 * Adds `name → address` lines to /etc/hosts and waits until the resolver answers each. Names are
 * made unique (`<label>-<random>.example`), so tests running side by side never share one.
 */
export async function addHostNames(entries: Record<string, string>): Promise<HostNames> {
  const marker = `steward-test-${crypto.randomBytes(6).toString('hex')}`;
  const names = Object.fromEntries(Object.keys(entries).map((label) => [label, `${label}-${marker}.example`]));
  // One append (O_APPEND): lines other tests add meanwhile are kept.
  fs.appendFileSync(hostsFile, Object.entries(entries).map(([label, address]) => `${address} ${names[label]} # ${marker}\n`).join(''));
  for (const [label, address] of Object.entries(entries)) {
    const found = await dns.promises.lookup(names[label], { all: true });
    if (!found.some((entry) => entry.address === address)) throw new Error(`${names[label]} resolves to ${JSON.stringify(found)}, not ${address}: /etc/hosts is not read`);
  }
  return {
    names,
    remove() {
      // Read and written back at once, keeping every line but this test's own.
      const lines = fs.readFileSync(hostsFile, 'utf8').split('\n');
      fs.writeFileSync(hostsFile, lines.filter((line) => !line.endsWith(`# ${marker}`)).join('\n'));
    },
  };
}

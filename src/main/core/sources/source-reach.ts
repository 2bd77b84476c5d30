// The address rules for what Steward fetches itself on a source's behalf (a feed, a git remote, a
// mail server): the sandbox's rules, with the host the user wrote as the one named entry. So the
// host as written is reached wherever it is (a feed on 127.0.0.1:8080, a mail server on the LAN),
// and anything else (a redirect, a public name that resolves to this machine or the LAN) reaches
// only the internet; link-local (cloud metadata) and Steward's own port never.
import { bareHost } from '../../../shared/addresses';
import { destination } from '../sandbox/egress';
import { type NetworkRule, parseRule } from '../sandbox/network-rules';

const anyPublic: NetworkRule = { host: '*', port: undefined };

const entryOf = (host: string, port: number) => (bareHost(host).includes(':') ? `[${bareHost(host)}]:${port}` : `${bareHost(host)}:${port}`);

/**
 * The address to dial for host:port, judged with `named` (what the user wrote) as the one entry
 * that may lead to this machine or the local network. Throws an Error saying why not.
 */
export async function reachFor(host: string, port: number, named: { host: string; port: number }, stewardPort: number | undefined): Promise<string> {
  const rule = parseRule(entryOf(named.host, named.port));
  const rules = rule ? [rule, anyPublic] : [anyPublic];
  const verdict = await destination({ host: bareHost(host), port }, { rules, stewardPort });
  if ('refused' in verdict) throw new Error(`Steward will not connect to ${entryOf(host, port)}: ${verdict.refused.replace("it is not in this instance's network list", 'it is not the host you named')}`);
  if (verdict.to === 'steward') throw new Error(`Steward will not connect to ${entryOf(host, port)}: it is Steward's own port`);
  return verdict.address;
}

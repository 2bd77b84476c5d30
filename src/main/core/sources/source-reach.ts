// The address rules for what Steward fetches itself on a source's behalf (a feed, a git remote, a
// mail server): the sandbox's rules, with the host the user wrote as the one named entry. So the
// host as written is reached wherever it is (a feed on 127.0.0.1:8080, a mail server on the LAN),
// and anything else (a redirect, a public name that resolves to this machine or the LAN) reaches
// only the internet; link-local (cloud metadata) and Steward's own port never.
import { bareHost } from '../../../shared/addresses';
import { destination } from '../sandbox/egress';
import { type NetworkRule, parseRule } from '../sandbox/network-rules';

const anyPublic: NetworkRule = { host: '*', port: undefined };

/** The sandbox's reasons in a source's words: the user names one host, not a run's network list. */
const sourceWords: [string, string][] = [
  ["this machine, whose services a run reaches only at a port its network list names (127.0.0.1:port)", 'this machine, which a source reaches only when you name it as such (127.0.0.1, localhost or [::1]) with its port'],
  ["Steward's own port, which only a run with Steward's tools reaches, and only at /mcp", "Steward's own port"],
  ['which a sandbox never reaches', 'which Steward never reaches'],
  ['a local-network address, which * does not open (it opens the internet)', 'a local-network address, which a source reaches only when it is the host you named'],
  ["it is not in this instance's network list", 'it is not the host you named'],
];

const inSourceWords = (reason: string) => sourceWords.reduce((text, [sandbox, source]) => text.replace(sandbox, source), reason);

const entryOf = (host: string, port: number) => (bareHost(host).includes(':') ? `[${bareHost(host)}]:${port}` : `${bareHost(host)}:${port}`);

/**
 * The address to dial for host:port, judged with `named` (what the user wrote) as the one entry
 * that may lead to this machine or the local network. Throws an Error saying why not.
 */
export async function reachFor(host: string, port: number, named: { host: string; port: number }, stewardPort: number | undefined): Promise<string> {
  const rule = parseRule(entryOf(named.host, named.port));
  const rules = rule ? [rule, anyPublic] : [anyPublic];
  const verdict = await destination({ host: bareHost(host), port }, { rules, stewardPort });
  if ('refused' in verdict) throw new Error(`Steward will not connect to ${entryOf(host, port)}: ${inSourceWords(verdict.refused)}`);
  if (verdict.to === 'steward') throw new Error(`Steward will not connect to ${entryOf(host, port)}: it is Steward's own port`);
  return verdict.address;
}

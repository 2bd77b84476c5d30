// What each tunnel provider runs, and how its output says the tunnel is up or why it failed.
// Pure: argument construction and output parsing are tested against the tools' documented output.
import type { TunnelConfig } from '../../../shared/contract';

export interface ProviderCommand {
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** A name a person recognises, for error messages. */
  label: string;
  /** How to get the tool when it is missing. */
  installHint: string;
  /** Reads one line of the tool's output: the public URL once the tunnel is up, else undefined. */
  upFrom(line: string): string | undefined;
  /** Reads one line of the tool's output: a failure worth telling the user, else undefined. */
  failureFrom(line: string): string | undefined;
}

const sshFailures: [RegExp, string][] = [
  [/Permission denied/i, 'The SSH server refused the key (Permission denied): check the user and identity file.'],
  [/Host key verification failed|REMOTE HOST IDENTIFICATION HAS CHANGED|No \S+ host key is known/i, 'The SSH host key is not known or has changed: add the host to your known_hosts first.'],
  [/Could not resolve hostname/i, 'The SSH host name does not resolve.'],
  [/Connection refused/i, 'The SSH server refused the connection (nothing listening on that port?).'],
  [/Connection timed out|Operation timed out/i, 'The SSH server did not answer (connection timed out).'],
  [/remote port forwarding failed|Error: remote port forwarding failed/i, 'The SSH server refused to forward the remote port (in use, or forwarding not allowed).'],
  [/Connection closed|Connection reset|Broken pipe|Timeout, server .* not responding/i, 'The SSH connection to the host was lost.'],
];

export function sshCommand(config: Extract<TunnelConfig, { provider: 'ssh' }>, localPort: number): ProviderCommand {
  const args = [
    '-v', // the only way ssh says the forward is in place: "remote forward success"
    '-N',
    '-o', 'ExitOnForwardFailure=yes',
    '-o', 'BatchMode=yes', // never wait for a password or a host-key question
    '-o', 'StrictHostKeyChecking=yes',
    '-o', 'ConnectTimeout=10',
    '-o', 'ServerAliveInterval=5',
    '-o', 'ServerAliveCountMax=2',
    '-R', `127.0.0.1:${config.remotePort}:127.0.0.1:${localPort}`,
  ];
  if (config.port !== undefined) args.push('-p', String(config.port));
  if (config.identityFile) args.push('-i', config.identityFile, '-o', 'IdentitiesOnly=yes');
  if (config.knownHostsFile) args.push('-o', `UserKnownHostsFile=${config.knownHostsFile}`);
  args.push(config.user ? `${config.user}@${config.host}` : config.host);
  return {
    command: 'ssh',
    args,
    label: 'ssh',
    installHint: 'Install the OpenSSH client.',
    upFrom: (line) => (/remote forward success/i.test(line) ? config.publicUrl.replace(/\/+$/, '') : undefined),
    failureFrom: (line) => sshFailures.find(([pattern]) => pattern.test(line))?.[1],
  };
}

export function cloudflareCommand(config: Extract<TunnelConfig, { provider: 'cloudflare' }>, localPort: number): ProviderCommand {
  return {
    command: config.binary ?? 'cloudflared',
    args: ['tunnel', '--no-autoupdate', '--url', `http://127.0.0.1:${localPort}`],
    label: 'cloudflared',
    installHint: 'Install cloudflared (https://developers.cloudflare.com/cloudflare-one/connections/connect-networks/downloads/) or give its path as "binary".',
    // A quick tunnel prints its address in a box: "|  https://some-words.trycloudflare.com  |".
    upFrom: (line) => /https:\/\/[a-z0-9-]+\.trycloudflare\.com/.exec(line)?.[0],
    failureFrom: (line) =>
      /failed to request quick Tunnel|\bERR\b/.test(line) ? `cloudflared: ${line.replace(/^\S+\s+ERR\s+/, '').trim()}` : undefined,
  };
}

/** localtunnel's own command-line client, run with Node (`ltScript`: its bin/lt.js). */
export function localtunnelCommand(config: Extract<TunnelConfig, { provider: 'localtunnel' }>, localPort: number, node: string, ltScript: string): ProviderCommand {
  const args = [ltScript, '--port', String(localPort), '--local-host', '127.0.0.1'];
  if (config.subdomain) args.push('--subdomain', config.subdomain);
  if (config.host) args.push('--host', config.host);
  return {
    command: node,
    args,
    // Under Electron, process.execPath is Electron: this makes it behave as Node.
    env: { ELECTRON_RUN_AS_NODE: '1' },
    label: 'localtunnel',
    installHint: 'Reinstall Steward: its localtunnel client is missing.',
    upFrom: (line) => /your url is: (https?:\/\/\S+)/.exec(line)?.[1],
    failureFrom: (line) => (/Error:/.test(line) ? `localtunnel: ${line.replace(/^.*?Error:\s*/, '').trim()}` : undefined),
  };
}

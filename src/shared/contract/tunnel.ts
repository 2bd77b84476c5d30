// The tunnel: a public URL for the trigger paths only (DESIGN §8).
import { z } from 'zod';
import { NoInput, NoQuery, Timestamp, defineOperation } from './common';

const Hostname = z.string().regex(/^[A-Za-z0-9.-]+$/, 'must be a host name or address');

export const SshTunnel = z.strictObject({
  provider: z.literal('ssh'),
  host: Hostname.describe('A host you own, reachable with your SSH keys and ssh config'),
  user: z.string().regex(/^[A-Za-z0-9._-]+$/, 'must be a user name').optional(),
  port: z.int().min(1).max(65_535).optional(),
  remotePort: z.int().min(1).max(65_535).describe('The port on the host that forwards to Steward'),
  identityFile: z.string().min(1).optional().describe('Default: your ssh config and agent decide'),
  knownHostsFile: z.string().min(1).optional().describe('Default: ~/.ssh/known_hosts; the host key is always checked'),
  publicUrl: z.url({ protocol: /^https?$/ }).describe('Where the world reaches that port, e.g. https://hooks.example.com'),
});

export const CloudflareTunnel = z.strictObject({
  provider: z.literal('cloudflare'),
  binary: z.string().min(1).optional().describe('Path to cloudflared; default: cloudflared on PATH'),
});

export const NgrokTunnel = z.strictObject({
  provider: z.literal('ngrok'),
  authtoken: z.string().min(1).optional().describe('Write-only, stored encrypted; omitted: keep the stored one, or use NGROK_AUTHTOKEN'),
  domain: Hostname.optional().describe('A domain reserved in your ngrok account'),
});

export const LocalTunnel = z.strictObject({
  provider: z.literal('localtunnel'),
  subdomain: z.string().regex(/^[a-z0-9-]+$/, 'must be lowercase letters, digits and dashes').optional(),
  host: z.url({ protocol: /^https?$/ }).optional().describe('A localtunnel server of your own; default https://localtunnel.me'),
});

export const TunnelConfig = z.discriminatedUnion('provider', [SshTunnel, CloudflareTunnel, NgrokTunnel, LocalTunnel]);
export type TunnelConfig = z.output<typeof TunnelConfig>;

/** The configuration as the API shows it: secrets never leave, only whether one is stored. */
export const TunnelConfigView = z.discriminatedUnion('provider', [
  SshTunnel,
  CloudflareTunnel,
  NgrokTunnel.omit({ authtoken: true }).extend({ authtokenStored: z.boolean() }),
  LocalTunnel,
]);
export type TunnelConfigView = z.output<typeof TunnelConfigView>;

export const tunnelStates = ['off', 'connecting', 'up', 'error'] as const;

export const TunnelState = z.object({
  config: TunnelConfigView.nullable(),
  state: z.enum(tunnelStates),
  reason: z.string().nullable().describe('Why the tunnel is in error, or is reconnecting'),
  publicUrl: z.string().nullable().describe('The public base URL while up; trigger URLs live under it'),
  since: Timestamp,
});
export type TunnelState = z.infer<typeof TunnelState>;

const TunnelEnvelope = z.object({ tunnel: TunnelState });

export const tunnelOperations = {
  'tunnel.get': defineOperation({
    name: 'tunnel.get', method: 'GET', path: '/api/tunnel', summary: 'The tunnel and its state',
    auth: true, status: 200, params: NoInput, query: NoQuery, body: z.undefined(), output: TunnelEnvelope,
  }),
  'tunnel.configure': defineOperation({
    name: 'tunnel.configure', method: 'PUT', path: '/api/tunnel', summary: 'Choose the tunnel provider; a running tunnel restarts with it',
    auth: true, status: 200, params: NoInput, query: NoQuery, body: TunnelConfig, output: TunnelEnvelope,
  }),
  'tunnel.start': defineOperation({
    name: 'tunnel.start', method: 'POST', path: '/api/tunnel/start', summary: 'Start the tunnel',
    auth: true, status: 200, params: NoInput, query: NoQuery, body: NoInput, output: TunnelEnvelope,
  }),
  'tunnel.stop': defineOperation({
    name: 'tunnel.stop', method: 'POST', path: '/api/tunnel/stop', summary: 'Stop the tunnel',
    auth: true, status: 200, params: NoInput, query: NoQuery, body: NoInput, output: TunnelEnvelope,
  }),
};

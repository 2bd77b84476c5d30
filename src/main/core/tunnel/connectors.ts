// Bringing a tunnel up: a provider's process (ssh, cloudflared, localtunnel's client) or the
// ngrok library. Each resolves with the public URL once the tunnel is up, or rejects with a reason
// a person can act on; none waits forever.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import type { TunnelConfig } from '../../../shared/contract';
import { PermanentTunnelError } from './permanent-error';
import { type ProviderCommand, cloudflareCommand, localtunnelCommand, sshCommand } from './providers';

export interface Connection {
  publicUrl: string;
  /** Resolves, with the reason, when the tunnel drops by itself. */
  ended: Promise<string>;
  close(): Promise<void>;
}

/** Opens a tunnel to the trigger listener on `localPort`. */
export type Connector = (localPort: number) => Promise<Connection>;


const connectTimeoutMs = 30_000;

function processConnector(provider: ProviderCommand): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const tool = spawn(provider.command, provider.args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...provider.env } });
    let lastFailure: string | undefined;
    let up = false;
    let endTunnel: (reason: string) => void = () => {};
    const ended = new Promise<string>((resolveEnded) => (endTunnel = resolveEnded));
    const timer = setTimeout(() => {
      tool.kill('SIGTERM');
      reject(new Error(lastFailure ?? `${provider.label} did not bring the tunnel up within ${connectTimeoutMs / 1000} s.`));
    }, connectTimeoutMs);

    const read = (line: string) => {
      lastFailure = provider.failureFrom(line) ?? lastFailure;
      const publicUrl = up ? undefined : provider.upFrom(line);
      if (!publicUrl) return;
      up = true;
      clearTimeout(timer);
      resolve({
        publicUrl,
        ended,
        close: async () => {
          if (tool.exitCode !== null || tool.signalCode !== null) return;
          const exited = new Promise((done) => tool.once('exit', done));
          tool.kill('SIGTERM');
          await exited;
        },
      });
    };
    for (const stream of [tool.stdout, tool.stderr]) createInterface({ input: stream }).on('line', read);

    tool.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (error.code === 'ENOENT') reject(new PermanentTunnelError(`${provider.command} was not found. ${provider.installHint}`));
      else reject(new Error(`${provider.label} could not start: ${error.message}`));
    });
    tool.on('exit', (code, signal) => {
      clearTimeout(timer);
      const reason = lastFailure ?? `${provider.label} exited (${signal ?? `code ${code}`}).`;
      if (up) endTunnel(reason);
      else reject(new Error(reason));
    });
  });
}

async function ngrokConnection(config: Extract<TunnelConfig, { provider: 'ngrok' }>, localPort: number, authtoken: string | undefined): Promise<Connection> {
  if (!authtoken) throw new PermanentTunnelError('ngrok needs an authtoken: set one in the tunnel settings, or NGROK_AUTHTOKEN in the environment.');
  const ngrok = await import('@ngrok/ngrok');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`ngrok did not bring the tunnel up within ${connectTimeoutMs / 1000} s.`)), connectTimeoutMs);
  });
  try {
    const listener = await Promise.race([ngrok.forward({ addr: `127.0.0.1:${localPort}`, authtoken, ...(config.domain ? { domain: config.domain } : {}) }), timeout]);
    const publicUrl = listener.url();
    if (!publicUrl) throw new Error('ngrok gave no public URL.');
    // The library reconnects a dropped session by itself; the tunnel's health check notices the rest.
    return { publicUrl, ended: new Promise<string>(() => {}), close: () => listener.close() };
  } catch (error) {
    throw new Error(`ngrok: ${(error as Error).message}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

/** The connector for a configuration; `authtoken` is the opened ngrok secret, if any. */
export function connectorFor(config: TunnelConfig, authtoken?: string): Connector {
  switch (config.provider) {
    case 'ssh':
      return (port) => processConnector(sshCommand(config, port));
    case 'cloudflare':
      return (port) => processConnector(cloudflareCommand(config, port));
    case 'localtunnel': {
      const ltScript = createRequire(import.meta.url).resolve('localtunnel/bin/lt.js');
      return (port) => processConnector(localtunnelCommand(config, port, process.execPath, ltScript));
    }
    case 'ngrok':
      return (port) => ngrokConnection(config, port, authtoken ?? process.env.NGROK_AUTHTOKEN);
  }
}

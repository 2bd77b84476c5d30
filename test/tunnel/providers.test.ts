// Tunnel providers: the arguments each tool gets, and reading their documented output.
import { describe, expect, it } from 'vitest';
import { cloudflareCommand, localtunnelCommand, sshCommand } from '../../src/main/core/tunnel/providers';

const ssh = sshCommand(
  { provider: 'ssh', host: 'hooks.example.com', user: 'ada', port: 2222, remotePort: 8080, identityFile: '/keys/id', knownHostsFile: '/keys/known', publicUrl: 'https://hooks.example.com/' },
  43210,
);

describe('ssh', () => {
  it('forwards the remote port to the trigger listener, unattended, with host-key checking on', () => {
    expect(ssh.command).toBe('ssh');
    const args = ssh.args.join(' ');
    expect(args).toContain('-N');
    expect(args).toContain('-R 127.0.0.1:8080:127.0.0.1:43210');
    expect(args).toContain('-o StrictHostKeyChecking=yes');
    expect(args).toContain('-o BatchMode=yes');
    expect(args).toContain('-o ExitOnForwardFailure=yes');
    expect(args).toContain('-p 2222');
    expect(args).toContain('-i /keys/id');
    expect(args).toContain('-o UserKnownHostsFile=/keys/known');
    expect(ssh.args.at(-1)).toBe('ada@hooks.example.com');
    expect(args).not.toContain('StrictHostKeyChecking=no');
  });

  it('leaves out what is not configured', () => {
    const plain = sshCommand({ provider: 'ssh', host: 'box', remotePort: 9000, publicUrl: 'https://box.example' }, 1);
    expect(plain.args.at(-1)).toBe('box');
    expect(plain.args).not.toContain('-p');
    expect(plain.args).not.toContain('-i');
  });

  it('is up at "remote forward success", at the configured public URL', () => {
    expect(ssh.upFrom('debug1: Remote connections from 127.0.0.1:8080 forwarded to local address 127.0.0.1:43210')).toBeUndefined();
    expect(ssh.upFrom('debug1: remote forward success for: listen 127.0.0.1:8080, connect 127.0.0.1:43210')).toBe('https://hooks.example.com');
  });

  it.each([
    ['ada@hooks.example.com: Permission denied (publickey).', 'refused the key'],
    ['Host key verification failed.', 'host key'],
    ['No ED25519 host key is known for [127.0.0.1]:2222 and you have requested strict checking.', 'host key'],
    ['ssh: Could not resolve hostname nowhere.invalid: Name or service not known', 'does not resolve'],
    ['ssh: connect to host 127.0.0.1 port 2222: Connection refused', 'refused the connection'],
    ['Error: remote port forwarding failed for listen port 8080', 'forward the remote port'],
    ['Connection closed by 127.0.0.1 port 2222', 'lost'],
  ])('explains %j', (line, explanation) => {
    expect(ssh.failureFrom(line)).toContain(explanation);
  });

  it('ignores ordinary debug output', () => {
    expect(ssh.failureFrom('debug1: Authentication succeeded (publickey).')).toBeUndefined();
  });
});

describe('cloudflared', () => {
  const cloudflare = cloudflareCommand({ provider: 'cloudflare' }, 43210);

  it('runs a quick tunnel to the trigger listener', () => {
    expect(cloudflare.command).toBe('cloudflared');
    expect(cloudflare.args).toEqual(['tunnel', '--no-autoupdate', '--url', 'http://127.0.0.1:43210']);
    expect(cloudflareCommand({ provider: 'cloudflare', binary: '/opt/cf/cloudflared' }, 1).command).toBe('/opt/cf/cloudflared');
  });

  it('reads the public URL from the box it prints', () => {
    const output = [
      '2026-11-21T09:00:00Z INF Thank you for trying Cloudflare Tunnel. Doing so, without a Cloudflare account, is a quick way to experiment and try it out.',
      '2026-11-21T09:00:00Z INF Requesting new quick Tunnel on trycloudflare.com...',
      '2026-11-21T09:00:03Z INF +--------------------------------------------------------------------------------------------+',
      '2026-11-21T09:00:03Z INF |  Your quick Tunnel has been created! Visit it at (it may take some time to be reachable):  |',
      '2026-11-21T09:00:03Z INF |  https://four-dashed-word-url.trycloudflare.com                                             |',
    ];
    expect(output.map((line) => cloudflare.upFrom(line)).filter(Boolean)).toEqual(['https://four-dashed-word-url.trycloudflare.com']);
  });

  it('explains a failed quick tunnel request', () => {
    const line = 'failed to request quick Tunnel: Post "https://api.trycloudflare.com/tunnel": dial tcp: lookup api.trycloudflare.com: no such host';
    expect(cloudflare.failureFrom(line)).toContain('failed to request quick Tunnel');
    expect(cloudflare.failureFrom('2026-11-21T09:00:00Z ERR Failed to serve quic connection error="timeout"')).toBe('cloudflared: Failed to serve quic connection error="timeout"');
    expect(cloudflare.failureFrom('2026-11-21T09:00:00Z INF Registered tunnel connection')).toBeUndefined();
  });
});

describe('localtunnel', () => {
  const lt = localtunnelCommand({ provider: 'localtunnel', subdomain: 'my-hooks', host: 'https://lt.example.com' }, 43210, '/usr/bin/node', '/app/lt.js');

  it('runs its client with Node against the trigger listener', () => {
    expect(lt.command).toBe('/usr/bin/node');
    expect(lt.args).toEqual(['/app/lt.js', '--port', '43210', '--local-host', '127.0.0.1', '--subdomain', 'my-hooks', '--host', 'https://lt.example.com']);
    expect(lt.env).toEqual({ ELECTRON_RUN_AS_NODE: '1' });
    expect(localtunnelCommand({ provider: 'localtunnel' }, 1, 'node', 'lt.js').args).toEqual(['lt.js', '--port', '1', '--local-host', '127.0.0.1']);
  });

  it('reads the URL it prints', () => {
    expect(lt.upFrom('your url is: https://my-hooks.loca.lt')).toBe('https://my-hooks.loca.lt');
    expect(lt.upFrom('your cachedUrl is: https://x.example')).toBeUndefined();
    expect(lt.failureFrom('Error: connection refused: localtunnel.me:37511 (check your firewall settings)')).toBe(
      'localtunnel: connection refused: localtunnel.me:37511 (check your firewall settings)',
    );
  });
});

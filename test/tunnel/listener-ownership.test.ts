// The tunnel's trigger listener belongs to the attempt that starts it: a halt (stop, or core
// shutdown) while the listener is still starting closes it once it is up, and stop() waits for
// that. The listener here is a real loopback server whose start the test holds back (the injected
// startListener); the provider would be ssh to a closed port, never reached.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/main/core/logger';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { createSecretBox } from '../../src/main/core/secrets';
import { type TriggerListener, createTunnel } from '../../src/main/core/tunnel/tunnel';
import { tempStore } from '../support/core';

const temps: ReturnType<typeof tempStore>[] = [];
afterEach(() => {
  for (const temp of temps.splice(0)) temp.remove();
});

/** startListener that starts a real server only when `release()` is called. */
function heldListener() {
  const servers: net.Server[] = [];
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let asked = () => {};
  const wasAsked = new Promise<void>((resolve) => (asked = resolve));
  const startListener = async (): Promise<TriggerListener> => {
    asked();
    await released;
    const server = net.createServer();
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { port: (server.address() as net.AddressInfo).port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  };
  return { startListener, release, wasAsked, open: () => servers.filter((server) => server.listening).length, started: () => servers.length };
}

function tunnelWith(startListener: () => Promise<TriggerListener>) {
  const temp = tempStore();
  temps.push(temp);
  return createTunnel({ store: temp.store, clock: systemClock, logger: silentLogger(), secrets: createSecretBox(temp.dir), startListener });
}

const closedPort = { provider: 'ssh' as const, host: '127.0.0.1', port: 1, user: 'nobody', remotePort: 8080, publicUrl: 'http://127.0.0.1:8080' };

describe('the tunnel\'s listener', () => {
  it('is closed when the tunnel is stopped while it is still starting, and stop() waits for it', async () => {
    const held = heldListener();
    const tunnel = tunnelWith(held.startListener);
    await tunnel.configure(closedPort);
    const starting = tunnel.start();
    await held.wasAsked;
    const stopping = tunnel.stop();
    held.release();
    await stopping;
    // Closed by the time stop() resolves, and still closed once the attempt has given up.
    expect(held.open()).toBe(0);
    await starting;
    expect(held.started()).toBe(1);
    expect(held.open()).toBe(0);
    expect(tunnel.state().state).toBe('off');
  });

  it('is closed when the core shuts down during its start', async () => {
    const held = heldListener();
    const tunnel = tunnelWith(held.startListener);
    await tunnel.configure(closedPort);
    const starting = tunnel.start();
    await held.wasAsked;
    const closing = tunnel.close();
    held.release();
    await closing;
    await starting;
    expect(held.open()).toBe(0);
  });
});

// The tunnel: a second HTTP listener on loopback serving only the trigger paths, the approvals'
// decision links and /api/health (http/app.ts, triggersOnly), and a provider that forwards a public
// address to it. So the management API is never reachable through the tunnel. States: off →
// connecting → up, and error (with a reason) from which it reconnects with backoff for as long as
// it is meant to be on. The listener is started by an attempt and kept by it only while that
// attempt is still the one wanted: a halt (or a newer attempt) during the start closes it.
import type { TunnelConfig, TunnelConfigView, TunnelState } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import type { Logger } from '../logger';
import type { Clock } from '../scheduler/clock';
import type { SecretBox } from '../secrets';
import type { Store } from '../store';
import { resealed, unchanged } from '../unchanged';
import type { Connection } from './connectors';
import { PermanentTunnelError } from './permanent-error';

export interface TriggerListener {
  port: number;
  close(): Promise<void>;
}

export interface TunnelDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  secrets: SecretBox;
  /** Starts the trigger-only listener on a free loopback port. */
  startListener: () => Promise<TriggerListener>;
  /** How often an up tunnel checks its own public /api/health; default 30 s. */
  healthEveryMs?: number;
}

/** What is stored: the configuration, with the ngrok authtoken sealed. */
type StoredConfig = Exclude<TunnelConfig, { provider: 'ngrok' }> | { provider: 'ngrok'; domain?: string | undefined; sealedAuthtoken?: string | undefined };

const configKey = 'tunnel.config';
const enabledKey = 'tunnel.enabled';
const firstRetryMs = 1_000;
const maxRetryMs = 30_000;
const defaultHealthEveryMs = 30_000;

async function reachable(publicUrl: string): Promise<boolean> {
  try {
    const response = await fetch(`${publicUrl}/api/health`, { signal: AbortSignal.timeout(10_000) });
    return response.ok;
  } catch {
    return false;
  }
}

export function createTunnel({ store, clock, logger, secrets, startListener, healthEveryMs = defaultHealthEveryMs }: TunnelDeps) {
  let listener: TriggerListener | undefined;
  let connection: Connection | undefined;
  /** Bumped whenever what is wanted changes, so that a slow attempt for an older wish stands down. */
  let attempt = 0;
  let retryTimer: unknown;
  let healthTimer: unknown;
  let retryMs = firstRetryMs;
  /** A listener an attempt is starting: a halt waits for it, and it is closed if no longer wanted. */
  let starting: Promise<void> | undefined;
  let status: Pick<TunnelState, 'state' | 'reason' | 'publicUrl' | 'since'> = { state: 'off', reason: null, publicUrl: null, since: clock.now().toISOString() };

  const stored = (): StoredConfig | null => {
    const raw = store.settings.get(configKey);
    return raw ? (JSON.parse(raw) as StoredConfig) : null;
  };
  const wanted = (): boolean => store.settings.get(enabledKey) === 'true';

  function view(config: StoredConfig | null): TunnelConfigView | null {
    if (config?.provider !== 'ngrok') return config;
    return { provider: 'ngrok', ...(config.domain ? { domain: config.domain } : {}), authtokenStored: config.sealedAuthtoken !== undefined };
  }

  function set(next: Pick<TunnelState, 'state' | 'reason' | 'publicUrl'>): void {
    status = { ...next, since: clock.now().toISOString() };
    logger.info({ tunnel: next.state, reason: next.reason, publicUrl: next.publicUrl }, 'tunnel state');
  }

  function clearTimers(): void {
    if (retryTimer !== undefined) clock.clearTimer(retryTimer);
    if (healthTimer !== undefined) clock.clearTimer(healthTimer);
    retryTimer = healthTimer = undefined;
  }

  async function dropConnection(): Promise<void> {
    const open = connection;
    connection = undefined;
    await open?.close().catch((error: unknown) => logger.warn({ err: error }, 'tunnel: closing the provider failed'));
  }

  /** The provider failed or the link dropped: say why, and try again later if still wanted. */
  function fail(reason: string, retry = true): void {
    clearTimers();
    void dropConnection();
    set({ state: 'error', reason, publicUrl: null });
    if (retry && wanted()) {
      retryTimer = clock.setTimer(() => void connect(), retryMs);
      retryMs = Math.min(retryMs * 2, maxRetryMs);
    }
  }

  function watchHealth(publicUrl: string, mine: number): void {
    healthTimer = clock.setTimer(() => {
      void reachable(publicUrl).then((healthy) => {
        if (mine !== attempt || status.state !== 'up') return;
        if (healthy) watchHealth(publicUrl, mine);
        else fail(`The tunnel is up but ${publicUrl}/api/health does not answer through it.`);
      });
    }, healthEveryMs);
  }

  async function connect(): Promise<void> {
    retryTimer = undefined;
    const config = stored();
    if (!config || !wanted()) return;
    const mine = ++attempt;
    await dropConnection();
    set({ state: 'connecting', reason: status.state === 'error' ? status.reason : null, publicUrl: null });
    try {
      const port = (listener ?? (await listen(mine)))?.port;
      if (port === undefined || mine !== attempt) return;
      const authtoken = config.provider === 'ngrok' && config.sealedAuthtoken ? openSecret(config.sealedAuthtoken) : undefined;
      // The providers' code loads with the first tunnel turned on, not with every start.
      const { connectorFor } = await import('./connectors');
      const opened = await connectorFor(config.provider === 'ngrok' ? { provider: 'ngrok', domain: config.domain } : config, authtoken)(port);
      if (mine !== attempt) {
        await opened.close();
        return;
      }
      connection = opened;
      retryMs = firstRetryMs;
      set({ state: 'up', reason: null, publicUrl: opened.publicUrl.replace(/\/+$/, '') });
      watchHealth(status.publicUrl!, mine);
      void opened.ended.then((reason) => {
        if (mine === attempt && connection === opened) fail(reason);
      });
    } catch (error) {
      if (mine !== attempt) return;
      fail((error as Error).message, !(error instanceof PermanentTunnelError));
    }
  }

  /** Starts the listener for attempt `mine`; kept only if that attempt is still wanted once it is up, else closed. */
  async function listen(mine: number): Promise<TriggerListener | undefined> {
    const owned = startListener().then(async (opened) => {
      if (mine === attempt && listener === undefined) return (listener = opened);
      await opened.close();
      return undefined;
    });
    starting = owned.then(
      () => {},
      () => {},
    );
    return owned;
  }

  function openSecret(sealed: string): string {
    try {
      return secrets.open(sealed);
    } catch (error) {
      throw new PermanentTunnelError(`${(error as Error).message} Set the authtoken again.`);
    }
  }

  async function halt(): Promise<void> {
    attempt++;
    clearTimers();
    await dropConnection();
    // A listener still starting is closed by its attempt, now no longer the one wanted.
    await starting;
    const open = listener;
    listener = undefined;
    await open?.close();
  }

  const state = (): TunnelState => ({ config: view(stored()), ...status });

  return {
    state,
    /** The public base URL while the tunnel is up. */
    publicUrl: (): string | null => (status.state === 'up' ? status.publicUrl : null),

    /** Stores a provider's settings (secrets sealed); a tunnel that is on restarts with them. */
    async configure(config: TunnelConfig): Promise<TunnelState> {
      const previous = stored();
      let next: StoredConfig = config;
      if (config.provider === 'ngrok') {
        const keep = previous?.provider === 'ngrok' ? previous.sealedAuthtoken : undefined;
        next = { provider: 'ngrok', domain: config.domain, sealedAuthtoken: config.authtoken ? resealed(secrets, config.authtoken, keep) : keep };
      }
      // The configuration in force again: nothing to store, no tunnel to restart.
      if (previous !== null && unchanged(next, previous)) return state();
      store.settings.set(configKey, JSON.stringify(next));
      if (wanted()) {
        await halt();
        retryMs = firstRetryMs;
        await connect();
      }
      return state();
    },

    async start(): Promise<TunnelState> {
      if (!stored()) throw new AppError('tunnel_not_configured', 'Choose a tunnel provider first (PUT /api/tunnel).');
      store.settings.set(enabledKey, 'true');
      if (status.state === 'off' || status.state === 'error') {
        retryMs = firstRetryMs;
        clearTimers();
        await connect();
      }
      return state();
    },

    async stop(): Promise<TunnelState> {
      store.settings.set(enabledKey, 'false');
      await halt();
      set({ state: 'off', reason: null, publicUrl: null });
      return state();
    },

    /** At core start: bring the tunnel back if it was on when Steward last ran. */
    async resume(): Promise<void> {
      if (wanted() && stored()) await connect();
    },

    /** At core shutdown: stop everything, but remember whether the tunnel was wanted. */
    close: halt,
  };
}

export type Tunnel = ReturnType<typeof createTunnel>;

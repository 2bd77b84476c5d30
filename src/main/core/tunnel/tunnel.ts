// The tunnel: a second HTTP listener on loopback serving only the trigger paths and /api/health,
// and a provider process (ssh, cloudflared) that forwards a public address to it. So the
// management API is never reachable through the tunnel. States: off → connecting → up, and error
// (with a reason) from which it reconnects with backoff for as long as it is meant to be on.
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { type TunnelConfig, type TunnelState, TunnelConfig as TunnelConfigSchema } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import type { Logger } from '../logger';
import type { Clock } from '../scheduler/clock';
import type { Store } from '../store';
import { type ProviderCommand, providerCommand } from './providers';

export interface TriggerListener {
  port: number;
  close(): Promise<void>;
}

export interface TunnelDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  /** Starts the trigger-only listener on a free loopback port. */
  startListener: () => Promise<TriggerListener>;
  /** Checks that a public base URL reaches this Steward: GET <url>/api/health. */
  checkHealth?: (publicUrl: string) => Promise<boolean>;
}

const configKey = 'tunnel.config';
const enabledKey = 'tunnel.enabled';
const firstRetryMs = 1_000;
const maxRetryMs = 30_000;
const healthEveryMs = 30_000;
const connectTimeoutMs = 30_000;

async function defaultHealthCheck(publicUrl: string): Promise<boolean> {
  try {
    const response = await fetch(`${publicUrl}/api/health`, { signal: AbortSignal.timeout(10_000) });
    return response.ok;
  } catch {
    return false;
  }
}

export function createTunnel(deps: TunnelDeps) {
  const { store, clock, logger } = deps;
  const checkHealth = deps.checkHealth ?? defaultHealthCheck;
  let listener: TriggerListener | undefined;
  let child: ChildProcess | undefined;
  let retryTimer: unknown;
  let healthTimer: unknown;
  let retryMs = firstRetryMs;
  let state: TunnelState = { config: null, state: 'off', reason: null, publicUrl: null, since: clock.now().toISOString() };

  const storedConfig = (): TunnelConfig | null => {
    const raw = store.settings.get(configKey);
    if (!raw) return null;
    const parsed = TunnelConfigSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  };
  const wanted = (): boolean => store.settings.get(enabledKey) === 'true';

  function set(next: Pick<TunnelState, 'state' | 'reason' | 'publicUrl'>): void {
    state = { config: storedConfig(), ...next, since: clock.now().toISOString() };
    logger.info({ tunnel: state.state, reason: state.reason, publicUrl: state.publicUrl }, 'tunnel state');
  }

  function clearTimers(): void {
    if (retryTimer !== undefined) clock.clearTimer(retryTimer);
    if (healthTimer !== undefined) clock.clearTimer(healthTimer);
    retryTimer = healthTimer = undefined;
  }

  function killChild(): void {
    const running = child;
    child = undefined;
    if (running && running.exitCode === null) running.kill('SIGTERM');
  }

  /** The provider failed or the link dropped: say why, and try again later if still wanted. */
  function fail(reason: string, retry = true): void {
    killChild();
    clearTimers();
    set({ state: 'error', reason, publicUrl: null });
    if (retry && wanted()) {
      retryTimer = clock.setTimer(() => void connect(), retryMs);
      retryMs = Math.min(retryMs * 2, maxRetryMs);
    }
  }

  function watchHealth(publicUrl: string): void {
    healthTimer = clock.setTimer(() => {
      void checkHealth(publicUrl).then((healthy) => {
        if (state.state !== 'up' || state.publicUrl !== publicUrl) return;
        if (healthy) watchHealth(publicUrl);
        else fail(`The tunnel is up but ${publicUrl}/api/health does not answer through it.`);
      });
    }, healthEveryMs);
  }

  function run(provider: ProviderCommand): void {
    const tool = spawn(provider.command, provider.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = tool;
    let lastFailure: string | undefined;
    const connectTimer = clock.setTimer(() => {
      if (child === tool && state.state === 'connecting') fail(lastFailure ?? `${provider.label} did not bring the tunnel up within ${connectTimeoutMs / 1000} s.`);
    }, connectTimeoutMs);

    const read = (line: string) => {
      if (child !== tool) return;
      lastFailure = provider.failureFrom(line) ?? lastFailure;
      const publicUrl = state.state === 'connecting' ? provider.upFrom(line) : undefined;
      if (publicUrl) {
        clock.clearTimer(connectTimer);
        retryMs = firstRetryMs;
        set({ state: 'up', reason: null, publicUrl });
        watchHealth(publicUrl);
      }
    };
    for (const stream of [tool.stdout, tool.stderr]) createInterface({ input: stream }).on('line', read);

    tool.on('error', (error: NodeJS.ErrnoException) => {
      clock.clearTimer(connectTimer);
      if (child !== tool) return;
      if (error.code === 'ENOENT') fail(`${provider.command} was not found. ${provider.installHint}`, false);
      else fail(`${provider.label} could not start: ${error.message}`);
    });
    tool.on('exit', (code, signal) => {
      clock.clearTimer(connectTimer);
      if (child !== tool) return;
      fail(lastFailure ?? `${provider.label} exited (${signal ?? `code ${code}`}).`);
    });
  }

  async function connect(): Promise<void> {
    retryTimer = undefined;
    const config = storedConfig();
    if (!config || !wanted()) return;
    killChild();
    set({ state: 'connecting', reason: state.state === 'error' ? state.reason : null, publicUrl: null });
    try {
      listener ??= await deps.startListener();
    } catch (error) {
      fail(`The trigger listener could not start: ${(error as Error).message}`);
      return;
    }
    if (!wanted()) return;
    run(providerCommand(config, listener.port));
  }

  async function halt(): Promise<void> {
    clearTimers();
    killChild();
    const open = listener;
    listener = undefined;
    await open?.close();
  }

  return {
    state: (): TunnelState => ({ ...state, config: storedConfig() }),
    /** The public base URL while the tunnel is up. */
    publicUrl: (): string | null => (state.state === 'up' ? state.publicUrl : null),

    async configure(config: TunnelConfig): Promise<TunnelState> {
      store.settings.set(configKey, JSON.stringify(config));
      if (wanted()) {
        await halt();
        retryMs = firstRetryMs;
        await connect();
      } else {
        state = { ...state, config };
      }
      return this.state();
    },

    async start(): Promise<TunnelState> {
      if (!storedConfig()) throw new AppError('tunnel_not_configured', 'Choose a tunnel provider first (PUT /api/tunnel).');
      store.settings.set(enabledKey, 'true');
      if (state.state === 'off' || state.state === 'error') {
        retryMs = firstRetryMs;
        clearTimers();
        await connect();
      }
      return this.state();
    },

    async stop(): Promise<TunnelState> {
      store.settings.set(enabledKey, 'false');
      await halt();
      set({ state: 'off', reason: null, publicUrl: null });
      return this.state();
    },

    /** At core start: bring the tunnel back if it was on when Steward last ran. */
    async resume(): Promise<void> {
      if (wanted() && storedConfig()) await connect();
    },

    /** At core shutdown: stop everything but remember whether the tunnel was wanted. */
    close: halt,
  };
}

export type Tunnel = ReturnType<typeof createTunnel>;

// createCore: the whole plain-Node core (store, services, HTTP API) on one data folder.
// The desktop app and `steward serve` both start it; tests start it on a temp folder.
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import packageJson from '../../../package.json' with { type: 'json' };
import { acquireDataLock } from './data-lock';
import { type Dispatch, createDispatch } from './dispatch';
import { createHandlers } from './handlers';
import { buildHttpApp } from './http/app';
import { createLifetime } from './lifetime';
import { type HttpLimits, defaultHttpLimits } from './http/limits';
import { buildOpenApiDocument } from './http/openapi';
import { type Logger, createLogger } from './logger';
import { type Clock, systemClock } from './scheduler/clock';
import { type Services, createServices } from './compose-services';
import type { NotificationTiming } from './services/notification-dispatcher';
import type { RemoteTiming } from './remotes/follower';
import { type Store, openStore } from './store';
import { ensurePrivateDir } from './store/database';

export const version: string = packageJson.version;
export const defaultPort = 7321;
const closeGraceMs = 5_000;

export interface CoreOptions {
  dataDir: string;
  /** Default 7321; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1: the API is reachable from this machine only. */
  host?: string;
  /** false: no HTTP listener (the CLI's key commands). */
  listen?: boolean;
  /**
   * Take the data folder's serving lock (steward.lock), so that no second Steward serves it at
   * once. Default: when listening; the CLI's key commands work beside a running daemon.
   */
  lockDataDir?: boolean;
  /** Default: the system clock. Tests move a clock of their own. */
  clock?: Clock;
  logger?: Logger;
  /** better_sqlite3.node built for the running runtime (Electron). */
  nativeBinding?: string;
  /** The built renderer, served as the web UI (headless); none by default. */
  webRoot?: string;
  /** Host names besides loopback ones that may reach the management API. */
  allowedHosts?: readonly string[];
  /** Run notifications' retry waits and attempt time limit; tests shorten them. */
  notificationTiming?: NotificationTiming;
  /** What one HTTP client may hold (request timeout, connections, event streams); tests shorten them. */
  httpLimits?: Partial<HttpLimits>;
  /** How remote Stewards are retried and checked; tests shorten it. */
  remoteTiming?: Partial<RemoteTiming>;
  /** The wait before an event source's next attempt after `failures` failed ones; tests shorten it. */
  sourceBackoffMs?: (failures: number) => number;
}

export interface Core {
  services: Services;
  /** Every mapped operation, validated: the desktop IPC calls through this. */
  dispatch: Dispatch;
  store: Store;
  app: FastifyInstance;
  /** http://host:port of the listener; the configured address when not listening. */
  url: string;
  dataDir: string;
  /** The core's clock: what its timestamps are measured by. */
  clock: Clock;
  close(): Promise<void>;
}

function httpUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export async function createCore(options: CoreOptions): Promise<Core> {
  const host = options.host ?? '127.0.0.1';
  const logger = options.logger ?? createLogger();
  const dataDir = path.resolve(options.dataDir);
  ensurePrivateDir(dataDir);
  const life = createLifetime(logger);
  if (options.lockDataDir ?? options.listen !== false) {
    const lock = acquireDataLock(dataDir);
    life.hold('data folder lock', () => lock.release());
  }
  let store: Store | undefined;
  await life.start('store', () => {
    const opened = openStore(path.join(dataDir, 'steward.db'), { nativeBinding: options.nativeBinding });
    store = opened;
    return () => opened.close();
  });
  let url = httpUrl(host, options.port ?? defaultPort);
  const clock = options.clock ?? systemClock;
  const limits: HttpLimits = { ...defaultHttpLimits, ...options.httpLimits };
  try {
    const services: Services = createServices({
      store: store!,
      clock,
      now: () => clock.now(),
      logger,
      dataDir,
      baseUrl: () => url,
      notificationTiming: options.notificationTiming,
      remoteTiming: options.remoteTiming,
      sourceBackoffMs: options.sourceBackoffMs,
      // The tunnel forwards to a listener of trigger routes only, built from the same services and
      // operations as the API (`api`, made below: a tunnel starts only once the core has).
      startTriggerListener: async () => {
        const triggersOnly = await buildHttpApp(api, { triggersOnly: true, limits });
        await triggersOnly.listen({ host: '127.0.0.1', port: 0 });
        const address = triggersOnly.server.address();
        return { port: typeof address === 'object' && address ? address.port : 0, close: () => triggersOnly.close() };
      },
    });
    services.instances.ensureDefault();
    let openApiDocument: Record<string, unknown> | undefined;
    const handlers = createHandlers(services, {
      version,
      startedAt: Date.now(),
      openApiDocument: () => (openApiDocument ??= buildOpenApiDocument(version)),
      dataDir,
      apiUrl: () => url,
    });
    const dispatch = createDispatch(handlers, { route: services.route, reach: services.runKeyReach });
    const api = { services, dispatch, logger };
    const app = await buildHttpApp(api, { limits, web: { webRoot: options.webRoot, allowedHosts: (options.allowedHosts ?? []).map((name) => name.toLowerCase()) } });
    await life.start('http', async () => {
      // In-flight requests get a grace period to finish; a client that stalls mid-request does
      // not hold the shutdown hostage.
      const close = async () => {
        const cutOff = setTimeout(() => app.server.closeAllConnections(), closeGraceMs);
        try {
          await app.close();
        } finally {
          clearTimeout(cutOff);
        }
      };
      if (options.listen === false) return close;
      await app.listen({ host, port: options.port ?? defaultPort });
      const address = app.server.address();
      if (address && typeof address === 'object') url = httpUrl(host, address.port);
      return close;
    });
    if (options.listen !== false) await services.start(life, dispatch);
    return {
      services,
      dispatch,
      store: store!,
      app,
      get url() {
        return url;
      },
      dataDir,
      clock,
      close: () => life.stop(),
    };
  } catch (error) {
    await life.stop();
    throw error;
  }
}

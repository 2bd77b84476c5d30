// A real core for a test: a temp data folder, a real SQLite file, a real HTTP listener on a free
// loopback port, and an API key. Each test file owns its own.
import fs from 'node:fs';
import path from 'node:path';
import { type Core, createCore } from '../../src/main/core';
import type { HttpLimits } from '../../src/main/core/http/limits';
import type { RemoteTiming } from '../../src/main/core/remotes/follower';
import { silentLogger } from '../../src/main/core/logger';
import type { Clock } from '../../src/main/core/scheduler/clock';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { type ServiceContext, createServices } from '../../src/main/core/compose-services';
import type { NotificationTiming } from '../../src/main/core/services/notification-dispatcher';
import { expect } from 'vitest';
import { ManualClock } from './clock';
import { type Store, openStore } from '../../src/main/core/store';
import { type ApiResponse, request, tempDir } from './temp';

export interface TestCore {
  core: Core;
  url: string;
  key: string;
  dataDir: string;
  /** fetch against the core with the API key unless `headers.authorization` says otherwise. */
  api(method: string, route: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse>;
  close(): Promise<void>;
}

export { type ApiResponse, request, tempDir } from './temp';

/**
 * The core's clock stands still unless the test moves it (`clock`): no automation fires in the
 * middle of a test that compares stored state before and after a request.
 */
export async function startTestCore(
  options: { clock?: Clock; dataDir?: string; notificationTiming?: NotificationTiming; httpLimits?: Partial<HttpLimits>; remoteTiming?: Partial<RemoteTiming>; sourceBackoffMs?: (failures: number) => number } = {},
): Promise<TestCore> {
  const dataDir = options.dataDir ?? tempDir();
  const core = await createCore({
    dataDir,
    port: 0,
    logger: silentLogger(),
    clock: options.clock ?? new ManualClock(new Date()),
    notificationTiming: options.notificationTiming,
    httpLimits: options.httpLimits,
    remoteTiming: options.remoteTiming,
    sourceBackoffMs: options.sourceBackoffMs,
  });
  const { key } = core.services.apiKeys.create('test');
  return {
    core,
    url: core.url,
    key,
    dataDir,
    api(method, route, body, headers = {}) {
      const init: RequestInit = { method, headers: { authorization: `Bearer ${key}`, ...headers } };
      if (body !== undefined) {
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
        (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
      }
      return request(core.url + route, init);
    },
    async close() {
      await core.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A store on a fresh SQLite file for each test; `remove` closes it and deletes its folder. */
export function tempStore(): { store: Store; dir: string; remove(): void } {
  const dir = tempDir('steward-store-');
  const store = openStore(path.join(dir, 'steward.db'));
  return {
    store,
    dir,
    remove() {
      store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The services on a store, without HTTP: for tests of the core's rules. */
export function servicesFor(store: Store, dataDir: string, clock: Clock = systemClock, extra: Pick<ServiceContext, 'loadSourceKind' | 'sourceBackoffMs'> = {}) {
  return createServices({ store, clock, now: () => clock.now(), logger: silentLogger(), dataDir, baseUrl: () => 'http://127.0.0.1:7321', ...extra });
}

/** An imageTag as a sandboxed instance shows it: `custom:cat · sandbox (bubblewrap 0.8.0)`. */
export const sandboxedTag = (agent: string) => expect.stringMatching(new RegExp(`^${agent.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} · sandbox \\(bubblewrap \\d`));

/** What a sandboxed instance's imageTag ends with on this machine: ` · sandbox (bubblewrap 0.8.0, limits by cgroup v1)`. */
export async function sandboxSuffix(): Promise<string> {
  const { sandboxSupport, sandboxWords } = await import('../../src/main/core/sandbox/host-support');
  const support = await sandboxSupport();
  return support.ok ? ` · sandbox (${sandboxWords(support)})` : ' · sandbox (unavailable)';
}

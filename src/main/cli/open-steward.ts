// Where a command's operations go: through the daemon serving the data folder when one does (so it
// acts on them at once: a remote added is followed now), else to the data folder itself in this
// process, without listening and without its lock, as `keys` does. Either way by the contract's
// operations, validated as over the API and refused with its errors. The daemon is the one the
// folder's lock names (data-lock.ts), reached on --port with STEWARD_API_KEY, and checked to serve
// this folder: a daemon of another folder on that port is not taken for it.
import fs from 'node:fs';
import { type OperationOutput, type Operations, operations } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import { fillPath } from '../../shared/operation-path';
import { createCore } from '../core';
import { dataDirServer } from '../core/data-lock';
import type { RawInput } from '../core/dispatch';
import type { MappedName } from '../core/handlers';
import { createLogger } from '../core/logger';
import { createRemoteClient } from '../core/remotes/remote-client';
import { daemonAnswers } from './daemon-answers';

/** Longer than the daemon takes to check an unreachable remote (10 s for each of two requests). */
const callTimeoutMs = 30_000;

export type Call = <N extends MappedName>(name: N, raw?: RawInput) => Promise<OperationOutput<Operations[N]>>;

export interface Steward {
  call: Call;
  /** The daemon's address, or undefined when the calls go to the data folder (nothing follows them until a daemon starts). */
  daemonUrl: string | undefined;
  close(): Promise<void>;
}

const samePath = (a: string, b: string) => {
  const real = (file: string) => (fs.existsSync(file) ? fs.realpathSync(file) : file);
  return real(a) === real(b);
};

/** Operations over HTTP with the daemon's key; its refusals as the AppErrors it sent. */
function daemonCall(baseUrl: string, key: string): Call {
  const client = createRemoteClient({ name: 'daemon', url: baseUrl, key });
  const own = (error: unknown): unknown => {
    if (!(error instanceof AppError)) return error;
    // The daemon's own answer: as it said it, without the client's label.
    if (error.message.startsWith(`${client.label}: `)) return new AppError(error.code, error.message.slice(client.label.length + 2), error.field ? { field: error.field } : {});
    if (error.code === 'remote_unauthorized') {
      return new AppError('unauthorized', `The Steward on ${baseUrl} refused STEWARD_API_KEY: it must be an admin API key of that Steward (steward keys create --name NAME).`);
    }
    return new AppError(error.code, error.message.replace(client.label, `The Steward on ${baseUrl}`));
  };
  return async <N extends MappedName>(name: N, raw: RawInput = {}) => {
    const operation = operations[name];
    try {
      const path = fillPath(operation, raw.params as Record<string, unknown> | undefined);
      return await client.call<OperationOutput<Operations[N]>>(operation.method, path, { query: raw.query as Record<string, unknown> | undefined, body: raw.body, timeoutMs: callTimeoutMs });
    } catch (error) {
      throw own(error);
    }
  };
}

export async function openSteward(dataDir: string, port: number, apiKey: string | undefined): Promise<Steward> {
  const server = dataDirServer(dataDir);
  if (!server) {
    const core = await createCore({ dataDir, listen: false, logger: createLogger('warn') });
    const call: Call = <N extends MappedName>(name: N, raw: RawInput = {}) => core.dispatch(name, raw) as Promise<OperationOutput<Operations[N]>>;
    // An instance made or changed here is probed in the background: closing under it would leave it "provisioning".
    return { call, daemonUrl: undefined, close: () => core.services.instances.idle().then(() => core.close()) };
  }
  const who = `A Steward (${server.pid === null ? 'starting' : `pid ${server.pid}`}${server.host ? ` on ${server.host}` : ''}) serves ${dataDir}`;
  if (server.host) throw new Error(`${who}: run this command there, where it can reach that Steward.`);
  const baseUrl = `http://127.0.0.1:${port}`;
  if (!(await daemonAnswers(baseUrl))) throw new Error(`${who}, but nothing answers on ${baseUrl}: give its port with --port (or STEWARD_PORT).`);
  if (!apiKey) throw new Error(`${who} on ${baseUrl}: set STEWARD_API_KEY to an admin API key of it (steward keys create --name NAME), so that it acts on this at once.`);
  const call = daemonCall(baseUrl, apiKey);
  const { system } = await call('system.get');
  if (!samePath(system.dataDir, dataDir)) throw new Error(`The Steward on ${baseUrl} serves ${system.dataDir}, not ${dataDir}: give the port of the one serving ${dataDir} with --port.`);
  return { call, daemonUrl: baseUrl, close: async () => {} };
}

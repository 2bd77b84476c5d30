// The `steward` command: `serve` runs the core headless; `keys` manages API keys.
import { parseArgs } from 'node:util';
import { type Core, createCore, defaultPort } from './core';
import { resolveDataDir } from './core/data-dir';
import { createLogger } from './core/logger';

const usage = `Usage: steward <command> [options]

Commands:
  serve                     Run the API on 127.0.0.1 (--port P, --host H; STEWARD_PORT)
  keys create --name NAME   Make an API key; it is printed once, as the last line
  keys list                 List API keys
  keys revoke ID            Revoke an API key at once

Options:
  --data-dir DIR            Data folder (STEWARD_DATA_DIR; default: the OS's app data folder)
`;

class UsageError extends Error {}

function parsePort(value: string | undefined): number {
  const raw = value ?? process.env.STEWARD_PORT;
  if (raw === undefined || raw === '') return defaultPort;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError(`The port must be a whole number from 0 to 65535, not "${raw}".`);
  return port;
}

async function serve(dataDir: string, port: number, host: string): Promise<void> {
  let core: Core;
  try {
    core = await createCore({ dataDir, port, host, logger: createLogger() });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new UsageError(`Port ${port} is already in use: stop what holds it, or choose another with --port or STEWARD_PORT.`);
    }
    throw error;
  }
  process.stdout.write(`Steward is listening on ${core.url}\nData folder: ${core.dataDir}\nPress Ctrl+C to stop.\n`);
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    process.stdout.write(`\n${signal}: stopping…\n`);
    core.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`Could not stop cleanly: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

async function keys(dataDir: string, action: string | undefined, args: string[], name: string | undefined): Promise<void> {
  const core = await createCore({ dataDir, listen: false, logger: createLogger('warn') });
  try {
    const { apiKeys } = core.services;
    if (action === 'create') {
      if (!name) throw new UsageError('keys create needs --name NAME.');
      const { apiKey, key } = apiKeys.create(name);
      process.stdout.write(`Created API key ${apiKey.id} (${apiKey.name}). It is shown only now:\n${key}\n`);
    } else if (action === 'list') {
      const list = apiKeys.list();
      if (list.length === 0) process.stdout.write('No API keys. Make one with: steward keys create --name NAME\n');
      for (const key of list) process.stdout.write(`${key.id}  ${key.preview}…  ${key.name}  created ${key.createdAt}  last used ${key.lastUsedAt ?? 'never'}\n`);
    } else if (action === 'revoke') {
      const id = args[0];
      if (!id) throw new UsageError('keys revoke needs the key id (see keys list).');
      apiKeys.revoke(id);
      process.stdout.write(`Revoked ${id}.\n`);
    } else {
      throw new UsageError(`Unknown keys command "${action ?? ''}".`);
    }
  } finally {
    await core.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'data-dir': { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      name: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, action, ...rest] = positionals;
  if (values.help || !command) {
    process.stdout.write(usage);
    return;
  }
  const dataDir = resolveDataDir(values['data-dir']);
  if (command === 'serve') return serve(dataDir, parsePort(values.port), values.host ?? '127.0.0.1');
  if (command === 'keys') return keys(dataDir, action, rest, values.name);
  throw new UsageError(`Unknown command "${command}".`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const known = error instanceof UsageError || (error instanceof Error && 'code' in error && typeof (error as { code: unknown }).code === 'string' && (error as { code: string }).code.startsWith('ERR_PARSE_ARGS'));
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(known ? `${message}\n\n${usage}` : `steward: ${message}\n`);
  process.exit(known ? 2 : 1);
});

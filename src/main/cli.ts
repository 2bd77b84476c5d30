#!/usr/bin/env node
// The `steward` command: `serve` runs the core headless with the web UI; `keys` manages API keys;
// `login-link` opens the web UI in a browser once; `service` runs `serve` at login; `backup`
// copies the database; `mcp` serves the MCP tools over stdio; `remotes` manages the remote Stewards
// followed; `export` and `apply` are its configuration as files. Built to out/main/cli.js, the package's bin, run by plain Node.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { backupDatabase } from './cli/backup';
import { NoDataDirError, checkDataDir } from './cli/data-dir-check';
import { type ServiceAction, serviceActions, serviceCommand } from './cli/service';
import { UsageError } from './cli/usage-error';
import { printable } from '../shared/printable';
import { type ApiKey, type Scope, scopes } from '../shared/contract';
import { type Core, createCore, defaultPort } from './core';
import { resolveDataDir } from './core/data-dir';
import { DataDirInUseError } from './core/data-lock';
import { createLogger } from './core/logger';
import type { ServeOptions } from './service/spec';

const usage = `Usage: steward <command> [options]

Commands:
  serve                     Run the API and the web UI on 127.0.0.1 (--port P, --host H; STEWARD_PORT;
                            --allowed-host NAME, repeatable, STEWARD_ALLOWED_HOSTS: other names it answers to)
  login-link                A one-time link that opens the web UI in a browser (--port P)
  keys create --name NAME   Make an API key; it is printed once, as the last line (--scope admin|runs|read:
                            admin by default; runs sends prompts and reads; read only reads)
                            Without --data-dir or STEWARD_DATA_DIR, keys and login-link use the default
                            folder only once a Steward uses it: else they refuse, naming it
  keys list                 List API keys
  keys revoke ID            Revoke an API key at once
  service install           Run \`steward serve\` at login with these options (--port, --host, --allowed-host,
                            --data-dir): a systemd user unit on Linux, a launchd agent on macOS
  service uninstall         Stop it and remove it
  service status            Whether it is installed and running
  backup FILE               A consistent copy of the database, safe while the daemon runs
  mcp                       Steward's MCP server over stdio: through the daemon on --port when one answers
                            (STEWARD_API_KEY), else on the data folder directly
  remotes add NAME URL      Follow another Steward: its API key on stdin or in STEWARD_REMOTE_KEY (stored as the
                            secret remote-NAME), or --key-ref SECRET naming a stored one; checks the connection
  remotes list              The remote Stewards followed: id, name, URL, state, version, latency, error
  remotes remove ID|NAME    Stop following one: its instances and lines go from here, nothing changes there
                            (remotes act through the daemon serving the data folder, on --port with
                            STEWARD_API_KEY, so it follows at once; with none running, on the data folder)
  export [KIND [NAME]]      Instances, automations and webhooks as YAML (secrets by name, no tokens): one file
                            on stdout, or -o FILE.yaml, or -o DIR for a file per resource (DIR/automations/…);
                            KIND is instance, automation or webhook
  apply -f PATH             Apply a YAML file, a folder of them, or - (stdin): shows the changes, then makes them
                            all in one transaction or none (--dry-run: only show them; --prune: delete what came
                            from these files, or this folder's, before and is no longer named; --prune-all:
                            delete everything not named)
                            export and apply take --remote NAME: a remote Steward, through this one

Options:
  --data-dir DIR            Data folder (STEWARD_DATA_DIR; default: the OS's app data folder)
`;

function parsePort(value: string | undefined): number {
  const raw = value ?? process.env.STEWARD_PORT;
  if (raw === undefined || raw === '') return defaultPort;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError(`The port must be a whole number from 0 to 65535, not "${raw}".`);
  return port;
}

/** The built renderer: beside the bundled CLI (out/main → out/renderer), or out/renderer of the project under tsx. */
function findWebRoot(): string | undefined {
  const candidates = [process.env.STEWARD_WEB_ROOT, path.resolve(import.meta.dirname, '../../out/renderer'), path.resolve(import.meta.dirname, '../renderer')];
  // A built renderer has its assets folder (src/renderer has an index.html too, the unbuilt one).
  return candidates.find((dir) => dir !== undefined && fs.existsSync(path.join(dir, 'index.html')) && fs.existsSync(path.join(dir, 'assets')));
}

const loginUrl = (baseUrl: string, token: string) => `${baseUrl}/login?token=${token}`;

async function serve(dataDir: string, port: number, host: string, allowedHosts: string[]): Promise<void> {
  let core: Core;
  try {
    core = await createCore({ dataDir, port, host, logger: createLogger(), webRoot: findWebRoot(), allowedHosts });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new UsageError(`Port ${port} is already in use: stop what holds it, or choose another with --port or STEWARD_PORT.`);
    }
    throw error;
  }
  const link = loginUrl(core.url, core.services.access.createLoginToken());
  process.stdout.write(`Steward is listening on ${core.url}\nData folder: ${core.dataDir}\nOpen the web UI (this link works once, for 10 minutes):\n${link}\nPress Ctrl+C to stop.\n`);
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

function parseScope(value: string | undefined): Scope {
  if (value === undefined) return 'admin';
  const scope = scopes.find((each) => each === value);
  if (!scope) throw new UsageError(`The scope must be one of ${scopes.join(', ')}, not "${value}".`);
  return scope;
}

async function keys(dataDir: string, action: string | undefined, args: string[], name: string | undefined, scopeOption: string | undefined): Promise<void> {
  const scope = parseScope(scopeOption);
  const core = await createCore({ dataDir, listen: false, logger: createLogger('warn') });
  try {
    const { apiKeys } = core.services;
    if (action === 'create') {
      if (!name) throw new UsageError('keys create needs --name NAME.');
      // Through the contract, so a name with control characters is refused here as over the API.
      const { apiKey, key } = (await core.dispatch('keys.create', { body: { name, scope } })) as { apiKey: ApiKey; key: string };
      process.stdout.write(`Created API key ${apiKey.id} (${apiKey.name}, scope ${apiKey.scope}). It is shown only now:\n${key}\n`);
    } else if (action === 'list') {
      const list = apiKeys.list();
      if (list.length === 0) process.stdout.write('No API keys. Make one with: steward keys create --name NAME\n');
      for (const key of list) process.stdout.write(`${key.id}  ${key.preview}…  ${key.name}  ${key.scope}  created ${key.createdAt}  last used ${key.lastUsedAt ?? 'never'}\n`);
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

async function loginLink(dataDir: string, port: number): Promise<void> {
  const core = await createCore({ dataDir, listen: false, logger: createLogger('warn') });
  try {
    process.stdout.write(`Open this link in a browser on this machine (it works once, for 10 minutes):\n${loginUrl(`http://127.0.0.1:${port}`, core.services.access.createLoginToken())}\n`);
  } finally {
    await core.close();
  }
}

async function backup(dataDir: string, target: string | undefined): Promise<void> {
  if (!target) throw new UsageError('backup needs the file to write (steward backup FILE).');
  const { file, bytes } = await backupDatabase(dataDir, target);
  process.stdout.write(`Backed up ${path.join(dataDir, 'steward.db')} to ${file} (${(bytes / 1024 / 1024).toFixed(1)} MB, ${bytes} bytes).\n`);
  const key = path.join(dataDir, 'secret.key');
  if (fs.existsSync(key)) process.stdout.write(`The secrets stored in it are sealed with ${key}: keep a copy of that file too (it does not change).\n`);
}

function service(action: string | undefined, options: ServeOptions): void {
  if (!serviceActions.includes(action as ServiceAction)) throw new UsageError(`Unknown service command "${action ?? ''}": install, uninstall or status.`);
  if (action === 'install' && options.port === 0) throw new UsageError('A service needs a fixed port: leave --port out (7321) or choose one.');
  serviceCommand(action as ServiceAction, fileURLToPath(import.meta.url), options);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
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
      scope: { type: 'string' },
      'allowed-host': { type: 'string', multiple: true },
      'key-ref': { type: 'string' },
      file: { type: 'string', short: 'f' },
      out: { type: 'string', short: 'o' },
      'dry-run': { type: 'boolean' },
      prune: { type: 'boolean' },
      'prune-all': { type: 'boolean' },
      remote: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, action, ...rest] = positionals;
  if (values.help || !command) {
    process.stdout.write(usage);
    return;
  }
  const dataDir = resolveDataDir(values['data-dir']);
  const allowedHosts = [...(values['allowed-host'] ?? []), ...(process.env.STEWARD_ALLOWED_HOSTS ?? '').split(',')].map((name) => name.trim()).filter(Boolean);
  const host = values.host ?? '127.0.0.1';
  if (command === 'serve') return serve(dataDir, parsePort(values.port), host, allowedHosts);
  if (command === 'service') return service(action, { dataDir, port: parsePort(values.port), host, allowedHosts });
  if (command === 'backup') return backup(dataDir, action);
  // These open the folder directly: never a new, empty one nobody serves (data-dir-check.ts).
  const chosen = values['data-dir'] !== undefined || (process.env.STEWARD_DATA_DIR ?? '') !== '';
  if (command === 'login-link') return checkDataDir(dataDir, chosen, parsePort(values.port)).then(() => loginLink(dataDir, parsePort(values.port)));
  if (command === 'keys') return checkDataDir(dataDir, chosen, parsePort(values.port)).then(() => keys(dataDir, action, rest, values.name, values.scope));
  if (command === 'remotes') {
    const [{ remotesCommand }, { openSteward }] = await Promise.all([import('./cli/remotes'), import('./cli/open-steward')]);
    return remotesCommand(() => openSteward(dataDir, parsePort(values.port), process.env.STEWARD_API_KEY), action, rest, values['key-ref']);
  }
  if (command === 'export' || command === 'apply') {
    const [config, { openSteward }] = await Promise.all([import('./cli/config'), import('./cli/open-steward')]);
    await checkDataDir(dataDir, chosen, parsePort(values.port));
    const steward = await openSteward(dataDir, parsePort(values.port), process.env.STEWARD_API_KEY);
    const write = (text: string) => void process.stdout.write(text);
    try {
      if (command === 'export') return await config.exportCommand(steward, [action, ...rest].filter((each) => each !== undefined), { out: values.out, remote: values.remote }, write);
      if (action !== undefined) throw new UsageError(`apply takes its files with -f PATH, not "${action}".`);
      return await config.applyCommand(steward, { file: values.file, dryRun: values['dry-run'] ?? false, prune: values.prune ?? false, pruneAll: values['prune-all'] ?? false, remote: values.remote }, write, readStdin);
    } finally {
      await steward.close();
    }
  }
  // Loaded only for this command: the MCP SDK is no part of `serve`'s start.
  if (command === 'mcp') return (await import('./cli/mcp')).mcp(dataDir, parsePort(values.port), process.env.STEWARD_API_KEY);
  throw new UsageError(`Unknown command "${command}".`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  // Another Steward serves the folder, or none uses the default one: as a usage error, exit 2, which a service unit does not restart on.
  if (error instanceof DataDirInUseError || error instanceof NoDataDirError) {
    process.stderr.write(`steward: ${error.message}\n`);
    process.exit(2);
  }
  const known = error instanceof UsageError || (error instanceof Error && 'code' in error && typeof (error as { code: unknown }).code === 'string' && (error as { code: string }).code.startsWith('ERR_PARSE_ARGS'));
  // Escaped but for its line breaks: a message may quote a file's or a remote Steward's words.
  const message = printable(error instanceof Error ? error.message : String(error), true);
  process.stderr.write(known ? `${message}\n\n${usage}` : `steward: ${message}\n`);
  process.exit(known ? 2 : 1);
});

// `steward remotes add|list|remove`: the remote Stewards this one follows, managed by the remotes
// operations (open-steward.ts: through the daemon serving the data folder, or on the folder). A
// remote's API key comes from stdin or STEWARD_REMOTE_KEY, never from the command line (shell
// history, `ps`), and is stored as a secret before the remote is added; it is never printed.
import { createHash } from 'node:crypto';
import readline from 'node:readline';
import { Writable } from 'node:stream';
import type { Remote, RemoteCheck } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import type { Call, Steward } from './open-steward';
import { UsageError } from './usage-error';
import { slugPart } from '../core/services/instances';

const keyHelp = 'the key on stdin, in STEWARD_REMOTE_KEY, or the name of a stored secret holding it with --key-ref SECRET';

/** The secret `remotes add` stores a remote's key in: `remote-` and its name's slug. */
export function keySecretName(name: string): string {
  const slug = slugPart(name, 60);
  // A name with no letter or digit of the Latin alphabet still gets a name of its own.
  return `remote-${slug || createHash('sha256').update(name).digest('hex').slice(0, 12)}`;
}

/** Typed at a terminal without being shown. */
function promptHidden(question: string): Promise<string> {
  process.stderr.write(question);
  const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
  const input = readline.createInterface({ input: process.stdin, output: muted, terminal: true });
  return new Promise((resolve) => {
    input.once('line', (line) => resolve(line));
    input.once('close', () => resolve(''));
    input.on('SIGINT', () => input.close());
  }).finally(() => {
    input.close();
    process.stderr.write('\n');
  }) as Promise<string>;
}

async function readStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text;
}

async function remoteKey(): Promise<string> {
  const fromEnv = process.env.STEWARD_REMOTE_KEY?.trim();
  if (fromEnv) return fromEnv;
  const key = (process.stdin.isTTY ? await promptHidden("The remote Steward's API key (not shown): ") : await readStdin()).trim();
  if (!key) throw new UsageError(`remotes add needs the remote's API key: ${keyHelp}.`);
  return key;
}

function describeCheck(check: RemoteCheck): string {
  if (check.state === 'connected') return `Connected: Steward ${check.version ?? 'of unknown version'}, ${check.instanceCount} instance${check.instanceCount === 1 ? '' : 's'}, ${check.latencyMs ?? '?'} ms.`;
  return `Not connected (${check.state}): ${check.error ?? 'no reason given'}`;
}

/** Where `add` finds the remote's key: a stored secret, or the key itself (read before anything is opened). */
type KeySource = { ref: string } | { value: string };

async function keySource(keyRef: string | undefined): Promise<KeySource> {
  if (keyRef === undefined) return { value: await remoteKey() };
  if (process.env.STEWARD_REMOTE_KEY) throw new UsageError('Give the key either in STEWARD_REMOTE_KEY or with --key-ref, not both.');
  return { ref: keyRef };
}

async function add(steward: Steward, name: string, url: string, key: KeySource): Promise<void> {
  const { call } = steward;
  const apiKeyRef = 'ref' in key ? key.ref : keySecretName(name);
  if ('value' in key) {
    // Another remote's key, or whatever else it holds, is not replaced.
    if ((await call('secrets.list')).secrets.some((secret) => secret.name === apiKeyRef)) {
      throw new AppError('invalid_field', `A secret named ${apiKeyRef} is already stored: use it with --key-ref ${apiKeyRef}, or choose another name.`, { field: 'apiKeyRef' });
    }
    await call('secrets.put', { params: { name: apiKeyRef }, body: { value: key.value } });
  }
  let remote: Remote;
  try {
    ({ remote } = await call('remotes.create', { body: { name, url, apiKeyRef } }));
  } catch (error) {
    // Refused: the key stored for it goes too.
    if ('value' in key) await call('secrets.delete', { params: { name: apiKeyRef } }).catch(() => {});
    throw error;
  }
  process.stdout.write(`Added remote “${remote.name}” (${remote.id}) at ${remote.url}; its key is in the secret ${apiKeyRef}.\n`);
  const { check } = await call('remotes.check', { body: { url: remote.url, apiKeyRef } });
  process.stdout.write(`${describeCheck(check)}\n`);
  if (check.state !== 'connected') process.stdout.write('It is added all the same: Steward keeps trying to connect (steward remotes list shows how it goes).\n');
  if (!steward.daemonUrl) process.stdout.write(`No Steward daemon serves this data folder now: it follows the remote from its next start.\n`);
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  // The last column (the error) is not padded: it is as long as it is.
  return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]))).join('  ').trimEnd()).join('\n');
}

async function list(steward: Steward): Promise<void> {
  const { remotes } = await steward.call('remotes.list');
  if (remotes.length === 0) {
    process.stdout.write('No remotes. Add one with: steward remotes add NAME URL\n');
    return;
  }
  // Without a daemon nothing follows them, so no state is known: each is checked now instead.
  const shown = steward.daemonUrl ? remotes : await Promise.all(remotes.map(async (remote) => ({ ...remote, ...(await steward.call('remotes.check', { body: { url: remote.url, apiKeyRef: remote.apiKeyRef } })).check })));
  const rows = shown.map((remote) => [remote.id, remote.name, remote.url, remote.state, remote.version ?? '-', remote.latencyMs === null ? '-' : `${remote.latencyMs} ms`, (remote.error ?? '').replace(/\s+/g, ' ')]);
  process.stdout.write(`${table([['ID', 'NAME', 'URL', 'STATE', 'VERSION', 'LATENCY', 'ERROR'], ...rows])}\n`);
  if (!steward.daemonUrl) process.stdout.write('No Steward daemon serves this data folder now: nothing follows these remotes; their state is from a check just made.\n');
}

async function find(call: Call, idOrName: string): Promise<Remote> {
  const { remotes } = await call('remotes.list');
  const byId = remotes.find((remote) => remote.id === idOrName);
  if (byId) return byId;
  const named = remotes.filter((remote) => remote.name === idOrName);
  if (named.length === 1) return named[0];
  if (named.length > 1) throw new UsageError(`${named.length} remotes are named “${idOrName}”: give the id of the one to remove (${named.map((remote) => remote.id).join(', ')}).`);
  throw new AppError('not_found', `No remote has the id or name “${idOrName}” (steward remotes list shows them).`);
}

async function remove(steward: Steward, idOrName: string): Promise<void> {
  const { call } = steward;
  const remote = await find(call, idOrName);
  await call('remotes.delete', { params: { id: remote.id } });
  process.stdout.write(`Removed remote “${remote.name}” (${remote.id}): its instances and their lines are gone from here; nothing changed there.\n`);
  // The secret `remotes add` made for it goes with it, unless another remote uses it too.
  const othersUse = (await call('remotes.list')).remotes.some((other) => other.apiKeyRef === remote.apiKeyRef);
  if (remote.apiKeyRef === keySecretName(remote.name) && !othersUse) {
    await call('secrets.delete', { params: { name: remote.apiKeyRef } }).catch(() => {});
    process.stdout.write(`Its key, in the secret ${remote.apiKeyRef}, was deleted too.\n`);
  } else {
    process.stdout.write(`Its key stays stored in the secret ${remote.apiKeyRef}.\n`);
  }
}

/** Checks the arguments (and reads the key) first, then opens Steward (`open`) for the command. */
export async function remotesCommand(open: () => Promise<Steward>, action: string | undefined, args: string[], keyRef: string | undefined): Promise<void> {
  if (keyRef !== undefined && action !== 'add') throw new UsageError('--key-ref goes with remotes add only.');
  let command: (steward: Steward) => Promise<void>;
  if (action === 'add') {
    const [name, url] = args;
    if (!name || !url || args.length > 2) throw new UsageError(`remotes add needs a NAME and a URL (steward remotes add NAME URL), with ${keyHelp}.`);
    const key = await keySource(keyRef);
    command = (steward) => add(steward, name, url, key);
  } else if (action === 'list') {
    if (args.length > 0) throw new UsageError('remotes list takes no arguments.');
    command = list;
  } else if (action === 'remove') {
    if (args.length !== 1) throw new UsageError('remotes remove needs the id or the name of one remote (steward remotes list shows them).');
    command = (steward) => remove(steward, args[0]);
  } else {
    throw new UsageError(`Unknown remotes command "${action ?? ''}": add, list or remove.`);
  }
  const steward = await open();
  try {
    await command(steward);
  } finally {
    await steward.close();
  }
}

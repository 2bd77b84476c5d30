// A remote repository for the git source: its URL read (https, ssh, git, file, and ssh's
// user@host:path), the host checked against the address rules before each contact, and the git
// configuration that holds git to the address checked: for https the address pinned with
// http.curloptResolve and redirects not followed (a redirect would lead elsewhere unchecked), for
// git:// the URL rewritten to the address; ssh resolves the name itself (its own configuration may
// say where a host is), after the name was checked. A credential goes to git as an Authorization
// header through the environment, never in the process list or a URL.
import fs from 'node:fs';
import path from 'node:path';
import { git } from './git-cli';

export interface RemoteUrl {
  scheme: 'https' | 'http' | 'ssh' | 'git' | 'file';
  /** As written, for git (with a password only if the user wrote one there). */
  url: string;
  /** Without brackets; empty for file://. */
  host: string;
  port: number;
  /** In words, without a password. */
  where: string;
}

const defaultPorts = { https: 443, http: 80, ssh: 22, git: 9418, file: 0 } as const;

/** Whether `repository` names a remote (a URL or user@host:path) rather than a folder. */
export function isRemote(repository: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(repository) || /^[^/\\:]+@[^/\\:]+:/.test(repository);
}

/** Reads a remote's URL; throws a clear Error for what the git source does not fetch. */
export function parseRemote(repository: string): RemoteUrl {
  const scp = /^([^/\\:@]+)@([^/\\:]+):(.+)$/.exec(repository);
  if (scp && !repository.includes('://')) {
    return { scheme: 'ssh', url: repository, host: scp[2].toLowerCase(), port: 22, where: repository };
  }
  let url: URL;
  try {
    url = new URL(repository);
  } catch {
    throw new Error(`"${repository}" is not a URL git can fetch`);
  }
  const scheme = url.protocol.slice(0, -1);
  if (scheme !== 'https' && scheme !== 'http' && scheme !== 'ssh' && scheme !== 'git' && scheme !== 'file') {
    throw new Error(`Steward fetches https://, ssh://, git:// and file:// remotes, not ${url.protocol}//`);
  }
  const where = url.password ? repository.replace(`:${url.password}@`, ':…@') : repository;
  if (scheme === 'file') return { scheme, url: repository, host: '', port: 0, where };
  if (!url.hostname) throw new Error(`"${where}" names no host`);
  return { scheme, url: repository, host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: url.port ? Number(url.port) : defaultPorts[scheme], where };
}

export interface RemoteAccess {
  /** The URL git is given (git:// rewritten to the address checked). */
  url: string;
  config: [string, string][];
}

export interface AccessTools {
  reach(host: string, port: number, named: { host: string; port: number }): Promise<string>;
  secret(name: string): string;
}

/** The header a token (or user:password) makes: Basic, as every forge takes it over https. */
function authorization(token: string): string {
  const pair = token.includes(':') ? token : `x-access-token:${token}`;
  return `Authorization: Basic ${Buffer.from(pair).toString('base64')}`;
}

/** Checks the remote's host against the address rules and says how git is to reach it. */
export async function accessFor(remote: RemoteUrl, credential: string | undefined, tools: AccessTools): Promise<RemoteAccess> {
  const config: [string, string][] = [['http.followRedirects', 'false']];
  if (credential !== undefined && remote.scheme !== 'https') {
    const how = remote.scheme === 'ssh' ? 'reaches it with your ssh keys' : remote.scheme === 'http' ? 'would send it unencrypted' : 'takes none';
    throw new Error(`A credential is sent only to an https:// remote; ${remote.scheme}:// ${how}`);
  }
  if (remote.scheme === 'file') return { url: remote.url, config };
  const address = await tools.reach(remote.host, remote.port, { host: remote.host, port: remote.port });
  const dial = address.includes(':') ? `[${address}]` : address;
  let url = remote.url;
  if (remote.scheme === 'https' || remote.scheme === 'http') {
    const host = remote.host.includes(':') ? `[${remote.host}]` : remote.host;
    config.push(['http.curloptResolve', `${host}:${remote.port}:${dial}`]);
    // Slow or stalled transfers end rather than hang until the time limit.
    config.push(['http.lowSpeedLimit', '1'], ['http.lowSpeedTime', '60']);
    if (credential !== undefined) config.push(['http.extraHeader', authorization(tools.secret(credential))]);
  } else if (remote.scheme === 'git') {
    const parsed = new URL(remote.url);
    parsed.hostname = dial;
    url = parsed.toString();
  }
  return { url, config };
}

/** The branch's tip on the remote, or undefined when it has no such branch. */
export async function remoteTip(mirror: string, access: RemoteAccess, branch: string, signal: AbortSignal): Promise<string | undefined> {
  const ref = `refs/heads/${branch}`;
  const { stdout } = await git(['ls-remote', '--end-of-options', access.url, ref], { cwd: mirror, signal, config: access.config });
  for (const line of stdout.split('\n')) {
    const [sha, name] = line.split('\t');
    if (name === ref && sha) return sha;
  }
  return undefined;
}

/** The ref in Steward's mirror that holds what was last fetched of the branch. */
export const fetchedRef = 'refs/steward/fetched';
/** The ref that keeps the last commit handled (so that no gc loses what the next range starts from). */
export const handledRef = 'refs/steward/handled';

/** A bare repository of Steward's own under the data folder, made on first use. */
export async function openMirror(folder: string, signal: AbortSignal): Promise<void> {
  if (fs.existsSync(path.join(folder, 'HEAD'))) return;
  fs.mkdirSync(folder, { recursive: true });
  await git(['init', '--bare', '--quiet'], { cwd: folder, signal });
  // Only this source writes here; what it fetched stays until the source is gone.
  await git(['config', 'gc.auto', '0'], { cwd: folder, signal });
}

/** Fetches the branch into the mirror's fetchedRef; `shallowSince` or `depth` fetch only that far back (the preview). */
export async function fetchBranch(mirror: string, access: RemoteAccess, branch: string, signal: AbortSignal, options: { timeoutMs: number; shallowSince?: Date; depth?: number }): Promise<void> {
  const depth = options.shallowSince ? [`--shallow-since=${options.shallowSince.toISOString()}`] : options.depth ? [`--depth=${options.depth}`] : [];
  await git(['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--no-auto-gc', ...depth, '--end-of-options', access.url, `+refs/heads/${branch}:${fetchedRef}`], {
    cwd: mirror,
    signal,
    config: access.config,
    timeoutMs: options.timeoutMs,
  });
}

/** Lock files a killed git left in the mirror (only this source writes there, one git at a time). */
export function removeStaleLocks(mirror: string): void {
  for (const name of ['packed-refs.lock', 'shallow.lock', 'config.lock', path.join('refs', 'steward', 'fetched.lock'), path.join('refs', 'steward', 'handled.lock')]) {
    fs.rmSync(path.join(mirror, name), { force: true });
  }
}

// An instance's sandbox: what its agent's processes may read, write and reach. `sandbox` keeps
// every process of a run inside a boundary (its workspace, its CLI's own state, a private
// temporary folder, the hosts it is given); `off` runs them as the user, as a shell would.
import { z } from 'zod';

export const sandboxModes = ['sandbox', 'off'] as const;
export type SandboxMode = (typeof sandboxModes)[number];

const hostLabel = '(?:\\*|[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)';
const hostName = `${hostLabel}(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*`;
const ipv6 = '\\[[0-9A-Fa-f:.]+\\]';
/** `api.example.com`, `*.github.com`, `*` (any host), `127.0.0.1:8080`, `[::1]:8080`, `localhost:11434`. */
const hostPattern = new RegExp(`^(?:${hostName}|${ipv6})(?::(?:[1-9][0-9]{0,4}))?$`);

export const NetworkHost = z
  .string()
  .trim()
  .toLowerCase()
  .max(260)
  .refine((value) => hostPattern.test(value) && !value.slice(1).includes('*') && Number(/:(\d+)$/.exec(value)?.[1] ?? 0) <= 65535, {
    message: 'must be a host name, a *.wildcard, * for any host, or host:port (e.g. api.example.com, *.github.com, 127.0.0.1:8080)',
  });

/** Absolute, or from the home folder (`~/notes`). */
export const SandboxPath = z
  .string()
  .trim()
  .max(4096)
  .refine((value) => value === '~' || value.startsWith('~/') || value.startsWith('/'), { message: 'must be an absolute path or start with ~/' })
  // eslint-disable-next-line no-control-regex -- a path with control characters is a mistake, not a path
  .refine((value) => !/[\u0000-\u001f]/.test(value), { message: 'must not hold control characters' });

/** What one run may use: its processes (threads count), its memory, its private /tmp. */
export const SandboxLimits = z.strictObject({
  processes: z.number().int().min(32).max(65536).default(512).describe('Processes and threads the run may have at once'),
  memoryMb: z.number().int().min(128).max(1048576).default(4096).describe('Memory the run may use, in MiB'),
  tmpMb: z.number().int().min(16).max(1048576).default(1024).describe('Size of its private /tmp, and of /dev/shm, in MiB'),
});
export type SandboxLimits = z.output<typeof SandboxLimits>;
export const defaultLimits: SandboxLimits = { processes: 512, memoryMb: 4096, tmpMb: 1024 };
/**
 * The variables of Steward's own environment every agent gets (the rest only by `envAllow`), and
 * the prefix of those it gets by prefix (LC_ALL, LC_CTYPE, …): agents/agent-environment.ts. Where
 * it runs and how it reaches the network: the proxy, and the certificates to trust behind it (paths,
 * not secrets; Codex also starts its MCP client late enough to miss its first turn without
 * SSL_CERT_FILE where the system names one).
 */
export const agentEnvBase = [
  'PATH', 'HOME', 'LANG', 'TERM', 'TZ', 'USER', 'LOGNAME', 'SHELL', 'TMPDIR',
  'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy',
  'SSL_CERT_FILE', 'SSL_CERT_DIR', 'NODE_EXTRA_CA_CERTS',
] as const;
export const agentEnvBasePrefix = 'LC_';

/** The base list in words: "PATH, HOME, LANG, LC_*, …". */
export const agentEnvBaseText =
  'PATH, HOME, LANG, LC_*, TERM, TZ, USER, LOGNAME, SHELL, TMPDIR, the proxy variables (HTTP_PROXY, HTTPS_PROXY, NO_PROXY) and the certificates to trust (SSL_CERT_FILE, SSL_CERT_DIR, NODE_EXTRA_CA_CERTS)';

/** A variable of Steward's own environment passed on to the agent: a plain name, no pattern. */
export const EnvName = z
  .string()
  .trim()
  .max(200)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name (letters, digits and _, no *)');

export const SandboxConfig = z.strictObject({
  mode: z.enum(sandboxModes).describe("sandbox: the agent sees its workspace, its own state and the hosts it is given; off: it runs as you, with your files and network"),
  network: z
    .array(NetworkHost)
    .max(200)
    .default([])
    .describe('Hosts the agent may reach beyond its model endpoint and Steward: names, *.wildcards, host:port, * for any; loopback only with its port'),
  readAllow: z.array(SandboxPath).max(200).default([]).describe('Further paths the agent may read (besides its workspace, its CLI and the system\'s folders), read-only'),
  readDeny: z.array(SandboxPath).max(200).default([]).describe('Further paths the agent may not read'),
  writeAllow: z
    .array(SandboxPath)
    .max(200)
    .default([])
    .describe('Further paths the agent may write (besides its workspace and its CLI state); naming a protected file of the workspace (.git/hooks, .mcp.json, …) lets it write that file'),
  // Optional: instances saved before limits existed have none stored, and get the defaults.
  limits: SandboxLimits.optional().describe('What one run may use; a field left out has its default'),
  envAllow: z
    .array(EnvName)
    .max(200)
    .default([])
    .describe(`Variables of Steward's own environment the agent gets too, by name; sandboxed or off, it gets only ${agentEnvBaseText} from there, these, and its agent's env`),
});
export type SandboxConfig = z.output<typeof SandboxConfig>;

/** What a new instance gets: the boundary on, nothing more allowed. */
export const defaultSandbox: SandboxConfig = { mode: 'sandbox', network: [], readAllow: [], readDeny: [], writeAllow: [], envAllow: [] };

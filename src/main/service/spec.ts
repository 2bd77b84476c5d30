// What a login service runs: `steward serve` by absolute paths, with the options it was installed
// with, so the service does not depend on the shell's PATH, working folder or npm.
export interface ServiceSpec {
  /** The node binary, absolute (process.execPath of the installing command). */
  node: string;
  /** The built cli.js, absolute. */
  cli: string;
  /** The arguments after the cli path: serve and its options. */
  args: string[];
  /** The installing shell's PATH, so the agents' commands (claude, codex, …) are found. */
  path: string | undefined;
}

export interface ServeOptions {
  dataDir: string;
  port: number;
  host: string;
  allowedHosts: readonly string[];
}

export const serviceName = 'steward';

export function serviceSpec(node: string, cli: string, options: ServeOptions, path: string | undefined): ServiceSpec {
  const args = ['serve', '--data-dir', options.dataDir, '--port', String(options.port), '--host', options.host];
  for (const name of options.allowedHosts) args.push('--allowed-host', name);
  return { node, cli, args, path };
}

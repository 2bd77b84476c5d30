// `steward service install|uninstall|status`: builds the service's command line from this
// command's own options and hands it to the service manager.
import fs from 'node:fs';
import path from 'node:path';
import { ServiceError, installService, serviceStatus, systemHost, uninstallService } from '../service/service-manager';
import { type ServeOptions, serviceSpec } from '../service/spec';

/** The built cli.js a service can run with plain node; under tsx, the project's build of it. */
function builtCli(cliFile: string): string {
  if (cliFile.endsWith('.js')) return cliFile;
  const built = path.resolve(path.dirname(cliFile), '../../out/main/cli.js');
  if (!fs.existsSync(built)) throw new ServiceError(`A service runs the built command: run \`npm run build\` first (${built} is missing).`);
  return built;
}

export const serviceActions = ['install', 'uninstall', 'status'] as const;
export type ServiceAction = (typeof serviceActions)[number];

export function serviceCommand(action: ServiceAction, cliFile: string, options: ServeOptions): void {
  const host = systemHost();
  if (action === 'install') installService(host, serviceSpec(process.execPath, builtCli(cliFile), options, process.env.PATH));
  else if (action === 'uninstall') uninstallService(host);
  else serviceStatus(host);
}

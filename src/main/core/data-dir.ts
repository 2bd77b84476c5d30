// Where Steward keeps its data: the OS's usual place, unless --data-dir or STEWARD_DATA_DIR says
// otherwise. The desktop app, `steward serve` and the CLI all resolve it here, so keys, automations
// and webhooks are the same whichever face a user opens.
import os from 'node:os';
import path from 'node:path';

export function defaultDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = os.homedir(),
): string {
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Steward');
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Steward');
  // The XDG spec ignores a relative XDG_DATA_HOME.
  const dataHome = env.XDG_DATA_HOME && path.isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : path.join(home, '.local', 'share');
  return path.join(dataHome, 'steward');
}

export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = flag ?? env.STEWARD_DATA_DIR;
  return path.resolve(chosen && chosen !== '' ? chosen : defaultDataDir(process.platform, env));
}

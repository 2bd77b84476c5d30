// Where Steward keeps its data: the OS's usual place, unless --data-dir or STEWARD_DATA_DIR says otherwise.
import os from 'node:os';
import path from 'node:path';

export function defaultDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = os.homedir(),
): string {
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Steward');
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Steward');
  return path.join(env.XDG_DATA_HOME || path.join(home, '.local', 'share'), 'steward');
}

export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = flag ?? env.STEWARD_DATA_DIR;
  return path.resolve(chosen && chosen !== '' ? chosen : defaultDataDir(process.platform, env));
}

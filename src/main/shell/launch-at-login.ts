// Launch at login, as the setting says. macOS and Windows have login items (Electron's
// setLoginItemSettings); Linux has none in Electron, so Steward writes an XDG autostart entry
// ($XDG_CONFIG_HOME/autostart/steward.desktop) and removes it when the setting goes off. Started
// at login, Steward comes up in the tray without opening its window (--hidden).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const hiddenFlag = '--hidden';

export interface LaunchTarget {
  /** process.execPath: the app's executable, or Electron's while developing. */
  execPath: string;
  isPackaged: boolean;
  /** app.getAppPath(): what Electron must be given to run the project while developing. */
  appPath: string;
  /** $APPIMAGE inside an AppImage: its execPath is a mount point that changes at every start. */
  appImage?: string | undefined;
}

/** The command that starts this Steward again, without the --hidden flag. */
export function launchCommand(target: LaunchTarget): string[] {
  if (target.appImage) return [target.appImage];
  return target.isPackaged ? [target.execPath] : [target.execPath, target.appPath];
}

export function autostartFile(env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): string {
  // The XDG spec ignores a relative XDG_CONFIG_HOME.
  const config = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(home, '.config');
  return path.join(config, 'autostart', 'steward.desktop');
}

/**
 * One argument of a desktop entry's Exec key: quoted when it holds a reserved character, with `"`,
 * `` ` ``, `$` and `\` escaped inside the quotes, then every backslash doubled again for the
 * string escaping the spec applies first; `%` is doubled so it is not read as a field code.
 */
export function execArgument(arg: string): string {
  const literal = arg.replace(/%/g, '%%');
  if (!/[\s"'\\><~|&;$*?#()`]/.test(arg)) return literal;
  return `"${literal.replace(/[\\"`$]/g, (char) => `\\${char}`).replace(/\\/g, '\\\\')}"`;
}

export function autostartEntry(command: string[]): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Version=1.0',
    'Name=Steward',
    'Comment=Runs your AI agents on schedules, webhooks and on demand',
    `Exec=${[...command, hiddenFlag].map(execArgument).join(' ')}`,
    'Icon=steward',
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

export interface LoginItems {
  setLoginItemSettings(settings: { openAtLogin: boolean; path?: string; args?: string[] }): void;
}

export function applyLaunchAtLogin(enabled: boolean, platform: NodeJS.Platform, target: LaunchTarget, loginItems: LoginItems, file: string = autostartFile()): void {
  if (platform === 'linux') {
    if (!enabled) {
      fs.rmSync(file, { force: true });
      return;
    }
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, autostartEntry(launchCommand(target)));
    return;
  }
  if (platform === 'win32') {
    // The registry entry keeps the exact arguments; removing it must pass the same ones.
    const [executable, ...args] = launchCommand(target);
    loginItems.setLoginItemSettings({ openAtLogin: enabled, path: executable, args: [...args.map((arg) => `"${arg}"`), hiddenFlag] });
    return;
  }
  loginItems.setLoginItemSettings({ openAtLogin: enabled });
}

/** Whether this start came from the login: the flag above, or macOS's own record of it. */
export function startedAtLogin(argv: readonly string[], openedAtLoginOnMac: () => boolean, platform: NodeJS.Platform): boolean {
  return argv.includes(hiddenFlag) || (platform === 'darwin' && openedAtLoginOnMac());
}
